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
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    private func condition(_ op: FieldOperator) -> QueryPredicate { .field(name, op) }

    public func eq(_ value: Value?) -> QueryPredicate { condition(.eq(value.json)) }
    public func ne(_ value: Value?) -> QueryPredicate { condition(.ne(value.json)) }
    public func le(_ value: Value) -> QueryPredicate { condition(.le(value.json)) }
    public func lt(_ value: Value) -> QueryPredicate { condition(.lt(value.json)) }
    public func ge(_ value: Value) -> QueryPredicate { condition(.ge(value.json)) }
    public func gt(_ value: Value) -> QueryPredicate { condition(.gt(value.json)) }
    /// Inclusive on both ends.
    public func between(_ start: Value, _ end: Value) -> QueryPredicate { condition(.between(start.json, end.json)) }
    /// Whether the field is set (`true`) or missing or null (`false`).
    public func attributeExists(_ exists: Bool) -> QueryPredicate { condition(.attributeExists(exists)) }
    public func `in`(_ values: [Value]) -> QueryPredicate { condition(.in(values.map(\.json))) }
    public func notIn(_ values: [Value]) -> QueryPredicate { condition(.notIn(values.map(\.json))) }

    public static func == (field: Self, value: Value?) -> QueryPredicate { field.eq(value) }
    public static func != (field: Self, value: Value?) -> QueryPredicate { field.ne(value) }
    public static func <= (field: Self, value: Value) -> QueryPredicate { field.le(value) }
    public static func < (field: Self, value: Value) -> QueryPredicate { field.lt(value) }
    public static func >= (field: Self, value: Value) -> QueryPredicate { field.ge(value) }
    public static func > (field: Self, value: Value) -> QueryPredicate { field.gt(value) }
}

extension QueryField where Value == String {
    /// Substring.
    public func contains(_ text: String) -> QueryPredicate { .field(name, .contains(.string(text))) }
    public func notContains(_ text: String) -> QueryPredicate { .field(name, .notContains(.string(text))) }
    public func beginsWith(_ prefix: String) -> QueryPredicate { .field(name, .beginsWith(prefix)) }
    /// Substring, as Amplify's `~=`.
    public static func ~= (field: Self, text: String) -> QueryPredicate { field.contains(text) }
}

extension QueryField where Value: TemporalValue {
    public func beginsWith(_ prefix: String) -> QueryPredicate { .field(name, .beginsWith(prefix)) }
}

/// List fields: `contains` tests for an element.
extension QueryField {
    public func contains<Element: ModelValue>(_ element: Element) -> QueryPredicate where Value == [Element] {
        .field(name, .contains(element.json))
    }
    public func notContains<Element: ModelValue>(_ element: Element) -> QueryPredicate where Value == [Element] {
        .field(name, .notContains(element.json))
    }
}

extension QueryPredicate {
    /// Both predicates (AND), flattened, with ``all`` dropped.
    public static func && (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
        lhs.conjoined(with: rhs)
    }

    public static func || (lhs: QueryPredicate, rhs: QueryPredicate) -> QueryPredicate {
        if lhs == .all || rhs == .all { return .all }
        return .or(lhs.disjuncts + rhs.disjuncts)
    }

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
