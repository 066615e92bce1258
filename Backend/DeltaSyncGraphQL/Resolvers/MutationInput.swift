import DeltaSyncCore
import DeltaSyncSchema
import GraphQL

/// What a mutation's arguments must hold before anything is read: an `input` object without
/// server-owned fields, every key field, every non-null field.
enum MutationInput {
    /// The `input` argument.
    static func item(_ args: Map) throws(AppSyncError) -> Item {
        guard let input = args.argument("input")?.objectValue else {
            throw AppSyncError(.invalidArgument, "The 'input' argument must be an object.")
        }
        if let field = input.keys.first(where: MutationResolvers.serverOwnedFields.contains) {
            throw AppSyncError(.badRequest, "The field '\(field)' is managed by the server and cannot be set.")
        }
        return input
    }

    static func key(_ model: ModelSchema, from values: Item) throws(AppSyncError) -> Item {
        var key: Item = [:]
        for field in model.primaryKey.fields {
            guard let value = values[field], !value.isNull else {
                throw AppSyncError(.invalidArgument, "The key field '\(field)' of \(model.name) is required.")
            }
            key[field] = value
        }
        return key
    }

    static func requireNonNullFields(_ model: ModelSchema, _ item: Item, ignoringTimestamps: Bool) throws(AppSyncError) {
        let timestamps = [model.timestamps.createdAt, model.timestamps.updatedAt].compactMap { $0 }
        for field in model.storedFields where field.isRequired && (item[field.name] ?? .null).isNull {
            if timestamps.contains(field.name) && (ignoringTimestamps || field.name == model.timestamps.updatedAt) {
                continue
            }
            throw AppSyncError(
                .validation, "The field '\(field.name)' of \(model.name) is non-nullable and cannot be null or missing.")
        }
    }
}
