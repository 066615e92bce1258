import DeltaSyncCore
import DeltaSyncSQLite
import DeltaSyncStorage
import GRDB

/// The row a page's statement is stepped on, read by the page's fields straight from its
/// columns (``StoredRow``). One for the whole page: the statement stays the same from step to
/// step, and making an existential of a row per step would allocate.
struct SQLiteRow: StoredRow {
    private let table: ModelTable
    private let handle: SQLiteStatement
    /// The column of each of the page's fields, `-1` where no column stores it.
    private let positions: [Int]

    init(table: ModelTable, handle: SQLiteStatement, fields: [String]) {
        self.table = table
        self.handle = handle
        positions = fields.map { table.column(named: $0) ?? -1 }
    }

    func value(at slot: Int) -> JSONValue? {
        let position = positions[slot]
        return position < 0 ? nil : table.value(at: position, of: handle)
    }

    func writeJSON(at slot: Int, into out: inout [UInt8]) -> Bool {
        let position = positions[slot]
        return position >= 0 && table.writeJSON(at: position, of: handle, into: &out)
    }

    func item() -> Item { table.item(from: handle) }
}
