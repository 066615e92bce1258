import DeltaSyncCore

/// Which key one ``ItemQuery`` page reads by, worked out the same way by every store: the
/// partition column and its value, the sort key columns a condition applies to, the cursor
/// (the columns of ``PageEnd/lastEvaluated``) and the order. Columns are positions in the
/// store's own table layout; each store writes the SQL in its own dialect.
package struct PageAccess {
    /// A secondary index as positions: partition, sort keys, and every column of its order
    /// (partition, sort keys, then the remaining key columns, which make the order stable).
    package struct Index {
        package let partition: Int
        package let sortKeys: [Int]
        package let columns: [Int]

        package init(partition: Int, sortKeys: [Int], columns: [Int]) {
            self.partition = partition
            self.sortKeys = sortKeys
            self.columns = columns
        }
    }

    /// The partition column and the value the query gives it (never null); `nil` for a scan.
    package let partition: (column: Int, value: JSONValue)?
    package let sortKeys: [Int]
    package let condition: SortKeyCondition?
    /// The columns of ``PageEnd/lastEvaluated``: the item's key, plus the index's own key
    /// columns for a secondary index (DynamoDB's `LastEvaluatedKey`).
    package let cursor: [Int]
    /// The `ORDER BY` columns: ``cursor`` without the partition, which is fixed.
    package let order: [Int]
    /// Columns a row must have a value in: a secondary index's sort keys, since a DynamoDB GSI
    /// is sparse (items without every index key are not in it).
    package let required: [Int]

    /// - Parameters:
    ///   - table: the model's name, for errors.
    ///   - columnName: a column position's field name, for errors.
    ///   - index: the secondary index of a name, `nil` when the model has none of it.
    ///   - indexNames: the model's index names, for the error naming them.
    /// - Throws: ``AppSyncError`` `InvalidArgumentException` for an unknown index or a
    ///   partition without a value.
    package init(
        _ query: ItemQuery, table: String, primaryKey: [Int], columnName: (Int) -> String, index: (String) -> Index?,
        indexNames: () -> [String]
    ) throws(AppSyncError) {
        var required: [Int] = []
        let partition: (column: Int, value: JSONValue)?
        switch query.access {
        case .scan:
            partition = nil
            sortKeys = []
            condition = nil
            cursor = primaryKey
        case .index(nil, let value, let sortKey):
            partition = (primaryKey[0], value)
            sortKeys = Array(primaryKey.dropFirst())
            condition = sortKey
            cursor = primaryKey
        case .index(let name?, let value, let sortKey):
            guard let found = index(name) else {
                let known = indexNames().sorted().joined(separator: ", ")
                throw AppSyncError(.invalidArgument, "\(table) has no index named '\(name)'. Its indexes: \(known.isEmpty ? "none" : known).")
            }
            partition = (found.partition, value)
            sortKeys = found.sortKeys
            condition = sortKey
            cursor = found.columns
            required = found.sortKeys
        }
        if let partition, partition.value.isNull {
            throw AppSyncError(.invalidArgument, "A query on \(table) needs a value for '\(columnName(partition.column))'.")
        }
        self.partition = partition
        self.required = required
        order = cursor.filter { $0 != partition?.column }
    }
}
