import PostgresNIO

/// The call of `deltasync_insert` (``PostgresFunctions``), prepared once per connection
/// (postgres-nio keeps it by this type's name). The function is found through the connection's
/// `search_path`, which the store sets to its schema: a prepared statement's SQL is one text for
/// every store.
struct PostgresInsertStatement: PostgresPreparedStatement {
    static let sql = "SELECT clock_floor, written FROM \(PostgresFunctions.insert)($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10::jsonb)"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .text, .text, .int8, .bool, .int8, .text, .int8, .text]
    typealias Row = (Int?, Bool?)

    var lockKey: Int64
    var model: String
    var key: String
    var item: String
    var changedAt: Int
    var deleted: Bool?
    var ttl: Int?
    var deltaKey: String
    var version: Int
    /// The delta row's item when it is not `item`'s text.
    var deltaItem: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(Int(lockKey))
        bindings.append(model)
        bindings.append(key)
        bindings.append(item)
        bindings.append(changedAt)
        bindings.append(deleted)
        bindings.append(ttl)
        bindings.append(deltaKey)
        bindings.append(version)
        bindings.append(deltaItem)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int?, Bool?).self)
    }
}
