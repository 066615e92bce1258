import DeltaSyncCore
import GraphQL

/// A field of a projected item that has no value, reported in `errors` as AppSync reports it.
///
/// As in GraphQL execution, the field is null; when the field is non-null, its parent object
/// is null instead, up to the nearest nullable field (an item of a page at the latest).
struct ProjectionFailure: Sendable {
    enum Reason: Sendable {
        /// A non-null field (its GraphQL type) of `parent` had no value.
        case nullInNonNull(type: String, parent: String)
        /// A stored value that does not fit its field's type.
        case unserializable(JSONValue, type: String)
        /// Reading a relation failed; the error is already redacted.
        case failed(AppSyncError)
    }

    let reason: Reason
    /// From the failed field up, reversed: extended cheaply while the writer unwinds.
    private var reversedPath: [IndexPathValue] = []

    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The failure as seen from the value that contains `element`.
    mutating func within(_ element: IndexPathValue) {
        reversedPath.append(element)
    }

    /// The error of the response, for a failure below `prefix`.
    func error(under prefix: ResponsePath) -> Map {
        let path = prefix + reversedPath.reversed()
        switch reason {
        case .nullInNonNull(let type, let parent): return ErrorShape.nullInNonNull(type: type, parent: parent, path: path)
        case .unserializable(let value, let type): return ErrorShape.unserializable(value, as: type, path: path)
        case .failed(let error): return ErrorShape.field(error, path: path)
        }
    }
}

extension Array where Element == ProjectionFailure {
    /// Adds `element` to the paths of the failures from `mark` on: those of the value written
    /// inside `element` (made only when there are such failures: most values have none).
    mutating func place(from mark: Int, within element: @autoclosure () -> IndexPathValue) {
        guard mark < count else { return }
        let element = element()
        for index in mark..<count { self[index].within(element) }
    }
}
