import DeltaSyncCore
import GRDB

/// Reads one page from a cursor that was asked for `limit + 1` rows: DynamoDB's `Limit` counts
/// rows evaluated, the extra row only tells whether a next page exists.
enum PageReader {
    /// - Parameter evaluate: the row's item if it passes the filter (`nil` otherwise).
    /// - Parameter position: the row's resume cursor (called for the last evaluated row only;
    ///   GRDB reuses one `Row` per step, so it must copy values out).
    static func read(
        _ rows: RowCursor, limit: Int, evaluate: (Row) throws -> Item?, position: (Row) throws -> [JSONValue]
    ) throws -> ItemPage {
        var items: [Item] = []
        var scanned = 0
        var last: [JSONValue]?
        var hasMore = false
        while let row = try rows.next() {
            guard scanned < limit else {
                hasMore = true
                break
            }
            scanned += 1
            if let item = try evaluate(row) { items.append(item) }
            if scanned == limit { last = try position(row) }
        }
        return ItemPage(items: items, lastEvaluated: hasMore ? last : nil, scanned: scanned)
    }
}
