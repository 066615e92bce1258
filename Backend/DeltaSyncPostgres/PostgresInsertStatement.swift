import PostgresNIO

/// The call of `deltasync_insert_rows` (``PostgresFunctions``) for the creates of one
/// ``PostgresInsertGroup`` call, prepared once per connection (postgres-nio keeps it by
/// ``name``). The function is found through the connection's `search_path`, which the store
/// sets to its schema: a prepared statement's SQL is one text for every store.
struct PostgresInsertStatement: PostgresPreparedStatement {
    /// The statement's name on each connection. Spelled out: postgres-nio's default reflects the
    /// type's name on every execution.
    static let name = "deltasync_insert_rows_v1"
    static let sql = "SELECT clock_floor, written FROM \(PostgresFunctions.insert)($1, $2, $3, $4, $5, $6, $7, $8)"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .textArray, .textArray, .textArray, .int8Array, .textArray, .int8Array, .textArray]
    typealias Row = (Int?, [Bool]?)

    /// One create: the row `deltasync_insert_rows` writes (its `_deleted` and `_ttl` columns
    /// read from `item`), and its delta row.
    struct Create: Sendable {
        var model: String
        var key: String
        var item: String
        var changedAt: Int
        var deltaKey: String
        var version: Int
        /// The delta row's item when it is not `item`'s text.
        var deltaItem: String?
    }

    var lockKey: Int64
    var creates: [Create]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 8)
        bindings.append(Int(lockKey))
        bindings.append(creates.map(\.model))
        bindings.append(creates.map(\.key))
        bindings.append(creates.map(\.item))
        bindings.append(creates.map(\.changedAt))
        bindings.append(creates.map(\.deltaKey))
        bindings.append(creates.map(\.version))
        // An empty text for "the item itself": no item's JSON is empty, and postgres-nio's
        // arrays cannot hold NULL.
        bindings.append(creates.map { $0.deltaItem ?? "" })
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int?, [Bool]?).self)
    }
}
