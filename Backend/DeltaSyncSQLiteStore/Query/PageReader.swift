import DeltaSyncCore
import DeltaSyncStorage
import GRDB

/// Reads one page from a cursor that was asked for `limit + 1` rows: DynamoDB's `Limit` counts
/// rows evaluated, the extra row only tells whether a next page exists.
enum PageReader {
    /// - Parameter evaluate: hands the row's item to the page's consumer if it passes the filter.
    /// - Parameter position: the row's resume cursor (called for the last evaluated row only;
    ///   GRDB reuses one `Row` per step, so it must copy values out).
    static func read(
        _ rows: RowCursor, limit: Int, evaluate: (Row) throws -> Void, position: (Row) throws -> [JSONValue]
    ) throws -> PageEnd {
        var scanned = 0
        var last: [JSONValue]?
        var hasMore = false
        while let row = try rows.next() {
            guard scanned < limit else {
                hasMore = true
                break
            }
            scanned += 1
            try evaluate(row)
            if scanned == limit { last = try position(row) }
        }
        return PageEnd(lastEvaluated: hasMore ? last : nil, scanned: scanned)
    }
}
