import DeltaSyncCore
import DeltaSyncSQLite

/// One page of a sync query's answer.
struct SyncPage: Sendable {
    /// How many items the page held.
    let received: Int
    /// The page's records to store. Selective sync: a record outside the expression is not
    /// stored; a tombstone is, whatever it holds, so a deleted item never lingers.
    let records: SyncPageRecords
    let nextToken: JSONValue
    let startedAt: Int?

    /// Reads the answer's page. Without a selective sync expression, and when `keepText`, its
    /// records stay text: the page is scanned here (``SyncPageScan``: where the items lie, each
    /// member's column, the token, `startedAt`), and the records are stored from the text
    /// (``RemoteApply/apply(_:page:)``).
    ///
    /// - Parameters:
    ///   - table: the model's table: a page whose items do not each have a distinct key, written
    ///     plainly, is parsed (the ``Item`` path explains or resolves it).
    ///   - keepText: `false` when the records will be needed as items (someone observes the
    ///     store's changes): they are parsed here, while the page before is stored.
    ///   - expression: the model's selective sync expression.
    /// - Throws: ``DataStoreError/rejected(model:errorType:message:)`` when the answer holds no
    ///   page (the backend refused the query); ``DataStoreError/network(_:)`` when it is not
    ///   GraphQL JSON.
    init(
        _ text: String, field: String, model: String, table: ModelTable, keepText: Bool = true, expression: QueryPredicate
    ) throws(DataStoreError) {
        if expression == .all, keepText, let scanned = SyncPageScan(text, field: field, table: table) {
            received = scanned.items.count
            records = .text(SyncPageText(text: text, items: scanned.items, batches: scanned.batches))
            nextToken = scanned.nextToken
            startedAt = scanned.startedAt
            return
        }
        guard let parsed = try? JSONValue(parsing: text), case .object(let object) = parsed else {
            throw .network("the backend did not answer the sync query with GraphQL JSON: \(text.prefix(300))")
        }
        let connection = (object["data"] ?? .null)[field]
        guard case .array(let items) = connection["items"] else {
            let error = object["errors"]?[0] ?? .null
            throw .rejected(
                model: model, errorType: error["errorType"].stringValue ?? "Unknown",
                message: error["message"].stringValue ?? "the sync query returned no items")
        }
        received = items.count
        records = .items(items.compactMap(\.objectValue).filter { $0["_deleted"]?.boolValue == true || expression.matches($0) })
        nextToken = connection["nextToken"]
        startedAt = connection["startedAt"].intValue
    }
}

/// A sync page's records: the items' text as the backend sent it, or parsed (a selective sync
/// expression picked them, or the page cannot be stored from its text).
enum SyncPageRecords: Sendable {
    case text(SyncPageText)
    case items([Item])

    /// The records as items.
    func items() throws(DataStoreError) -> [Item] {
        switch self {
        case .items(let items): return items
        case .text(let text): return try text.parsedItems()
        }
    }
}

/// The items of a sync page as JSON text, each item's span in it and its members matched to
/// columns.
struct SyncPageText: Sendable {
    let text: String
    let items: [JSONScanner.Span]
    /// The items, ``RemoteApply/insertBatch`` per batch.
    let batches: [ScannedRecords]

    /// Calls `body` with the text's UTF-8, which the items' spans point into.
    func withBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        var text = text
        return try text.withUTF8(body)
    }

    /// The items that are objects, parsed, as the parsed path keeps them.
    func parsedItems() throws(DataStoreError) -> [Item] {
        do {
            return try withBytes { bytes in try items.filter { $0.kind == .object }.compactMap { try $0.parse(in: bytes).objectValue } }
        } catch {
            throw DataStoreError.network("the backend did not answer the sync query with GraphQL JSON: \(error)")
        }
    }
}
