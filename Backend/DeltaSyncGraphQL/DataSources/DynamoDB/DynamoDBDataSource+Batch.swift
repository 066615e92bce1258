import DeltaSyncCore
import DeltaSyncStorage

/// The batch and transaction operations: several tables in one request, named by table name
/// (a model's name or Amplify's `<Model>-<apiId>-<env>`).
extension DynamoDBDataSource {
    /// `BatchGetItem`: `{data: {T: [item or null, in the keys' order]}, unprocessedKeys}`; at
    /// most 100 keys in all.
    func batchGet(_ request: JSONValue) async throws -> JSONValue {
        var reads: [(name: String, table: DynamoDBTable, keys: [Item], projection: (@Sendable (Item) -> Item)?)] = []
        for (name, entry) in try Self.tables(request, limit: 100, counting: { $0["keys"].arrayValue?.count ?? 0 }) {
            let table = try table(named: name)
            var keys: [Item] = []
            for key in entry["keys"].arrayValue ?? [] { keys.append(try table.key(key)) }
            reads.append((name, table, keys, try DynamoDBLanguage.projection(entry["projection"])))
        }
        let planned = reads.map { ($0.name, $0.table, $0.keys) }
        let found = try await environment.store.read { tx -> [String: [Item?]] in
            var found: [String: [Item?]] = [:]
            for (name, table, keys) in planned { found[name] = try keys.map { try table.visible(tx.get(table.model, key: $0)) } }
            return found
        }
        var data: Item = [:], unprocessed: Item = [:]
        for read in reads {
            data[read.name] = .array((found[read.name] ?? []).map { item in item.map { .object(read.projection?($0) ?? $0) } ?? .null })
            unprocessed[read.name] = []
        }
        return ["data": .object(data), "unprocessedKeys": .object(unprocessed)]
    }

    /// `BatchPutItem` and `BatchDeleteItem`: unconditional writes, each versioned and logged as
    /// a mutation's, in one transaction; at most 25 in all. A delete's entry is the item it
    /// removed, or null when there was none.
    func batchWrite(_ operation: String, _ request: JSONValue) async throws -> JSONValue {
        let isPut = operation == "BatchPutItem"
        var writes: [(name: String, requests: [WriteRequest])] = []
        for (name, entry) in try Self.tables(request, limit: 25, counting: { $0.arrayValue?.count ?? 0 }) {
            let table = try table(named: name)
            var requests: [WriteRequest] = []
            for value in entry.arrayValue ?? [] {
                var key: Item = [:]
                for field in table.model.primaryKey.fields { key[field] = value[field] }
                let single: JSONValue = isPut ? ["key": .object(key), "attributeValues": value] : ["key": value]
                requests.append(try WriteRequest(isPut ? "PutItem" : "DeleteItem", single, table: table))
            }
            writes.append((name, requests))
        }
        let now = environment.nowMilliseconds, ttl = environment.sync.tombstoneTTLSeconds
        let planned = writes
        let outcomes = try await environment.store.write { tx -> [String: [WriteOutcome]] in
            var outcomes: [String: [WriteOutcome]] = [:]
            for (name, requests) in planned {
                outcomes[name] = try requests.map { try Self.run($0, handler: .lastWriterWins, tx: tx, now: now, tombstoneTTL: ttl) }
            }
            return outcomes
        }
        var data: Item = [:], unprocessed: Item = [:]
        for (name, requests) in writes {
            data[name] = .array(try zip(requests, outcomes[name] ?? []).map { request, outcome throws(DataSourceFailure) in
                try Self.result(of: outcome, table: request.table)
            })
            unprocessed[name] = []
        }
        return ["data": .object(data), (isPut ? "unprocessedItems" : "unprocessedKeys"): .object(unprocessed)]
    }

    /// `tables` of a batch request, each table's entry, within DynamoDB's limit of entries.
    private static func tables(_ request: JSONValue, limit: Int, counting: (JSONValue) -> Int) throws(DataSourceFailure) -> [(String, JSONValue)] {
        guard case .object(let tables) = request["tables"], !tables.isEmpty else {
            throw DataSourceFailure.validation("A batch request needs 'tables': an object of table names and their entries.")
        }
        let count = tables.values.reduce(0) { $0 + counting($1) }
        guard count <= limit else {
            throw DataSourceFailure.validation("Too many items requested for the batch operation: \(count), at most \(limit).")
        }
        return tables.sorted { $0.key < $1.key }
    }
}
