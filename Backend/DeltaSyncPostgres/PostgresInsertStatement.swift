import PostgresNIO

/// The call of `deltasync_insert_rows` (``PostgresFunctions``) for the creates of one
/// ``PostgresInsertGroup`` call, prepared once per connection (postgres-nio keeps it by
/// ``name``). The function is found through the connection's `search_path`, which the store
/// sets to its schema: a prepared statement's SQL is one text for every store.
struct PostgresInsertStatement: PostgresPreparedStatement {
    /// The statement's name on each connection. Spelled out: postgres-nio's default reflects the
    /// type's name on every execution.
    static let name = "deltasync_insert_rows_v1"
    static let sql = "SELECT clock_floor, written FROM \(PostgresFunctions.insert)($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
    static let bindingDataTypes: [PostgresDataType] = [
        .int8, .textArray, .textArray, .textArray, .int8Array, .boolArray, .int8Array, .textArray, .int8Array, .textArray,
    ]
    typealias Row = (Int?, [Bool]?)

    /// One create: the row `deltasync_insert_rows` writes, and its delta row.
    struct Create: Sendable {
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
    }

    var lockKey: Int64
    var creates: [Create]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(Int(lockKey))
        bindings.append(creates.map(\.model))
        bindings.append(creates.map(\.key))
        bindings.append(creates.map(\.item))
        bindings.append(creates.map(\.changedAt))
        bindings.append(PostgresNullableArray(creates.map(\.deleted)))
        bindings.append(PostgresNullableArray(creates.map(\.ttl)))
        bindings.append(creates.map(\.deltaKey))
        bindings.append(creates.map(\.version))
        bindings.append(PostgresNullableArray(creates.map(\.deltaItem)))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int?, [Bool]?).self)
    }
}

/// A one-dimensional array parameter whose elements may be `NULL`, which postgres-nio's own
/// `Array` encoding cannot say. Written in PostgreSQL's binary array format: dimensions, a
/// has-nulls flag, the element type, the length and lower bound, then each element as its
/// length (-1 for `NULL`) and bytes.
struct PostgresNullableArray<Element: PostgresArrayEncodable & PostgresNonThrowingEncodable>: PostgresNonThrowingEncodable {
    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    var elements: [Element?]

    init(_ elements: [Element?]) { self.elements = elements }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let start = buffer.writerIndex
            element.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - start), at: lengthIndex)
        }
    }
}
