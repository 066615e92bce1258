import DeltaSyncCore
import DeltaSyncSchema

/// A model's items seen as a DynamoDB table: its key attributes, its indexes, and which
/// stored items a request sees (on an API without conflict detection, tombstones are gone).
struct DynamoDBTable: Sendable {
    let model: ModelSchema
    /// Whether the API versions its writes; without it tombstones are hidden.
    let versioned: Bool

    /// The table `name` names: a model's name, or Amplify's `<Model>-<apiId>-<env>`.
    init?(named name: String, schema: AmplifySchema) {
        let modelName = schema.model(named: name) != nil ? name : String(name.split(separator: "-", maxSplits: 1).first ?? "")
        guard let model = schema.model(named: modelName) else { return nil }
        self.model = model
        versioned = schema.isVersioned
    }

    /// The stored item as the request sees it: `nil` for a hidden tombstone.
    func visible(_ item: Item?) -> Item? {
        guard let item else { return nil }
        if !versioned, item["_deleted"] == true { return nil }
        return item
    }

    /// A request's `key` (typed values) as the store's key, refused unless it names exactly
    /// the table's key attributes.
    func key(_ typed: JSONValue) throws(DataSourceFailure) -> Item {
        let key = try DynamoDBLanguage.plainItem(typed, what: "key")
        let expected = Set(model.primaryKey.fields)
        guard Set(key.keys) == expected else {
            throw DataSourceFailure.validation(
                "The provided key element does not match the schema: \(model.name)'s key is \(model.primaryKey.fields.joined(separator: ", ")).")
        }
        return key
    }

    /// The index `name` names (`nil`: the table's own key) as the store reads it, with its
    /// partition attribute and sort key attributes.
    func index(_ name: String?) throws(DataSourceFailure) -> (store: String?, partition: String, sort: [String]) {
        guard let name else { return (nil, model.primaryKey.partitionField, model.primaryKey.sortKeyFields) }
        guard let index = model.indexes.first(where: { $0.name == name }) else {
            throw DataSourceFailure.validation("The table does not have the specified index: \(name)")
        }
        return (index.name, index.partitionField, index.sortKeyFields)
    }
}
