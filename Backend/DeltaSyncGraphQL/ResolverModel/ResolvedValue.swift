import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// A resolver's JSON value as the executor completes it: objects of a model become
/// ``ModelObject``s, so their fields are read through the same field rules and relation
/// resolvers as a generated resolver's items; other objects read their keys.
///
/// A model object the caller may not read (its model's `get` rules) never reaches the
/// response, whatever the template returned: where the field holds one object the field is
/// refused with AppSync's `Unauthorized` error, in a list the object is left out.
struct ResolvedValue {
    let schema: AmplifySchema
    let caller: Caller
    let field: FieldCoordinate

    /// `value` for a field of type `type`.
    func resolvable(_ value: JSONValue, as type: GraphQLOutputType) throws(AppSyncError) -> (any Sendable)? {
        switch type {
        case let nonNull as GraphQLNonNull:
            guard let inner = nonNull.ofType as? GraphQLOutputType else { return value.resolvable }
            return try resolvable(value, as: inner)
        case let list as GraphQLList:
            guard case .array(let values) = value, let inner = list.ofType as? GraphQLOutputType else { return value.resolvable }
            var elements: [(any Sendable)?] = []
            for element in values {
                if let model = modelObject(element, inner), !caller.mayRead(element.objectValue ?? [:], of: model) { continue }
                elements.append(try resolvable(element, as: inner))
            }
            return elements
        case let object as GraphQLObjectType:
            guard case .object(let fields) = value else { return value.resolvable }
            if let model = schema.model(named: object.name) {
                guard caller.mayRead(fields, of: model) else { throw .fieldUnauthorized(field.field, on: field.type) }
                return ModelObject(item: fields)
            }
            var converted: [String: JSONValue] = fields
            var nested: [String: any Sendable] = [:]
            for (name, definition) in try Self.fields(of: object) where fields[name] != nil {
                // Objects of models inside (a connection's items) need the model's readers.
                guard Self.holdsObjects(definition.type) else { continue }
                nested[name] = try resolvable(fields[name]!, as: definition.type)
                converted[name] = nil
            }
            return nested.isEmpty ? EmbeddedObject(fields: fields) : ResolvedObject(fields: converted, nested: nested)
        default:
            return value.resolvable
        }
    }

    private static func fields(of object: GraphQLObjectType) throws(AppSyncError) -> GraphQLFieldMap {
        do {
            return try object.fields()
        } catch {
            throw AppSyncError(.internalFailure, "The fields of \(object.name) cannot be read: \(error)")
        }
    }

    /// An error's `data` for a field of type `type`: `null` when it is an object of a model the
    /// caller may not read, as the generated resolvers' error data is.
    func readableData(_ data: JSONValue, as type: GraphQLOutputType) -> JSONValue {
        guard let model = modelObject(data, type), !caller.mayRead(data.objectValue ?? [:], of: model) else { return data }
        return .null
    }

    private func modelObject(_ value: JSONValue, _ type: GraphQLOutputType) -> ModelSchema? {
        guard case .object = value else { return nil }
        var named: GraphQLType = type
        while let wrapped = (named as? GraphQLNonNull)?.ofType { named = wrapped }
        guard let object = named as? GraphQLObjectType else { return nil }
        return schema.model(named: object.name)
    }

    private static func holdsObjects(_ type: GraphQLOutputType) -> Bool {
        var named: GraphQLType = type
        while true {
            if let wrapped = (named as? GraphQLNonNull)?.ofType { named = wrapped } else if let wrapped = (named as? GraphQLList)?.ofType {
                named = wrapped
            } else { break }
        }
        return named is GraphQLObjectType
    }
}

/// A non-model object whose fields hold objects converted for the executor (a connection of a
/// template's items), the rest read from JSON.
struct ResolvedObject: KeySubscriptable, Sendable {
    let fields: [String: JSONValue]
    let nested: [String: any Sendable]

    subscript(key: String) -> (any Sendable)? { nested[key] ?? fields[key]?.resolvable }
}
