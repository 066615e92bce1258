import DeltaSyncCore
import DeltaSyncLocalStore
import Foundation

/// Base or delta sync of one model at a time: sync query pages from the transport, stored
/// through ``RemoteApply``, and the model's sync state recorded when the last page is in.
struct ModelSync: Sendable {
    let store: LocalStore
    let transport: any GraphQLTransport
    let remoteApply: RemoteApply
    let configuration: DataStoreConfiguration
    /// Which credentials the model's sync query carries.
    let authorizations: AuthorizationPlan

    /// Delta when the model last synced within `syncInterval` with the same sync expression,
    /// full otherwise; pages until the server has no more or `syncMaxRecords` is reached. `nil`
    /// when the schema has no sync query for the model.
    func sync(_ model: ModelSchema, expression: QueryPredicate) async throws(DataStoreError) -> ModelSyncedEvent? {
        let configuration = configuration
        let documents = SyncDocuments(model: model, schema: store.schema)
        guard let query = documents.syncQuery, let field = model.operations.sync else { return nil }
        let expressionText = expression == .all ? nil : expression.filterInput.jsonText
        let table = try store.table(model.name)
        let now = Int((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let interval = Int(configuration.syncInterval.components.seconds) * 1000
        var deltaFrom: Int?
        if let stored = try await store.syncMetadata(model.name), stored.syncExpression == expressionText,
            let last = stored.lastSync, last <= now, now - last < interval
        {
            deltaFrom = last
        }
        let lastSync = deltaFrom

        var received = 0
        var nextToken: JSONValue = .null
        var startedAt: Int?
        var total = RemoteApplyCounts()
        func fetch(after token: JSONValue, received: Int) async throws(DataStoreError) -> SyncPage {
            let variables: Item = [
                "filter": expression.filterInput, "limit": .int(min(configuration.syncPageSize, configuration.syncMaxRecords - received)),
                "nextToken": token, "lastSync": lastSync.map(JSONValue.int) ?? .null,
            ]
            let text = try await authorizations.run(model, .sync) { authorization throws(DataStoreError) in
                try await transport.executeText(query, variables: variables, authorization: authorization)
            }
            return try SyncPage(text, field: field, model: model.name, table: table, keepText: !remoteApply.observed, expression: expression)
        }
        var page = try await fetch(after: .null, received: 0)
        while true {
            received += page.received
            startedAt = page.startedAt ?? startedAt
            nextToken = page.nextToken
            let hasMore = !nextToken.isNull && received < configuration.syncMaxRecords
            // The next page is fetched, parsed and its records picked out while this one is
            // stored: applying pages is what the sync waits for.
            let (token, fetched) = (nextToken, received)
            async let next = hasMore ? fetch(after: token, received: fetched) : nil
            let counts = try await remoteApply.apply(model.name, page: page.records)
            total += counts
            do {
                guard let following = try await next else { break }
                page = following
            } catch let error as DataStoreError {
                throw error
            } catch {
                throw .network("\(error)")
            }
        }

        if !nextToken.isNull {
            store.report(.syncMaxRecordsReached(model: model.name, limit: configuration.syncMaxRecords))
        }
        // As Amplify: the sync is recorded even when `syncMaxRecords` cut it short, so the next
        // launch runs a delta sync from here rather than another full sync that stops at the
        // same limit. What the limit left out stays out until the next full sync.
        let synced = ModelSyncMetadata(modelName: model.name, lastSync: startedAt, syncExpression: expressionText)
        try await store.write { db in
            try synced.save(db)
            return []
        }
        return ModelSyncedEvent(
            modelName: model.name, isFullSync: lastSync == nil, added: total.added, updated: total.updated, deleted: total.deleted)
    }
}
