import DeltaSyncCore
import DeltaSyncSchema

/// The PostgreSQL table of one model: `key text PRIMARY KEY, item jsonb`, plus the sync
/// metadata the purge and counts read without opening the item (`_lastChangedAt`, `_deleted`,
/// `_ttl`). `key` is the canonical JSON text of the primary key values (`["p1"]`,
/// `["b1","2024-01-01"]`): one column whatever the key's shape, so upserts and lookups are one
/// unique-index probe.
///
/// Keys and indexes are expression indexes over the jsonb fields, typed by field kind (text
/// in the `C` collation, so they order by UTF-8 bytes as DynamoDB does; `bigint`, `double
/// precision`, `boolean`). ``expression(_:)`` is the only place those expressions are written:
/// queries use the very same text, which is what lets PostgreSQL match them with the indexes.
struct PostgresModelTable: Sendable {
    /// The columns a row is written with, in the order every insert names them.
    static let rowColumns = #"(key, item, "_lastChangedAt", "_deleted", "_ttl")"#
    /// An upsert's conflict clause: the stored row takes the new item and its columns.
    static let replaceOnConflict =
        #"ON CONFLICT (key) DO UPDATE SET item = EXCLUDED.item, "_lastChangedAt" = EXCLUDED."_lastChangedAt", "_deleted" = EXCLUDED."_deleted", "_ttl" = EXCLUDED."_ttl""#

    /// The stores' shared classification of a field's values.
    typealias Kind = FieldKind

    struct Column: Sendable {
        let name: String
        let kind: Kind
    }

    /// A secondary index (or the primary key's order), by column position.
    struct Index: Sendable {
        let name: String
        /// The PostgreSQL index name.
        let sqlName: String
        let partition: Int
        let sortKeys: [Int]
        /// Partition, sort keys, then the remaining key columns (a stable order).
        let columns: [Int]
    }

    /// Sync metadata present on every model, after the model's own fields.
    static let metadata: [(name: String, kind: Kind)] = [
        ("_version", .integer), ("_deleted", .boolean), ("_lastChangedAt", .integer), ("_ttl", .integer),
        ("__typename", .text),
    ]

    let name: String
    /// `"schema"."Model"`.
    let qualifiedName: String
    let columns: [Column]
    let columnIndex: [String: Int]
    let primaryKey: [Int]
    /// The primary key's order as an index (`<Model>.primaryKey`): what scans read.
    let primaryIndex: Index
    let indexes: [String: Index]
    let tombstoneIndex: String

    init(_ model: ModelSchema, schema: String) throws {
        var columns: [Column] = []
        var columnIndex: [String: Int] = [:]
        func add(_ name: String, _ kind: Kind) {
            guard columnIndex[name] == nil else { return }
            columnIndex[name] = columns.count
            columns.append(Column(name: name, kind: kind))
        }
        // A model field named like a metadata field yields to it: the sync layer owns those.
        let metadataNames = Set(Self.metadata.map(\.name))
        for field in model.storedFields where !metadataNames.contains(field.name) {
            add(field.name, Kind(field))
        }
        for (name, kind) in Self.metadata { add(name, kind) }

        func position(_ field: String, _ role: String) throws -> Int {
            guard let i = columnIndex[field] else {
                throw AppSyncError(
                    .internalFailure,
                    "\(role) of model \(model.name) uses field '\(field)', which \(model.name) does not store. Fix the schema: key and index fields must be scalar fields of the model.")
            }
            return i
        }
        let primaryKey = try model.primaryKey.fields.map { try position($0, "The primary key") }
        var indexes: [String: Index] = [:]
        func index(_ name: String, partition: Int, sortKeys: [Int]) -> Index {
            var all: [Int] = []
            for c in [partition] + sortKeys + primaryKey where !all.contains(c) { all.append(c) }
            return Index(
                name: name, sqlName: PostgresSQL.indexName("\(model.name).\(name)"), partition: partition, sortKeys: sortKeys,
                columns: all)
        }
        for declared in model.indexes {
            let role = "Index '\(declared.name)'"
            indexes[declared.name] = index(
                declared.name, partition: try position(declared.partitionField, role),
                sortKeys: try declared.sortKeyFields.map { try position($0, role) })
        }
        // Owner rules read a caller's items by owner field, as SQLite's store does.
        for field in model.ownerIndexFields {
            let name = "owner:\(field)"
            guard indexes[name] == nil, let partition = columnIndex[field] else { continue }
            indexes[name] = index(name, partition: partition, sortKeys: [])
        }
        self.name = model.name
        self.qualifiedName = PostgresSQL.identifier(schema) + "." + PostgresSQL.identifier(model.name)
        self.columns = columns
        self.columnIndex = columnIndex
        self.primaryKey = primaryKey
        self.primaryIndex = Index(
            name: "primaryKey", sqlName: PostgresSQL.indexName("\(model.name).primaryKey"), partition: primaryKey[0],
            sortKeys: Array(primaryKey.dropFirst()), columns: primaryKey)
        self.indexes = indexes
        self.tombstoneIndex = PostgresSQL.indexName("deltasync_tombstones:\(model.name)")
    }

