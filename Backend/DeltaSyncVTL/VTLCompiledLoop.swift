import OrderedCollections

/// `#foreach($item in collection)`: a list's items, a map's values (Velocity iterates a map's
/// values), nothing for null. `$foreach` (`count`, `index`, `hasNext`, `first`, `last`) and
/// `$velocityCount` are bound for each item and put back as they were after the loop, as is
/// the loop's variable.
final class VTLLoopNode: VTLCompiledNode {
    let slot: Int
    let collection: VTLCompiledExpression
    let body: VTLCompiledBlock
    let position: VTLPosition
    /// Whether anything in the template reads `$foreach` or `$velocityCount`: when nothing
    /// does, the loop does not make them.
    let bindsLoopScope: Bool

    init(slot: Int, collection: VTLCompiledExpression, body: VTLCompiledBlock, position: VTLPosition, bindsLoopScope: Bool) {
        self.slot = slot
        self.collection = collection
        self.body = body
        self.position = position
        self.bindsLoopScope = bindsLoopScope
    }

    override func run(_ e: inout VTLEvaluation) throws {
        let items: [VTLValue]
        switch try collection.value(in: &e) {
        case .list(let list): items = list.items
        case .map(let map): items = Array(map.entries.values)
        case .null: items = []
        case let other: throw e.failure("#foreach cannot iterate over a \(other.typeName)", at: position)
        }
        guard items.count <= e.limits.iterationsPerLoop else {
            throw e.failure("#foreach over \(items.count) items: a loop may run at most \(e.limits.iterationsPerLoop) times", at: position)
        }
        let foreach = VTLSymbols.foreach.slot, velocityCount = VTLSymbols.velocityCount.slot
        let saved = (e.binding(of: slot), e.binding(of: foreach), e.binding(of: velocityCount))
        defer {
            e.restore(saved.0, of: slot)
            e.restore(saved.1, of: foreach)
            e.restore(saved.2, of: velocityCount)
        }
        try e.enter()
        defer { e.leave() }
        for (offset, item) in items.enumerated() {
            e.bind(slot, to: item)
            if bindsLoopScope {
                e.bind(foreach, to: .map(VTLMap(Self.loopScope(offset, of: items.count))))
                e.bind(velocityCount, to: .int(offset + 1))
            }
            do {
                try body.run(&e)
            } catch VTLEvaluation.Control.breakLoop {
                break
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
