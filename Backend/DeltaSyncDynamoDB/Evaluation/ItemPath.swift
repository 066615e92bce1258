import DeltaSyncCore

/// Reading, writing and removing the value at a ``DocumentPath`` of a plain item.
enum ItemPath {
    /// The value at `path`; `nil` when an attribute, member or list element is missing.
    static func value(at path: DocumentPath, in item: Item) -> JSONValue? {
        guard let first = path.elements.first, case .name(let name) = first, var current = item[name] else { return nil }
        for element in path.elements.dropFirst() {
            switch (element, current) {
            case (.name(let name), .object(let members)):
                guard let next = members[name] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Writes `value` at `path`. Every step but the last must exist; a list index past the
    /// end appends, as DynamoDB does.
    ///
    /// - Throws: ``DynamoDBError`` when a step is missing or of the wrong type.
    static func write(_ value: JSONValue, at path: DocumentPath, in item: inout Item) throws(DynamoDBError) {
        var root = JSONValue.object(item)
        item = [:]  // Leaves `root` the only reference, so the write below does not copy the item.
        defer { item = root.objectValue ?? [:] }
        try write(value, at: path.elements[...], in: &root)
    }

    private static func write(_ value: JSONValue, at path: ArraySlice<DocumentPath.Element>, in target: inout JSONValue) throws(DynamoDBError) {
        guard let first = path.first else {
            target = value
            return
        }
        let rest = path.dropFirst()
        switch (first, target) {
        case (.name(let name), .object(var members)):
            guard rest.isEmpty || members[name] != nil else { throw invalidPath }
            target = .null
            var child = members[name] ?? .null
            members[name] = nil
            try write(value, at: rest, in: &child)
            members[name] = child
            target = .object(members)
        case (.index(let index), .array(var elements)):
            target = .null
            if index < elements.count {
                try write(value, at: rest, in: &elements[index])
            } else {
                guard rest.isEmpty else { throw invalidPath }
                elements.append(value)
            }
            target = .array(elements)
        default:
            throw invalidPath
        }
    }

    /// Removes the value at `path`; nothing happens when it is not there.
    static func remove(at path: DocumentPath, in item: inout Item) {
        var root = JSONValue.object(item)
        item = [:]
        remove(path.elements[...], in: &root)
        item = root.objectValue ?? [:]
    }

    private static func remove(_ path: ArraySlice<DocumentPath.Element>, in target: inout JSONValue) {
        guard let first = path.first else { return }
        let rest = path.dropFirst()
        switch (first, target) {
        case (.name(let name), .object(var members)) where members[name] != nil:
            target = .null
            if rest.isEmpty {
                members[name] = nil
            } else {
                var child = members.removeValue(forKey: name)!
                remove(rest, in: &child)
                members[name] = child
            }
            target = .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            target = .null
            if rest.isEmpty { elements.remove(at: index) } else { remove(rest, in: &elements[index]) }
            target = .array(elements)
        default:
            return
        }
    }

    static var invalidPath: DynamoDBError {
        .validation("The document path provided in the update expression is invalid for update")
    }
}