    // MARK: - Expressions

    /// The typed value of a column's field, exactly as every index and query writes it.
    func expression(_ column: Int) -> String {
        let c = columns[column]
        let text = "(item->>\(PostgresSQL.literal(c.name)))"
        switch c.kind {
        case .integer: return "(\(text)::bigint)"
        case .real: return "(\(text)::double precision)"
        case .boolean: return "(\(text)::boolean)"
        case .text, .jsonString, .list, .object: return "(\(text) COLLATE \"C\")"
        }
    }

    /// `CREATE INDEX` for an index's columns.
    func createIndexSQL(_ index: Index) -> String {
        let list = index.columns.map(expression).joined(separator: ", ")
        return "CREATE INDEX IF NOT EXISTS \(PostgresSQL.identifier(index.sqlName)) ON \(qualifiedName) (\(list))"
    }

    // MARK: - Values

    /// `value` as the field's kind stores it; throws `ValidationException` naming the field when
    /// it does not fit (as SQLite's store does: writes are strict).
    func encode(_ value: JSONValue, column index: Int) throws -> JSONValue {
        let column = columns[index]
        let encoded: JSONValue?
        switch column.kind {
        case .integer: encoded = value.intValue.map(JSONValue.int)
        case .real: encoded = value.doubleValue.flatMap { $0.isFinite ? .double($0) : nil }
        case .boolean: encoded = value.boolValue.map(JSONValue.bool)
        case .text: encoded = value.stringValue.map(JSONValue.string)
        case .jsonString:
            if case .string = value { encoded = value } else { encoded = value.hasOnlyFiniteNumbers ? .string(value.jsonText) : nil }
        case .list: if case .array = value, value.hasOnlyFiniteNumbers { encoded = value } else { encoded = nil }
        case .object: if case .object = value, value.hasOnlyFiniteNumbers { encoded = value } else { encoded = nil }
        }
        guard let encoded else {
            throw AppSyncError(
                .validation,
                "Field '\(column.name)' of \(name) holds \(column.kind.expectation), not \(value.jsonText). Convert the value to the field's type before storing or querying it.")
        }
        // PostgreSQL text and jsonb cannot hold U+0000 at all.
        if Self.holdsNUL(encoded) {
            throw AppSyncError(
                .validation,
                "Field '\(column.name)' of \(name) contains the NUL character (U+0000), which PostgreSQL cannot store. Remove it from the value.")
        }
        return encoded
    }

    /// The item as stored: fields the model stores, each of its kind, nulls left out,
    /// `_version` 1 when missing.
    func normalized(_ item: Item) throws -> Item {
        var stored = Item(minimumCapacity: item.count + 1)
        for (name, value) in item where !value.isNull {
            guard let i = columnIndex[name] else { continue }
            stored[name] = try encode(value, column: i)
        }
        if stored["_version"] == nil { stored["_version"] = 1 }
        return stored
    }

    /// The `key` column of an item or key: the canonical JSON of its key values.
    func key(of item: Item) throws -> String {
        var values: [JSONValue] = []
        for i in primaryKey {
            let value = item[columns[i].name] ?? .null
            guard !value.isNull else { throw missingKey(columns[i].name) }
            values.append(try encode(value, column: i))
        }
        return JSONValue.array(values).jsonText
    }

    func missingKey(_ field: String) -> AppSyncError {
        let names = primaryKey.map { columns[$0].name }.joined(separator: ", ")
        return AppSyncError(.validation, "The key of \(name) needs a value for '\(field)'. Give every primary key field (\(names)).")
    }

    /// An item read back from its jsonb text. JSON keeps a Float field's whole numbers as
    /// integers; they read back as doubles, as from SQLite's REAL columns.
    func item(fromJSON text: String) throws -> Item {
        guard let parsed = try? JSONValue(parsing: text), case .object(var item) = parsed else {
            throw AppSyncError(.internalFailure, "A row of \(name) does not hold a JSON object. The table was changed outside DeltaSync.")
        }
        for column in columns where column.kind == .real {
            if case .int(let i) = item[column.name] { item[column.name] = .double(Double(i)) }
        }
        return item
    }

    /// Binds a key or index value as the column's ``expression(_:)`` compares: `bigint`,
    /// `double precision`, `boolean` or text.
    func bind(_ value: JSONValue, column: Int, _ builder: inout SQLBuilder) throws -> String {
        let encoded = try encode(value, column: column)
        switch (columns[column].kind, encoded) {
        case (.integer, .int(let i)): return builder.bind(i)
        case (.real, .double(let d)): return builder.bind(d)
        case (.boolean, .bool(let b)): return builder.bind(b)
        case (_, .string(let s)): return builder.bind(s)
        default: return builder.bind(encoded.jsonText)
        }
    }

    private static func holdsNUL(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let s): return s.utf8.contains(0)
        case .array(let a): return a.contains(where: holdsNUL)
        case .object(let o): return o.contains { $0.key.utf8.contains(0) || holdsNUL($0.value) }
        default: return false
        }
    }
}
