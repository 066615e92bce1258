import DeltaSyncCore

/// A model field in a predicate or sort, typed by the field's value: generated as
/// `Post.keys.rating`.
///
/// ```swift
/// let popular = Post.keys.rating > 4 && Post.keys.status == .published
/// let swifty = Post.keys.rating.gt(4).or(Post.keys.title.beginsWith("Swift"))
/// let posts = try await dataStore.query(Post.self, where: popular || swifty)
/// ```
public struct QueryField<Value: ModelValue>: Sendable {
    /// The field's GraphQL name, as filters and sorts send it.
    public let name: String

    /// The field named `name`; generated models make these for you as `Model.keys`.
    public init(_ name: String) {
        self.name = name
    }

    private func condition(_ op: FieldOperator) -> QueryPredicate { .field(name, op) }

    /// `{field: {eq: value}}`; `nil` matches a null or missing value.
    public func eq(_ value: Value?) -> QueryPredicate { condition(.eq(value.json)) }
    /// `{field: {ne: value}}`.
    public func ne(_ value: Value?) -> QueryPredicate { condition(.ne(value.json)) }
    /// `{field: {le: value}}`.
    public func le(_ value: Value) -> QueryPredicate { condition(.le(value.json)) }
    /// `{field: {lt: value}}`.
    public func lt(_ value: Value) -> QueryPredicate { condition(.lt(value.json)) }
    /// `{field: {ge: value}}`.
    public func ge(_ value: Value) -> QueryPredicate { condition(.ge(value.json)) }
    /// `{field: {gt: value}}`.
    public func gt(_ value: Value) -> QueryPredicate { condition(.gt(value.json)) }
    /// Inclusive on both ends.
    public func between(_ start: Value, _ end: Value) -> QueryPredicate { condition(.between(start.json, end.json)) }
    /// Whether the field is set (`true`) or missing or null (`false`).
    public func attributeExists(_ exists: Bool) -> QueryPredicate { condition(.attributeExists(exists)) }
    /// `{field: {in: values}}` (subscription filters only on AppSync; evaluated locally).
    public func `in`(_ values: [Value]) -> QueryPredicate { condition(.in(values.map(\.json))) }
    /// `{field: {notIn: values}}`.
    public func notIn(_ values: [Value]) -> QueryPredicate { condition(.notIn(values.map(\.json))) }

    /// `field == value`: ``eq(_:)``.
    public static func == (field: Self, value: Value?) -> QueryPredicate { field.eq(value) }
    /// `field != value`: ``ne(_:)``.
    public static func != (field: Self, value: Value?) -> QueryPredicate { field.ne(value) }
    /// `field <= value`: ``le(_:)``.
    public static func <= (field: Self, value: Value) -> QueryPredicate { field.le(value) }
    /// `field < value`: ``lt(_:)``.
    public static func < (field: Self, value: Value) -> QueryPredicate { field.lt(value) }
    /// `field >= value`: ``ge(_:)``.
    public static func >= (field: Self, value: Value) -> QueryPredicate { field.ge(value) }
    /// `field > value`: ``gt(_:)``.
    public static func > (field: Self, value: Value) -> QueryPredicate { field.gt(value) }
}

extension QueryField where Value == String {
    /// Substring.
    public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(.string(text))) }
    /// Not a substring: `{field: {notContains: text}}`.
    public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(.string(text))) }
    /// Starts with `prefix`: `{field: {beginsWith: prefix}}`.
    public func beginsWith(_ prefix: String) -> QueryPredicate { .field(name, .beginsWith(prefix)) }
    /// Substring, as Amplify's `~=`.
    public static func ~= (field: Self, text: String) -> QueryPredicate { field.contains(text) }
}

extension QueryField where Value: TemporalValue {
    /// Starts with `prefix` (`"2026-11"` for a month), compared as text.
    public func beginsWith(_ prefix: String) -> QueryPredicate { .field(name, .beginsWith(prefix)) }
}

/// List fields: `contains` tests for an element.
extension QueryField {
    /// The list holds `element`: `{field: {contains: element}}`.
    public func contains<Element: ModelValue>(_ element: Element) -> QueryPredicate where Value == [Element] {
        .field(name, .contains(element.json))
    }
    /// The list does not hold `element`: `{field: {notContains: element}}`.
    public func notContains<Element: ModelValue>(_ element: Element) -> QueryPredicate where Value == [Element] {
        .field(name, .notContains(element.json))
    }
}

extension QueryPredicate {
    /// Both predicates (AND), flattened, with ``all`` dropped.
    public static func && (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
        lhs.conjoined(with: rhs)
    }

    /// Either predicate (OR), flattened, ``QueryPredicate/all`` absorbing.
    public static func || (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
        if lhs == .all || rhs == .all { return .all }
        return .or(lhs.disjuncts + rhs.disjuncts)
    }

    /// The opposite predicate (`not`).
    public static prefix func ! (predicate: QueryPredicate) -> QueryPredicate { .not(predicate) }

    /// `self && other`.
    public func and(_ other: QueryPredicate) -> QueryPredicate { self && other }
    /// `self || other`.
    public func or(_ other: QueryPredicate) -> QueryPredicate { self || other }
    /// `!self`.
    public func not() -> QueryPredicate { !self }

    private var disjuncts: [QueryPredicate] {
        if case .or(let parts) = self { return parts.flatMap(\.disjuncts) }
        return [self]
    }
}
