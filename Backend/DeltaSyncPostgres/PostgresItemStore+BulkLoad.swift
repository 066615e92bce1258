import DeltaSyncCore
import DeltaSyncSchema

extension PostgresItemStore {
    /// Inserts `items` of `model` in one statement, as the rows ``PostgresTransaction/put(_:_:)``
    /// writes (the normalized item, its key, the metadata columns), with no delta log entries:
    /// items that look written long ago. For seeding large tables in benchmarks, where a million
    /// `put`s of one round trip each would take minutes.
    ///
    /// ```swift
    /// try await store.bulkLoad(post, (0..<10_000).map { ["id": .string("p\($0)"), "title": "Post"] })
    /// ```
    ///
    /// - Throws: ``AppSyncError`` for an item ``put`` would refuse, and PostgreSQL's
    ///   unique-violation for a key that is already stored (this never updates).
    package func bulkLoad(_ model: ModelSchema, _ items: [Item]) async throws {
        let table = try catalog.table(for: model)
        var keys: [String] = []
        var texts: [String] = []
        keys.reserveCapacity(items.count)
        texts.reserveCapacity(items.count)
        for item in items {
            let stored = try table.normalized(item)
            keys.append(try table.key(of: stored))
            texts.append(JSONValue.object(stored).jsonText)
        }
        try await write { [keys, texts] tx in
            guard let tx = tx as? PostgresTransaction else {
                throw AppSyncError(.internalFailure, "A PostgresItemStore write handed out a transaction of another store.")
            }
            // The metadata columns from the item itself, as `put` binds them.
            var b = SQLBuilder()
            let sql = """
                INSERT INTO \(table.qualifiedName) \(PostgresModelTable.rowColumns)
                SELECT k, i, (i->>'_lastChangedAt')::bigint, (i->>'_deleted')::boolean, (i->>'_ttl')::bigint
                FROM unnest(\(b.bind(keys))::text[], \(b.bind(texts))::jsonb[]) AS r(k, i)
                """
            try tx.connection.run("bulk-load items of \(model.name)", sql, b)
        }
    }
}
