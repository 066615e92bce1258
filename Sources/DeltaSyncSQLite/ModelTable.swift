import DeltaSyncCore
import DeltaSyncModelSchema
import GRDB


/// The SQLite table of one model: its columns, keys and indexes, and the statements every
/// transaction reuses. Built once when the store opens.
///
/// Its jobs are in one file each: the layout and SQL text (`ModelTable+SQL.swift`), rows by key
/// (`ModelTable+Rows.swift`), decoding rows and binding values with SQLite's C API
/// (`ModelTable+Decoding.swift`, `ModelTable+Binding.swift`, the only files that call it), binding
/// records straight from JSON text (``ScannedRecords``) and finding a column by name
/// (``ColumnLookup``).
package struct ModelTable: Sendable {
    package struct Column: Sendable {
        package let name: String
        package let kind: ColumnKind
        /// `"name"`, ready to splice into SQL.
        package let quoted: String
    }

    /// A secondary index, by column position.
    package struct SecondaryIndex: Sendable {
        package let name: String
        /// The SQL index name: `<Model>.<index>`, so it never clashes with another model's.
        package let sqlName: String
        package let partition: Int
        package let sortKeys: [Int]
        /// Every column of the SQL index: partition, sort keys, then the remaining key columns,
        /// which give rows with equal sort keys a stable order.
        package let columns: [Int]
    }

    /// Sync metadata present on every model, after the model's own fields.
    package static let metadata: [(name: String, kind: ColumnKind)] = [
        ("_version", .integer),
        ("_deleted", .boolean),
        ("_lastChangedAt", .integer),
        ("_ttl", .integer),
        ("__typename", .text),
    ]

    package let name: String
    package let quotedName: String
    package let columns: [Column]
    /// Finds a column by name (``column(named:)``).
    private let lookup: ColumnLookup
    /// The column of each of the model's stored fields, in the schema's order: how generated
    /// models read a row by field position.
    package let storedFieldColumns: [Int]
    /// Whether the column at a position below ``keyColumnCount`` is a primary key column.
    let isKeyColumn: [Bool]
    /// Whether each column is a primary key or index column: text there must not hold NUL
    /// (see ``refuseNUL(_:column:)``).
    let isLookupColumn: [Bool]
    let keyColumnCount: Int
    let versionColumn: Int
    /// Primary key columns, partition first.
    package let primaryKey: [Int]
    package let indexes: [String: SecondaryIndex]

    /// `"a", "b", ...`: every column, in ``columns`` order.
    package let selectList: String
    package let insertSQL: String
    package let selectByKeySQL: String
    package let deleteByKeySQL: String
    /// `_version`, `_deleted`, `_lastChangedAt` of the row with a key: what reconciling a
    /// record and sending a mutation need, without decoding the item.
    package let selectMetadataByKeySQL: String
    /// Sets `_version` and `_lastChangedAt` (in that order) of the row with a key.
    package let updateSyncMetadataByKeySQL: String
    /// ``selectMetadataByKeySQL`` for many keys at once, given as a JSON array of key value
    /// arrays; the key columns come first in the result.
    package let selectMetadataByKeysSQL: String

    /// - Throws: ``AppSyncError`` (`InternalFailure`) when a key or index names a field the
    ///   model does not store.
    package init(_ model: ModelSchema) throws {
        var columns: [Column] = []
        var columnIndex: [String: Int] = [:]
        func add(_ name: String, _ kind: ColumnKind) {
            guard columnIndex[name] == nil else { return }
            columnIndex[name] = columns.count
            columns.append(Column(name: name, kind: kind, quoted: name.quotedDatabaseIdentifier))
        }
        // A model field named like a metadata column yields to it: the sync layer owns those.
        let metadataNames = Set(Self.metadata.map(\.name))
        for field in model.storedFields where !metadataNames.contains(field.name) {
            add(field.name, ColumnKind(field))
        }
        for (name, kind) in Self.metadata { add(name, kind) }
        let storedFieldColumns = model.storedFields.map { columnIndex[$0.name]! }

        func position(_ field: String, _ role: String) throws -> Int {
            guard let i = columnIndex[field] else {
                throw AppSyncError(
                    .internalFailure,
                    "\(role) of model \(model.name) uses field '\(field)', which \(model.name) does not store. Fix the schema: key and index fields must be scalar fields of the model."
                )
            }
            return i
        }

        let primaryKey = try model.primaryKey.fields.map { try position($0, "The primary key") }
        var indexes: [String: SecondaryIndex] = [:]
        for index in model.indexes {
            let role = "Index '\(index.name)'"
            let partition = try position(index.partitionField, role)
            let sortKeys = try index.sortKeyFields.map { try position($0, role) }
            var indexColumns: [Int] = []
            for c in [partition] + sortKeys + primaryKey where !indexColumns.contains(c) { indexColumns.append(c) }
            indexes[index.name] = SecondaryIndex(
                name: index.name, sqlName: "\(model.name).\(index.name)",
                partition: partition, sortKeys: sortKeys, columns: indexColumns
            )
        }
        // Owner rules read a caller's items by their owner field: each single-valued owner
        // field gets an index (named so no `@index` can clash), in key order within an owner.
        for field in model.ownerIndexFields {
            let name = "owner:\(field)"
            guard indexes[name] == nil, let partition = columnIndex[field] else { continue }
            var indexColumns = [partition]
            for c in primaryKey where !indexColumns.contains(c) { indexColumns.append(c) }
            indexes[name] = SecondaryIndex(
                name: name, sqlName: "\(model.name).\(name)", partition: partition, sortKeys: [], columns: indexColumns)
        }

        self.name = model.name
        self.quotedName = model.name.quotedDatabaseIdentifier
        self.columns = columns
        self.lookup = ColumnLookup(columns.map(\.name))
        self.storedFieldColumns = storedFieldColumns
        self.keyColumnCount = (primaryKey.max() ?? -1) + 1
        self.isKeyColumn = (0..<keyColumnCount).map { primaryKey.contains($0) }
        let lookupColumns = Set(primaryKey + indexes.values.flatMap(\.columns))
        self.isLookupColumn = columns.indices.map { lookupColumns.contains($0) }
        self.versionColumn = columnIndex["_version"]!
        self.primaryKey = primaryKey
        self.indexes = indexes

        let list = columns.map(\.quoted).joined(separator: ", ")
        let keyMatch = primaryKey.map { "\(columns[$0].quoted) = ?" }.joined(separator: " AND ")
        self.selectList = list
        self.insertSQL = "INSERT OR REPLACE INTO \(quotedName) (\(list)) VALUES (\(Self.placeholders(columns.count)))"
        self.selectByKeySQL = "SELECT \(list) FROM \(quotedName) WHERE \(keyMatch)"
        self.deleteByKeySQL = "DELETE FROM \(quotedName) WHERE \(keyMatch)"
        self.selectMetadataByKeySQL = "SELECT \"_version\", \"_deleted\", \"_lastChangedAt\" FROM \(quotedName) WHERE \(keyMatch)"
        self.updateSyncMetadataByKeySQL = "UPDATE \(quotedName) SET \"_version\" = ?, \"_lastChangedAt\" = ? WHERE \(keyMatch)"
        let keyList = primaryKey.map { columns[$0].quoted }.joined(separator: ", ")
        let extracted = primaryKey.indices.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ")
        self.selectMetadataByKeysSQL = """
            SELECT \(keyList), "_version", "_deleted", "_lastChangedAt" FROM \(quotedName)
            WHERE (\(keyList)) IN (SELECT \(extracted) FROM json_each(?))
            """
    }

    /// The position in ``columns`` of the column named `name`, `nil` when there is none.
    package func column(named name: String) -> Int? {
        lookup.position(of: name)
    }

    /// ``column(named:)`` for a name's UTF-8, as JSON text holds it.
    func column(utf8 name: UnsafeBufferPointer<UInt8>) -> Int? {
        lookup.position(utf8: name)
    }
}
