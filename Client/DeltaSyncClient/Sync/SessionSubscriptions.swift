import DeltaSyncCore
import DeltaSyncLocalStore
import Foundation

/// The subscriptions of one session and the sync expressions they filter by.
struct SessionSubscriptions {
    let subscriptions: [RealtimeSubscription]
    let expressions: [String: QueryPredicate]
    private let models: [String: String]

    /// - Parameter listening: per model, the credentials its subscriptions carry and their
    ///   token's claims (for owner arguments).
    init(
        schema: AmplifySchema, expressions: [String: QueryPredicate],
        listening: [String: ([SyncAuthorization], [String: JSONValue])] = [:]
    ) {
        var subscriptions: [RealtimeSubscription] = []
        for model in schema.models where model.operations.sync != nil {
            let documents = SyncDocuments(model: model, schema: schema)
            let expression = expressions[model.name] ?? .all
            let owners = documents.ownerArguments(claims: listening[model.name]?.1 ?? [:])
            for (field, document) in documents.subscriptions {
                // The sync expression filters on the backend too (AppSync's enhanced
                // filtering), as Amplify JS sends it.
                let filtered = expression != .all
                let variables = owners.merging(filtered ? ["filter": expression.filterInput] : [:]) { a, _ in a }
                subscriptions.append(RealtimeSubscription(
                    id: UUID().uuidString.lowercased(), modelName: model.name, field: field, document: document,
                    variables: variables, unfiltered: filtered ? owners : nil, authorizations: listening[model.name]?.0 ?? []))
            }
        }
        self.subscriptions = subscriptions
        self.expressions = expressions
        models = Dictionary(subscriptions.map { ($0.id, $0.modelName) }, uniquingKeysWith: { a, _ in a })
    }

    func modelName(subscription id: String) -> String? { models[id] }
}
