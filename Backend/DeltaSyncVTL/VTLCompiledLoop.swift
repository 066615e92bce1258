/// `#foreach($item in collection)`: a list's items, a map's values (Velocity iterates a map's
/// values), nothing for null. `$foreach` (`count`, `index`, `hasNext`, `first`, `last`) and
/// `$velocityCount` are bound for each item and put back as they were after the loop, as is
/// the loop's variable.
final class VTLLoopNode: VTLCompiledNode {
    let slot: Int
    let collection: VTLCompiledExpression
    let body: VTLCompiledBlock
    let position: VTLPosition
    /// Whether anything could read `$foreach` or `$velocityCount` while the loop runs: when
    /// nothing could, the loop does not make them.
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
                e.bind(foreach, to: .map(VTLMap(.loopScope(offset: offset, count: items.count))))
                e.bind(velocityCount, to: .int(offset + 1))
            }
            do {
                try body.run(&e)
            } catch VTLEvaluation.Control.breakLoop {
                break
            }
        }
    }

}
