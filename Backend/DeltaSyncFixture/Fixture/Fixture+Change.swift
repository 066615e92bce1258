import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncSchema
import DeltaSyncStorage

extension Fixture {
    /// Changes an item as another device would: `fields` (with the key) merged into the stored
    /// item at its current `_version`, or created when missing; `"_deleted": true` deletes it.
    /// The change goes through the API's own mutation, so subscribers receive it.
    ///
    /// - Returns: the item as the mutation answered it.
    /// - Throws: ``AppSyncError`` when the model is unknown or the mutation fails.
    public func change(model name: String, fields: Item) async throws -> JSONValue {
        let model = try model(named: name)
        // A device cannot set an implicit owner field (the generated inputs lack it), so a
        // change as a device makes it cannot either; seeded items carry any owner.
        if let implicit = model.implicitOwnerFields.sorted().first(where: { fields[$0] != nil }) {
            throw AppSyncError(
                .badRequest,
                "\(name).\(implicit) is an implicit owner field: the server fills it from the caller's identity and no mutation input has it. Seed the item with its owner (POST /admin/seed), or declare '\(implicit): String' in the schema to let callers set it.")
        }
        var key: Item = [:]
        for field in model.primaryKey.fields {
            guard let value = fields[field], !value.isNull else {
                throw AppSyncError(.badRequest, "The change needs \(name)'s key field '\(field)'.")
            }
            key[field] = value
        }
        let stored = try await store.read { [key] tx in try tx.get(model, key: key) }
        var input = fields.filter { $0.key != "_deleted" && $0.key != "_version" }
        let field: String?
        let inputType: String
        if fields["_deleted"] == true {
            guard stored != nil else { throw AppSyncError(.badRequest, "There is no \(name) with key \(JSONValue.object(key).jsonText) to delete.") }
            input = key
            (field, inputType) = (model.operations.delete, "Delete\(name)Input")
        } else if stored != nil {
            (field, inputType) = (model.operations.update, "Update\(name)Input")
        } else {
            (field, inputType) = (model.operations.create, "Create\(name)Input")
        }
        if let version = stored?["_version"], inputType != "Create\(name)Input" { input["_version"] = version }
        guard let field else {
            throw AppSyncError(.badRequest, "\(name) has no \(inputType.dropLast(5).dropLast(name.count).lowercased()) mutation in this schema.")
        }
        let document = "mutation FixtureChange($input: \(inputType)!) { \(field)(input: $input) { \(schema.syncSelection(of: model)) } }"
        let request = OperationRequest(query: document, variables: ["input": .object(input)], operationName: "FixtureChange")
        let response = try JSONValue(parsing: String(decoding: await host.executeAsOperator(request), as: UTF8.self))
        if let error = response["errors"].arrayValue?.first {
            throw AppSyncError(
                AppSyncErrorType(rawValue: error["errorType"].stringValue ?? "BadRequest"),
                error["message"].stringValue ?? "The change failed.")
        }
        return response["data"][field]
    }
}
