import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

extension LocalStore {
    /// The live item with this key, `nil` when there is none or it is deleted.
    package func fetch(_ modelName: String, key: Item) async throws(DataStoreError) -> Item? {
        let table = try table(modelName)
        return try await read { db in
            guard let stored = try table.fetch(key: key, in: db), stored["_deleted"]?.boolValue != true else { return nil }
            return stored
        }
    }

    /// `transform` of every live row of the model matching `predicate`, in `sort` order.
    package func query<T: Sendable>(
        _ modelName: String, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?,
        _ transform: @escaping @Sendable (ModelRow) throws -> T
    ) async throws(DataStoreError) -> [T] {
        let table = try table(modelName)
        return try await read { db in
            var results: [T] = []
            try self.select(table, where: predicate, sort: sort, paginate: paginate, db) { row in results.append(try transform(row)) }
            return results
        }
    }

    /// The rows of `table` matching `predicate`, tombstones left out.
    func select(
        _ table: ModelTable, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?,
        _ db: Database
    ) throws -> [Item] {
        var items: [Item] = []
        try select(table, where: predicate, sort: sort, paginate: paginate, db) { row in items.append(row.item) }
        return items
    }

    /// Calls `each` with every row of `table` matching `predicate`, tombstones left out; with
    /// `rowid`, the rowid by that name follows the table's columns (``ModelRow/rowid``).
    func select(
        _ table: ModelTable, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?,
        rowid: String? = nil, _ db: Database, each: (ModelRow) throws -> Void
    ) throws {
        let query = try LocalQuery(table: table, predicate: predicate, sort: sort, paginate: paginate, rowid: rowid)
        // Prepared once per reader connection and predicate shape: preparing was a twentieth of
        // a thousand-row query. A statement still stepping (a select run from inside another's
        // rows) is not reused.
        var statement = try db.cachedStatement(sql: query.sql)
        if statement.isStepping { statement = try db.makeStatement(sql: query.sql) }
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(query.arguments))
        let row = ModelRow(table: table, handle: statement.sqliteStatement)
        while try rows.next() != nil { try each(row) }
    }

    /// The outbox, oldest first; an unreadable row is left out and given to the error handler.
    package func pendingMutations() async throws(DataStoreError) -> [OutboxMutation] {
        let entries = try await read { db in try Outbox.entries(db) }
        var mutations: [OutboxMutation] = []
        for entry in entries {
            switch entry {
            case .success(let mutation): mutations.append(mutation)
            case .failure(let error): report(error)
            }
        }
        return mutations
    }

    /// A model's sync state, `nil` until it synced once.
    package func syncMetadata(_ modelName: String) async throws(DataStoreError) -> ModelSyncMetadata? {
        try await read { db in try ModelSyncMetadata.fetch(db, model: modelName) }
    }
}
