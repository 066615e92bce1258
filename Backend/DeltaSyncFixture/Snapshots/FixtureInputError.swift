import DeltaSyncCore

/// What is wrong with a seed file or snapshot: the line and the value at fault, so a person
/// can fix a file of thousands of items. Nothing of a refused file is written.
public struct FixtureInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `Seed` or `Snapshot`.
    public var document: String
    /// 1-based line in the text; `nil` for values that did not come from text.
    public var line: Int?
    /// `Post[3].title`: the value at fault.
    public var path: String
    public var reason: String

    package init(document: String, line: Int?, path: [JSONTextLocation.Step], reason: String) {
        self.document = document
        self.line = line
        self.path = JSONTextLocation.describe(path)
        self.reason = reason
    }

    /// `Seed line 12, Post[3].title: expected a String, got 42.`
    public var description: String {
        var text = document
        if let line { text += " line \(line)" }
        if !path.isEmpty { text += (line == nil ? " " : ", ") + path }
        return text + ": " + reason
    }

    /// The error in AppSync's shape, as the fixture API answers it (400).
    public var appSyncError: AppSyncError { AppSyncError(.badRequest, description) }
}

/// A problem found at a path, before the text's line is known.
struct FixtureValueError: Error {
    var path: [JSONTextLocation.Step]
    var reason: String

    /// Locates the value in `text` (when there is one) for a ``FixtureInputError``.
    func located(document: String, in text: String?) -> FixtureInputError {
        FixtureInputError(
            document: document, line: text.map { JSONTextLocation.line(of: path, in: $0) }, path: path, reason: reason)
    }
}
