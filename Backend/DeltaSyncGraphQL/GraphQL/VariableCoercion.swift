import GraphQL
import OrderedCollections

/// Request variables coerced to their declared input types with the GraphQL library's rules
/// (`getVariableValues`: a value is checked, then coerced), for ``MutationShortcut``.
///
/// The library rebuilds an input object's field map each time it checks or coerces a value,
/// matching every field name against a regular expression: three times per argument, most of
/// a mutation's coercion for a model's input. Here each declared type's rules are worked out
/// once per document (``plan(for:)``): which fields an object has, in order, which are non-null,
/// their defaults, how to coerce each. Reading the library's types per request (casts, field
/// maps copied field by field) cost more than the rules themselves. It accepts only what the
/// library accepts, with the same result; for anything else it returns `nil`, and the request
/// goes through the executor, which reports the error as it always did.
enum VariableCoercion {
    /// The type a variable definition declares, `nil` when it names no input type.
    static func type(_ ast: any `Type`, in schema: GraphQLSchema) -> (any GraphQLInputType)? {
        if let list = ast as? ListType {
            return type(list.type, in: schema).map { GraphQLList($0) }
        }
        if let nonNull = ast as? NonNullType {
            guard let inner = type(nonNull.type, in: schema) as? any GraphQLNullableType else { return nil }
            return GraphQLNonNull(inner)
        }
        guard let named = ast as? NamedType else { return nil }
        return schema.getType(name: named.name.value) as? any GraphQLInputType
    }

    /// How values are coerced to one input type.
    indirect enum Plan: @unchecked Sendable {
        /// `null` and a missing value refused, anything else as the inner plan says.
        case nonNull(Plan)
        /// A list, or a single value taken as a list of one.
        case list(Plan)
        case object(ObjectPlan)
        /// Parsed by the scalar or enum type (the library's own `parseValue`).
        case leaf(any GraphQLLeafType)
        /// A type left to the library (a `@oneOf` input): everything but `null` refused here.
        case refused
    }

    /// An input object's fields, in the type's order. A class, filled in after it is made, so
    /// that a type whose fields refer back to it is planned once.
    final class ObjectPlan: @unchecked Sendable {
        struct Field {
            let name: String
            let plan: Plan
            let nonNull: Bool
            let defaultValue: Map?
        }

        fileprivate(set) var fields: [Field] = []
        fileprivate(set) var names: Set<String> = []
    }

    /// The plan for `type`, made once and used for every request of a document.
    static func plan(for type: any GraphQLInputType) -> Plan {
        var objects: [String: ObjectPlan] = [:]
        return plan(for: type, objects: &objects)
    }

    private static func plan(for type: any GraphQLInputType, objects: inout [String: ObjectPlan]) -> Plan {
        if let nonNull = type as? GraphQLNonNull {
            guard let inner = nonNull.ofType as? any GraphQLInputType else { return .nonNull(.refused) }
            return .nonNull(plan(for: inner, objects: &objects))
        }
        if let list = type as? GraphQLList {
            guard let item = list.ofType as? any GraphQLInputType else { return .refused }
            return .list(plan(for: item, objects: &objects))
        }
        if let object = type as? GraphQLInputObjectType {
            if let planned = objects[object.name] { return .object(planned) }
            guard !object.isOneOf, let fields = try? object.fields() else { return .refused }
            let planned = ObjectPlan()
            objects[object.name] = planned
            for (name, field) in fields {
                planned.fields.append(
                    ObjectPlan.Field(
                        name: name, plan: plan(for: field.type, objects: &objects), nonNull: field.type is GraphQLNonNull,
                        defaultValue: field.defaultValue))
            }
            planned.names = Set(fields.keys)
            return .object(planned)
        }
        if let leaf = type as? any GraphQLLeafType { return .leaf(leaf) }
        return .refused
    }

    /// `value` coerced by `plan`: `.undefined` and `.null` stay as they are where allowed, an
    /// input object gets every field of its type (a default or `.undefined` when not given), a
    /// single value for a list becomes a list of one. `nil` where the library reports an error.
    static func coerce(_ value: Map, with plan: Plan) -> Map? {
        if case .nonNull(let inner) = plan {
            guard value != .null, value != .undefined else { return nil }
            return coerce(value, with: inner)
        }
        if value == .null || value == .undefined { return value }
        switch plan {
        case .nonNull, .refused:
            return nil
        case .list(let item):
            guard case .array(let elements) = value else { return coerce(value, with: item).map { .array([$0]) } }
            var coerced: [Map] = []
            coerced.reserveCapacity(elements.count)
            for element in elements {
                guard let element = coerce(element, with: item) else { return nil }
                coerced.append(element)
            }
            return .array(coerced)
        case .object(let object):
            guard case .dictionary(let given) = value else { return nil }
            for name in given.keys where !object.names.contains(name) { return nil }
            var coerced = OrderedDictionary<String, Map>(minimumCapacity: object.fields.count)
            for field in object.fields {
                let fieldValue = given[field.name] ?? .undefined
                if fieldValue == .undefined {
                    // The library's check refuses a missing non-null field even when it has a default.
                    guard !field.nonNull else { return nil }
                    coerced[field.name] = field.defaultValue ?? .undefined
                } else {
                    guard let item = coerce(fieldValue, with: field.plan) else { return nil }
                    coerced[field.name] = item
                }
            }
            return .dictionary(coerced)
        case .leaf(let leaf):
            guard let parsed = try? leaf.parseValue(value: value), parsed != .null, parsed != .undefined else { return nil }
            return parsed
        }
    }
}
