import OrderedCollections

/// `#foreach`: the loop variable, `$foreach` and `$velocityCount` bound for each item and put
/// back as they were after the loop.
extension VTLEvaluation {
    func loop(_ variable: VTLVariable, over collection: VTLValue, body: [VTLNode], at position: VTLPosition) throws {
        let items: [VTLValue]
        switch collection {
        case .list(let list): items = list.items
        case .map(let map): items = Array(map.entries.values)
        case .null: items = []
        default: throw failure("#foreach cannot iterate over a \(collection.typeName)", at: position)
        }
        guard items.count <= limits.iterationsPerLoop else {
            throw failure("#foreach over \(items.count) items: a loop may run at most \(limits.iterationsPerLoop) times", at: position)
        }
        let saved = (binding(of: variable), binding(of: VTLSymbols.foreach), binding(of: VTLSymbols.velocityCount))
        defer {
            restore(saved.0, of: variable)
            restore(saved.1, of: VTLSymbols.foreach)
            restore(saved.2, of: VTLSymbols.velocityCount)
        }
        try nested {
            for (offset, item) in items.enumerated() {
                bind(variable, to: item)
                bind(VTLSymbols.foreach, to: .map(VTLMap(Self.loopScope(offset, of: items.count))))
                bind(VTLSymbols.velocityCount, to: .int(offset + 1))
                do {
                    try run(body)
                } catch Control.breakLoop {
                    break
                }
            }
        }
    }

    /// `$foreach`'s entries, keys in a fixed order: each iteration's map is a new map (a
    /// template may keep one), whose keys are shared with ``loopScopeKeys`` rather than hashed anew.
    private static func loopScope(_ offset: Int, of count: Int) -> OrderedDictionary<String, VTLValue> {
        var entries = loopScopeKeys
        entries.values[0] = .int(offset + 1)
        entries.values[1] = .int(offset)
        entries.values[2] = .bool(offset + 1 < count)
        entries.values[3] = .bool(offset == 0)
        entries.values[4] = .bool(offset + 1 == count)
        return entries
    }

    // Safe to share: its values are nulls, and each use mutates a copy (copy on write).
    nonisolated(unsafe) private static let loopScopeKeys: OrderedDictionary<String, VTLValue> = [
        "count": .null, "index": .null, "hasNext": .null, "first": .null, "last": .null,
    ]
}
