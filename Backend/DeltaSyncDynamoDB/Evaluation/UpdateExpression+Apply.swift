import DeltaSyncCore

extension UpdateExpression {
    /// The item after the update, as DynamoDB computes it: every `SET` value is read from the
    /// item as it was, then `SET`, `REMOVE` (list elements from the highest index down, so
    /// one removal does not shift another), `ADD` and `DELETE` are applied.
    ///
    /// - Throws: ``DynamoDBError`` when an operand names a missing attribute, has the wrong
    ///   type for its operator (`+` on a string, `ADD` of a number to a list), or a path's
    ///   parent is missing, in DynamoDB's words.
    public func apply(to item: Item) throws(DynamoDBError) -> Item {
        var sets: [(DocumentPath, JSONValue)] = []
        var removes: [DocumentPath] = []
        var additions: [(DocumentPath, AttributeValue, isAdd: Bool)] = []
        for action in actions {
            switch action {
            case .set(let path, let operand): sets.append((path, try operand.updateValue(in: item).plainValue))
            case .remove(let path): removes.append(path)
            case .add(let path, let value): additions.append((path, value, true))
            case .delete(let path, let value): additions.append((path, value, false))
            }
        }
        var result = item
        for (path, value) in sets { try ItemPath.write(value, at: path, in: &result) }
        for path in removes.sorted(by: Self.removedFirst) { ItemPath.remove(at: path, in: &result) }
        for (path, value, isAdd) in additions {
            let current = ItemPath.value(at: path, in: result).map(AttributeValue.init(plain:))
            if isAdd {
                try ItemPath.write(try Self.add(value, to: current).plainValue, at: path, in: &result)
            } else if let current {
                let kept = try Self.delete(value, from: current)
                if kept.isEmpty { ItemPath.remove(at: path, in: &result) } else { try ItemPath.write(.array(kept), at: path, in: &result) }
            }
        }
        return result
    }

    /// `ADD`: a number to a number, a set's elements to a set (a stored list), or the value
    /// itself when the attribute is absent.
    private static func add(_ value: AttributeValue, to current: AttributeValue?) throws(DynamoDBError) -> AttributeValue {
        guard let current else { return value }
        switch (current, value) {
        case (.number(let a), .number(let b)): return .number(a + b)
        case (.list(let stored), _) where value.isSet:
            guard stored.allSatisfy({ ValueComparison.fits($0, in: value.typeName) }) else { throw incorrectType }
            let added = (value.setElements ?? []).filter { new in !stored.contains { ValueComparison.equal($0, new) } }
            return .list(stored + added)
        default:
            throw incorrectType
        }
    }

    /// `DELETE`: the stored set (a list) without the value's elements.
    private static func delete(_ value: AttributeValue, from current: AttributeValue) throws(DynamoDBError) -> [JSONValue] {
        guard case .list(let stored) = current, stored.allSatisfy({ ValueComparison.fits($0, in: value.typeName) }) else {
            throw incorrectType
        }
        let removed = value.setElements ?? []
        return stored.filter { element in !removed.contains { ValueComparison.equal(element, $0) } }.map(\.plainValue)
    }

    /// Orders removals so that list indexes under one parent go from the highest down.
    private static func removedFirst(_ a: DocumentPath, _ b: DocumentPath) -> Bool {
        for (x, y) in zip(a.elements, b.elements) where x != y {
            switch (x, y) {
            case (.index(let i), .index(let j)): return i > j
            case (.name(let m), .name(let n)): return m < n
            case (.name, .index): return true
            case (.index, .name): return false
            }
        }
        return a.elements.count > b.elements.count
    }

    static var incorrectType: DynamoDBError {
        .validation("An operand in the update expression has an incorrect data type")
    }
}

extension ExpressionOperand {
    /// The operand's value in an update's `SET`.
    ///
    /// - Throws: ``DynamoDBError`` for a missing attribute or an operand of the wrong type.
    func updateValue(in item: Item) throws(DynamoDBError) -> AttributeValue {
        switch self {
        case .path(let path):
            guard let found = ItemPath.value(at: path, in: item) else {
                throw .validation("The provided expression refers to an attribute that does not exist in the item")
            }
            return AttributeValue(plain: found)
        case .value(let value):
            return value
        case .size:
            guard let size = value(in: item) else { throw UpdateExpression.incorrectType }
            return size
        case .ifNotExists(let path, let fallback):
            if let found = ItemPath.value(at: path, in: item) { return AttributeValue(plain: found) }
            return try fallback.updateValue(in: item)
        case .listAppend(let first, let second):
            guard case .list(let a) = try first.updateValue(in: item), case .list(let b) = try second.updateValue(in: item) else {
                throw UpdateExpression.incorrectType
            }
            return .list(a + b)
        case .plus(let left, let right), .minus(let left, let right):
            guard case .number(let a) = try left.updateValue(in: item), case .number(let b) = try right.updateValue(in: item) else {
                throw UpdateExpression.incorrectType
            }
            if case .plus = self { return .number(a + b) }
            return .number(a - b)
        }
    }
}
