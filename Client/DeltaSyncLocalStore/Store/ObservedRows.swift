import DeltaSyncCore
import DeltaSyncSQLite
import GRDB

/// The results of an observed query (``QuerySnapshots``, ``LiveQuery``), with the rowid each
/// model was read from, so that the next run decodes only the rows that changed.
///
/// After a change the query runs again in full, so SQLite alone decides which rows match and
/// in which order; what is saved is decoding, most of a thousand-row query's time. A row whose
/// rowid the last run read has not changed since:
///
/// - The store changes a row's content only by `INSERT OR REPLACE` (``ModelTable/put(_:in:)``),
///   and SQLite gives the replacing row a new rowid, one larger than the largest in the table
///   *before* the conflicting row is deleted: a rowid is never given to new content while its
///   row exists. (The one `UPDATE`, of `_version` and `_lastChangedAt` after the backend
///   accepted a mutation, leaves the model's fields as they were.)
/// - Only ``LocalStore/clear()`` deletes rows, after which SQLite gives old rowids again; it
///   counts ``LocalStore/clears``, and a run that finds the count moved reads every row anew.
///
/// `ObservedRowsTests` checks both against SQLite.
package struct ObservedRows<M: Model>: Sendable {
    /// The models, in the query's order.
    package var items: [M] = []
    /// The rowid of each of `items`; empty when the table has a field for each of SQLite's
    /// names of the rowid, and so nothing is reused.
    var rowids: [Int64] = []
    /// ``LocalStore/clears`` when the rows were read.
    var clears = 0

    package init() {}
}

extension LocalStore {
    /// Runs an observed query, reusing the models of `previous` whose rows did not change.
    package func observedQuery<M: Model>(
        _ type: M.Type, where predicate: QueryPredicate, sort: [QuerySortDescriptor], reusing previous: ObservedRows<M>?
    ) async throws(DataStoreError) -> ObservedRows<M> {
        let table = try table(M.modelName)
        return try await read { db in try self.observedRows(table, where: predicate, sort: sort, reusing: previous, db) }
    }

    /// ``observedQuery(_:where:sort:reusing:)`` with nothing to reuse, read on the calling
    /// thread (``readNow(_:)``).
    package func observedQueryNow<M: Model>(
        _ type: M.Type, where predicate: QueryPredicate, sort: [QuerySortDescriptor]
    ) throws(DataStoreError) -> ObservedRows<M> {
        let table = try table(M.modelName)
        return try readNow { db in try observedRows(table, where: predicate, sort: sort, reusing: nil, db) }
    }

    private func observedRows<M: Model>(
        _ table: ModelTable, where predicate: QueryPredicate, sort: [QuerySortDescriptor], reusing previous: ObservedRows<M>?,
        _ db: Database
    ) throws -> ObservedRows<M> {
        let clearsBefore = clears
        let reusable = previous.flatMap { $0.clears == clearsBefore ? $0 : nil } ?? ObservedRows()
        var rows = try readRows(table, where: predicate, sort: sort, reusing: reusable, db)
        // A clear committed after the count was read: rowids read from the cleared table may
        // be old ones given again, so read every row anew.
        if clears != clearsBefore, !reusable.rowids.isEmpty {
            rows = try readRows(table, where: predicate, sort: sort, reusing: ObservedRows(), db)
        }
        // The count before reading: if a clear moved it meanwhile, the next run reuses nothing.
        rows.clears = clearsBefore
        return rows
    }

    private func readRows<M: Model>(
        _ table: ModelTable, where predicate: QueryPredicate, sort: [QuerySortDescriptor], reusing previous: ObservedRows<M>,
        _ db: Database
    ) throws -> ObservedRows<M> {
        let rowid = Self.rowidName(in: table)
        // Positions by rowid: a dictionary of models would copy every model into it.
        var positions: [Int64: Int] = [:]
        positions.reserveCapacity(previous.rowids.count)
        for (position, id) in previous.rowids.enumerated() { positions[id] = position }
        var rows = ObservedRows<M>()
        rows.items.reserveCapacity(previous.items.count)
        try select(table, where: predicate, sort: sort, paginate: nil, rowid: rowid, db) { row in
            guard rowid != nil else { return rows.items.append(try M(row: row)) }
            let id = row.rowid
            if let position = positions[id] { rows.items.append(previous.items[position]) } else { rows.items.append(try M(row: row)) }
            rows.rowids.append(id)
        }
        return rows
    }

    /// A name of the rowid that is not one of the table's columns (a field may be called
    /// `rowid`), `nil` when all three are.
    private static func rowidName(in table: ModelTable) -> String? {
        ["rowid", "_rowid_", "oid"].first { name in !table.columns.contains { $0.name.lowercased() == name } }
    }
}
