import DeltaSyncModelSchema

/// The GraphQL documents DataStore sends for one model, as Amplify's generate them: every
/// stored field (non-model objects with all their fields), the sync metadata and `__typename`.
struct SyncDocuments: Sendable {
    let model: ModelSchema
    /// `{ id title ... _version _deleted _lastChangedAt __typename }`
    let selection: String

    init(model: ModelSchema, schema: AmplifySchema) {
        self.model = model
        selection = Self.selection(of: model.storedFields, in: schema) + " _version _deleted _lastChangedAt __typename"
    }

    private static func selection(of fields: [Field], in schema: AmplifySchema) -> String {
        fields.map { field in
            if case .nonModel(let name) = field.type, let type = schema.nonModel(named: name) {
                return "\(field.name) { \(selection(of: type.fields, in: schema)) }"
            }
            return field.name
        }.joined(separator: " ")
    }

    /// `syncXs(filter:limit:nextToken:lastSync:)`; `nil` when the schema turned sync off.
    var syncQuery: String? {
        model.operations.sync.map { field in
            """
            query Sync\(model.name)($filter: Model\(model.name)FilterInput, $limit: Int, $nextToken: String, $lastSync: AWSTimestamp) {
              \(field)(filter: $filter, limit: $limit, nextToken: $nextToken, lastSync: $lastSync) {
                items { \(selection) } nextToken startedAt
              }
            }
            """
        }
    }

    /// The field name of the mutation for `type`, and its document.
    func mutation(_ type: MutationType) -> (field: String, document: String)? {
        let field: String?
        let input: String
        switch type {
        case .create: (field, input) = (model.operations.create, "Create\(model.name)Input")
        case .update: (field, input) = (model.operations.update, "Update\(model.name)Input")
        case .delete: (field, input) = (model.operations.delete, "Delete\(model.name)Input")
        }
        return field.map { field in
            (field, """
                mutation \(field.prefix(1).uppercased() + field.dropFirst())($input: \(input)!, $condition: Model\(model.name)ConditionInput) {
                  \(field)(input: $input, condition: $condition) { \(selection) }
                }
                """)
        }
    }

    /// The `onCreateX`, `onUpdateX` and `onDeleteX` subscriptions, each with the `filter`
    /// argument AppSync's generated schema gives them.
    var subscriptions: [(field: String, document: String)] {
        [model.operations.onCreate, model.operations.onUpdate, model.operations.onDelete].compactMap { $0 }.map { field in
            (field, """
                subscription \(field.prefix(1).uppercased() + field.dropFirst())($filter: ModelSubscription\(model.name)FilterInput) {
                  \(field)(filter: $filter) { \(selection) }
                }
                """)
        }
    }

    /// `getX` by the model's key, for a mutation whose outcome on the backend is unknown.
    var getQuery: (field: String, document: String)? {
        model.operations.get.map { field in
            let keys = model.primaryKey.fields.compactMap { name in model.field(named: name).map { (name, $0) } }
            let parameters = keys.map { "$\($0.0): \($0.1.type.graphQLName)!" }.joined(separator: ", ")
            let arguments = keys.map { "\($0.0): $\($0.0)" }.joined(separator: ", ")
            return (field, """
                query \(field.prefix(1).uppercased() + field.dropFirst())(\(parameters)) {
                  \(field)(\(arguments)) { \(selection) }
                }
                """)
        }
    }
}
