import DeltaSyncCore

extension PageObject {
    /// The page as a template reads it: `items`, `nextToken`, and `startedAt` for a sync page.
    var json: JSONValue {
        var page: Item = ["nextToken": nextToken.map(JSONValue.string) ?? .null]
        if case .objects(let objects) = items { page["items"] = .array(objects.map { .object($0.item) }) } else { page["items"] = [] }
        if let startedAt { page["startedAt"] = .int(startedAt) }
        return .object(page)
    }
}
