import GraphQL
import OrderedCollections

/// Request variables coerced to their declared input types with the GraphQL library's rules
/// (`getVariableValues`: a value is checked, then coerced), for ``MutationShortcut``.
///
/// The library rebuilds an input object's field map each time it checks or coerces a value,
/// matching every field name against a regular expression: three times per argument, most of
/// a mutation's coercion for a model's input. This reads the field maps the schema froze once
/// (``ExecutableSchema``). It accepts only what the library accepts, with the same result;
/// for anything else it returns `nil`, and the request goes through the executor, which
/// reports the error as it always did.
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

    /// `value` coerced to `type`: `.undefined` and `.null` stay as they are where allowed, an
    /// input object gets every field of its type (a default or `.undefined` when not given), a
    /// single value for a list becomes a list of one. `nil` where the library reports an error.
    static func coerce(_ value: Map, to type: any GraphQLInputType) -> Map? {
        if let nonNull = type as? GraphQLNonNull {
            guard value != .null, value != .undefined, let inner = nonNull.ofType as? any GraphQLInputType else { return nil }
            return coerce(value, to: inner)
        }
        if value == .null || value == .undefined { return value }
        if let list = type as? GraphQLList {
            guard let itemType = list.ofType as? any GraphQLInputType else { return nil }
            guard case .array(let elements) = value else { return coerce(value, to: itemType).map { .array([$0]) } }
            var coerced: [Map] = []
            coerced.reserveCapacity(elements.count)
            for element in elements {
                guard let item = coerce(element, to: itemType) else { return nil }
                coerced.append(item)
            }
            return .array(coerced)
        }
        if let object = type as? GraphQLInputObjectType {
            guard !object.isOneOf, case .dictionary(let given) = value, let fields = try? object.fields() else { return nil }
            for name in given.keys where fields[name] == nil { return nil }
            var coerced = OrderedDictionary<String, Map>()
            for (name, field) in fields {
                let fieldValue = given[name] ?? .undefined
                if fieldValue == .undefined {
                    // The library's check refuses a missing non-null field even when it has a default.
                    guard !(field.type is GraphQLNonNull) else { return nil }
                    coerced[name] = field.defaultValue ?? .undefined
                } else {
                    guard let item = coerce(fieldValue, to: field.type) else { return nil }
                    coerced[name] = item
                }
            }
            return .dictionary(coerced)
        }
        if let leaf = type as? any GraphQLLeafType {
            guard let parsed = try? leaf.parseValue(value: value), parsed != .null, parsed != .undefined else { return nil }
            return parsed
        }
        return nil
    }
}
