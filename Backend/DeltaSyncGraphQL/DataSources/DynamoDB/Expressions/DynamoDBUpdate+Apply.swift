import DeltaSyncCore

extension DynamoDBUpdate {
    /// The item after the update: every value is read from the item as it was, then `SET`,
    /// `REMOVE`, `ADD` and `DELETE` are applied.
    ///
    /// - Throws: ``DataSourceFailure`` (`DynamoDB:ValidationException`) for an operand of the
    ///   wrong type (`+` on a string, `list_append` of a number) or a path whose parent is not
    ///   there.
    func apply(to item: Item) throws(DataSourceFailure) -> Item {
        var sets: [(DynamoDBPath, JSONValue)] = []
        for (path, operand) in self.sets {
            guard let value = DynamoDBEvaluation.value(operand, item) else {
                throw .validation("The provided expression refers to an attribute that does not exist in the item, or an operand type is wrong for its operator")
            }
            sets.append((path, value))
        }
        var result: JSONValue = .object(item)
        for (path, value) in sets { try Self.write(value, at: path[...], in: &result) }
        // Remove list elements from the highest index down, so earlier removals do not shift them.
        for path in removes.sorted(by: { Self.lastIndex($0) > Self.lastIndex($1) }) { Self.remove(path[...], in: &result) }
        for (path, operand) in adds {
            let current = DynamoDBEvaluation.resolve(path, in: result.objectValue ?? [:])
            switch (current, DynamoDBEvaluation.value(operand, item)) {
            case (nil, let added?) where added.doubleValue != nil || added.arrayValue != nil:
                try Self.write(added, at: path[...], in: &result)
            case (let number?, let added?) where number.doubleValue != nil && added.doubleValue != nil:
                try Self.write(DynamoDBEvaluation.add(number, added, sign: 1), at: path[...], in: &result)
            case (.array(let set)?, .array(let added)?):
                try Self.write(.array(set + added.filter { !set.contains($0) }), at: path[...], in: &result)
            default:
                throw .validation("An operand in the update expression has an incorrect data type")
            }
        }
        for (path, operand) in deletes {
            guard case .array(let removed)? = DynamoDBEvaluation.value(operand, item) else {
                throw .validation("An operand in the update expression has an incorrect data type")
            }
            guard case .array(let set)? = DynamoDBEvaluation.resolve(path, in: result.objectValue ?? [:]) else { continue }
            let kept = set.filter { !removed.contains($0) }
            if kept.isEmpty { Self.remove(path[...], in: &result) } else { try Self.write(.array(kept), at: path[...], in: &result) }
        }
        return result.objectValue ?? [:]
    }

    private static func lastIndex(_ path: DynamoDBPath) -> Int {
        if case .index(let index)? = path.last { return index }
        return -1
    }

    private static func write(_ value: JSONValue, at path: ArraySlice<DynamoDBPathElement>, in target: inout JSONValue) throws(DataSourceFailure) {
        guard let first = path.first else {
            target = value
            return
        }
        let rest = path.dropFirst()
        switch (first, target) {
        case (.name(let name), .object(var map)):
            guard rest.isEmpty || map[name] != nil else {
                throw .validation("The document path provided in the update expression is invalid for update")
            }
            var child = map[name] ?? .null
            try write(value, at: rest, in: &child)
            map[name] = child
            target = .object(map)
        case (.index(let index), .array(var elements)):
            if index >= elements.count {
                // DynamoDB appends past the end of a list.
                guard rest.isEmpty else { throw .validation("The document path provided in the update expression is invalid for update") }
                elements.append(value)
            } else {
                try write(value, at: rest, in: &elements[index])
            }
            target = .array(elements)
        default:
            throw .validation("The document path provided in the update expression is invalid for update")
        }
    }

    private static func remove(_ path: ArraySlice<DynamoDBPathElement>, in target: inout JSONValue) {
        guard let first = path.first else { return }
        let rest = path.dropFirst()
        switch (first, target) {
        case (.name(let name), .object(var map)):
            if rest.isEmpty { map[name] = nil } else if var child = map[name] {
                remove(rest, in: &child)
                map[name] = child
            }
            target = .object(map)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            if rest.isEmpty { elements.remove(at: index) } else { remove(rest, in: &elements[index]) }
            target = .array(elements)
        default:
            return
        }
    }
}
