import DeltaSyncCore
import DeltaSyncStorage

/// `TransactGetItems` and `TransactWriteItems`: all or nothing, at most 100 items, each item
/// once.
extension DynamoDBDataSource {
    /// `{items: [item or null, in order], cancellationReasons: null}`.
    func transactGet(_ request: JSONValue) async throws -> JSONValue {
        let entries = try Self.transactItems(request)
        var reads: [(DynamoDBTable, Item, (@Sendable (Item) -> Item)?)] = []
        for entry in entries {
            let table = try table(named: entry["table"].stringValue ?? "")
            reads.append((table, try table.key(entry["key"]), try DynamoDBLanguage.projection(entry["projection"])))
        }
        let planned = reads.map { ($0.0, $0.1) }
        let found = try await environment.store.read { tx in try planned.map { table, key in try table.visible(tx.get(table.model, key: key)) } }
        let items = zip(reads, found).map { read, item in item.map { JSONValue.object(read.2?($0) ?? $0) } ?? .null }
        return ["items": .array(items), "cancellationReasons": .null]
    }

    /// `{keys: [key, in order], cancellationReasons: null}`; when a condition fails nothing is
    /// written, and the failure (`DynamoDB:TransactionCanceledException`) carries every item's
    /// reason (`None` for the items that would have passed) as `$ctx.result.cancellationReasons`.
    func transactWrite(_ request: JSONValue) async throws -> JSONValue {
        let entries = try Self.transactItems(request)
        var writes: [(WriteRequest, isCheck: Bool)] = []
        var seen: Set<String> = []
        for entry in entries {
            let table = try table(named: entry["table"].stringValue ?? "")
            let operation = entry["operation"].stringValue ?? ""
            guard ["PutItem", "UpdateItem", "DeleteItem", "ConditionCheck"].contains(operation) else {
                throw DataSourceFailure.validation("A transaction item's operation is PutItem, UpdateItem, DeleteItem or ConditionCheck, not '\(operation)'.")
            }
            let write = try WriteRequest(operation == "ConditionCheck" ? "DeleteItem" : operation, entry, table: table)
            guard seen.insert("\(table.model.name)\u{0}\(JSONValue.object(write.key).jsonText)").inserted else {
                throw DataSourceFailure.validation("Transaction request cannot include multiple operations on one item")
            }
            writes.append((write, operation == "ConditionCheck"))
        }
        let now = environment.nowMilliseconds, ttl = environment.sync.tombstoneTTLSeconds
        let planned = writes
        do {
            try await environment.store.write { tx in
                var reasons: [JSONValue] = []
                var failed = false
                for (write, isCheck) in planned {
                    let outcome: WriteOutcome
                    if isCheck {
                        let existing = write.table.visible(try tx.get(write.table.model, key: write.key))
                        outcome = write.condition.map { $0(existing ?? [:]) } == false ? .conditionFailed(existing) : .unchanged(existing)
                    } else {
                        outcome = try Self.run(write, handler: .lastWriterWins, tx: tx, now: now, tombstoneTTL: ttl)
                    }
                    switch outcome {
                    case .conditionFailed, .conflict:
                        failed = true
                        reasons.append(["type": "ConditionalCheckFailed", "message": "The conditional request failed"])
                    default:
                        reasons.append(["type": "None", "message": .null])
                    }
                }
                // Throwing rolls back what the transaction wrote.
                if failed { throw TransactionCancelled(reasons: reasons) }
            }
        } catch let cancelled as TransactionCancelled {
            let types = cancelled.reasons.map { $0["type"].stringValue ?? "None" }.joined(separator: ", ")
            throw DataSourceFailure(
                type: "DynamoDB:TransactionCanceledException",
                message: "Transaction cancelled, please refer cancellation reasons for specific reasons [\(types)]",
                data: ["keys": .null, "cancellationReasons": .array(cancelled.reasons)])
        }
        return ["keys": .array(writes.map { .object($0.0.key) }), "cancellationReasons": .null]
    }

    private struct TransactionCancelled: Error {
        var reasons: [JSONValue]
    }

    private static func transactItems(_ request: JSONValue) throws(DataSourceFailure) -> [JSONValue] {
        guard let items = request["transactItems"].arrayValue, !items.isEmpty else {
            throw DataSourceFailure.validation("A transaction needs 'transactItems': a list of 1 to 100 items.")
        }
        guard items.count <= 100 else {
            throw DataSourceFailure.validation("Member must have length less than or equal to 100: transactItems has \(items.count).")
        }
        return items
    }
}
