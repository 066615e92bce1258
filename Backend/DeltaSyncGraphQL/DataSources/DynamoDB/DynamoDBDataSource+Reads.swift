import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation

extension DynamoDBDataSource {
    /// `GetItem`: the item, or `null`.
    func getItem(_ request: JSONValue) async throws -> JSONValue {
        let table = self.table
        let key = try table.key(request["key"])
        let projection = try DynamoDBLanguage.projection(request["projection"])
        let item = try table.visible(await environment.store.get(table.model, key: key))
        guard let item else { return .null }
        return .object(projection?(item) ?? item)
    }

    /// `Query`: one page of an index (or the table's key) under a key condition, in sort key
    /// order, filtered after the page is read (the limit counts what was read, as DynamoDB's).
    func query(_ request: JSONValue) async throws -> JSONValue {
        let index = try table.index(request["index"].stringValue)
        let condition = try DynamoDBLanguage.keyCondition(request["query"], partition: index.partition, sort: index.sort, model: table.model)
        let access = ItemQuery.Access.index(index.store, partition: condition.partition, sortKey: condition.sortKey)
        return try await page(request, access: access, tokenName: "Query:\(table.model.name):\(index.store ?? "")")
    }

    /// `Scan`: one page of every item, or of one segment of `totalSegments`.
    func scan(_ request: JSONValue) async throws -> JSONValue {
        if request["index"].stringValue != nil { _ = try table.index(request["index"].stringValue) }
        var segment: (Int, Int)?
        if let total = request["totalSegments"].intValue {
            guard let part = request["segment"].intValue, (1...1_000_000).contains(total), (0..<total).contains(part) else {
                throw DataSourceFailure.validation("A parallel scan needs totalSegments between 1 and 1000000 and a segment below it.")
            }
            segment = (part, total)
        }
        return try await page(request, access: .scan, tokenName: "Scan:\(table.model.name)", segment: segment)
    }

    /// A page of `access`: `{items, nextToken, scannedCount}`.
    private func page(_ request: JSONValue, access: ItemQuery.Access, tokenName: String, segment: (Int, Int)? = nil) async throws -> JSONValue {
        let filter = try DynamoDBLanguage.condition(request["filter"], what: "FilterExpression")
        let projection = try DynamoDBLanguage.projection(request["projection"])
        let limit = try Self.limit(request["limit"], max: environment.maxPageSize)
        var query = ItemQuery(access: access, limit: limit, descending: request["scanIndexForward"] == false)
        if let token = request["nextToken"].stringValue {
            query.after = try environment.tokens.decode(token, for: tokenName).cursor
        }
        let table = self.table
        let read = query
        let (items, end) = try await environment.store.read { tx -> ([Item], PageEnd) in
            var items: [Item] = []
            let end = try tx.query(table.model, read) { stored in
                guard let item = table.visible(stored) else { return }
                if let segment, Self.segment(of: item, model: table.model, total: segment.1) != segment.0 { return }
                if let filter, !filter(item) { return }
                items.append(projection?(item) ?? item)
            }
            return (items, end)
        }
        let nextToken: JSONValue = end.lastEvaluated.map { .string(environment.tokens.encode(.init(query: tokenName, cursor: $0))) } ?? .null
        return ["items": .array(items.map(JSONValue.object)), "nextToken": nextToken, "scannedCount": .int(end.scanned)]
    }

    /// A request's `limit`: DynamoDB's default reads up to 1 MB, here up to the server's page size.
    static func limit(_ value: JSONValue, max: Int) throws(DataSourceFailure) -> Int {
        if value.isNull { return max }
        guard let limit = value.intValue, limit >= 1 else {
            throw DataSourceFailure.validation("1 validation error detected: Value at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1")
        }
        return min(limit, max)
    }

    /// Which of `total` segments an item falls in: a stable hash of its key, as DynamoDB
    /// splits a table by the hash of its partition key.
    static func segment(of item: Item, model: ModelSchema, total: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in (item[model.primaryKey.partitionField] ?? .null).jsonText.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(hash % UInt64(total))
    }
}
