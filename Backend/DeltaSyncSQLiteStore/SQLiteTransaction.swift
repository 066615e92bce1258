import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncSchema
import DeltaSyncStorage
import GRDB

/// The transaction ``SQLiteItemStore`` hands to `read` and `write` bodies: GRDB's `Database`
/// with the schema's tables. Valid only inside the body it was given to.
struct SQLiteTransaction: ItemWriteTransaction {
    let db: Database
    let catalog: TableCatalog

    // MARK: - Reading

    func get(_ model: ModelSchema, key: Item) throws -> Item? {
        try catalog.table(for: model).fetch(key: key, in: db)
    }

    /// Reads up to `limit + 1` rows in order: the first `limit` make the page (filtered by the
    /// SQL-compiled predicate, evaluated in the same statement), the extra one only tells
    /// whether a next page exists.
    func query(_ model: ModelSchema, _ query: ItemQuery, each body: (Item) throws -> Void) throws -> PageEnd {
        let table = try catalog.table(for: model)
        return try page(table, query).read { statement in try body(table.item(from: statement)) }
    }

    /// ``query(_:_:each:)`` with each row read by its columns (``SQLiteRow``), not made an item.
    func query(_ model: ModelSchema, _ query: ItemQuery, fields: [String], rows body: (any StoredRow) throws -> Void) throws -> PageEnd {
        let table = try catalog.table(for: model)
        let page = try page(table, query)
        // One row for the page: the statement is the same at every step.
        let row: any StoredRow = SQLiteRow(table: table, handle: page.statement.sqliteStatement, fields: fields)
        return try page.read { _ in try body(row) }
    }

    /// The statement of one page of `query`, ready to step.
    private func page(_ table: ModelTable, _ query: ItemQuery) throws -> PageStatement {
        let (sql, arguments, plan) = try Self.pageSQL(table, query)
        // Filters vary with every request; caching their statements would grow without bound.
        let statement = query.filter == .all ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        return PageStatement(statement: statement, arguments: arguments, plan: plan, table: table, limit: query.limit)
    }

    /// One page's statement and what stepping it needs.
    private struct PageStatement {
        let statement: Statement
        let arguments: StatementArguments
        let plan: PagePlan
        let table: ModelTable
        let limit: Int

        /// Steps the statement, calling `matched` on each row that passes the filter.
        func read(matched: (Statement) throws -> Void) throws -> PageEnd {
            let rows = try Row.fetchCursor(statement, arguments: arguments)
            let matchIndex = table.columns.count
            return try PageReader.read(
                rows, limit: limit,
                // The filter is never NULL by construction; reading it as optional keeps a slip
                // from crashing the server (GRDB traps on NULL read as Bool).
                evaluate: { row in
                    if (row[matchIndex] as Bool?) == true { try matched(statement) }
                },
                position: { row in plan.cursor.map { table.columns[$0].kind.decode(row[$0]) } })
        }
    }

    /// The SQL of one page, its arguments and its plan: what ``query(_:_:each:)`` runs and
    /// ``queryPlan(_:_:)`` explains. Columns: the table's, then whether the filter matched.
    static func pageSQL(_ table: ModelTable, _ query: ItemQuery) throws -> (String, StatementArguments, PagePlan) {
        guard query.limit >= 1 else {
            throw AppSyncError(.invalidArgument, "limit must be at least 1; it was \(query.limit).")
        }
        let plan = try PagePlan(table: table, query: query)
        let filter = FilterCompiler(table: table).compile(query.filter)
        let conditions = SQLFragment.and(plan.conditions)

        var sql = "SELECT \(table.selectList), \(filter.sql) FROM \(table.quotedName) WHERE \(conditions.sql)"
        if !plan.order.isEmpty { sql += " ORDER BY \(plan.orderSQL(in: table))" }
        sql += " LIMIT ?"
        let readLimit = query.limit == Int.max ? query.limit : query.limit + 1
        let arguments = filter.arguments + conditions.arguments + [Int64(readLimit).databaseValue]
        return (sql, StatementArguments(arguments), plan)
    }

    func count(_ model: ModelSchema) throws -> (items: Int, tombstones: Int) {
        let table = try catalog.table(for: model)
        let row = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(\"_deleted\" = 1), 0) FROM \(table.quotedName)")
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    // MARK: - Writing

    func put(_ model: ModelSchema, _ item: Item) throws {
        try catalog.table(for: model).put(item, in: db)
    }

    @discardableResult
    func remove(_ model: ModelSchema, key: Item) throws -> Bool {
        let table = try catalog.table(for: model)
        let statement = try db.cachedStatement(sql: table.deleteByKeySQL)
        try statement.execute(arguments: StatementArguments(table.keyArguments(key)))
        return db.changesCount > 0
    }

    /// `DELETE` without `WHERE`: SQLite drops the table's pages instead of deleting row by row.
    @discardableResult
    func removeAll(_ model: ModelSchema) throws -> Int {
        let table = try catalog.table(for: model)
        try db.execute(sql: "DELETE FROM \(table.quotedName)")
        return db.changesCount
    }
}

/// The tables of a schema, by model name.
struct TableCatalog: Sendable {
    let tables: [String: ModelTable]

    /// - Throws: ``AppSyncError`` (`InternalFailure`) for a schema SQLite cannot hold: two
    ///   names that differ only in case (SQLite names are case-insensitive), or a bad key.
    init(_ schema: AmplifySchema) throws {
        var tables: [String: ModelTable] = [:]
        var seen = Set(["deltasync_meta", "deltasync_rebuild"] + SyncLogTables.names)
        for model in schema.models {
            guard seen.insert(model.name.lowercased()).inserted, !model.name.lowercased().hasPrefix("sqlite_") else {
                throw AppSyncError(.internalFailure, "Model name '\(model.name)' clashes with another table in SQLite, whose names ignore case. Rename the model.")
            }
            tables[model.name] = try ModelTable(model)
        }
        self.tables = tables
    }

    func table(for model: ModelSchema) throws -> ModelTable {
        guard let table = tables[model.name] else {
            throw AppSyncError(.internalFailure, "Model \(model.name) is not in the schema this SQLiteItemStore was opened with. Open the store with the schema that declares it.")
        }
        return table
    }
}
