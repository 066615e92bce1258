import DeltaSyncCore

/// One step of a project resolver as it ran, for the request log and the console: which
/// function, what it sent its data source, and what it handed on or why it failed. Recorded
/// only when the server keeps a request log (the fixture API is on); a field resolved by a
/// generated resolver alone records nothing.
package struct ResolverStepTrace: Sendable, Equatable {
    /// The field's coordinate (`Query.todoSummary`).
    package var field: String
    /// The step: `before`, a function's name, the generated data step, `after`.
    package var step: String
    /// What the step sent its data source (a template's rendered request), or `null`.
    package var request: JSONValue
    /// The step's value: the next step's `$ctx.prev.result`, or the field's.
    package var output: JSONValue
    /// The error that ended the resolver at this step.
    package var error: String?

    /// The longest text one value of a trace keeps: the log holds 500 requests.
    static let maxValueCharacters = 4096

    package var json: JSONValue {
        [
            "field": .string(field), "step": .string(step),
            "request": Self.bounded(request), "output": Self.bounded(output),
            "error": error.map(JSONValue.string) ?? .null,
        ]
    }

    private static func bounded(_ value: JSONValue) -> JSONValue {
        let text = value.jsonText
        guard text.count > maxValueCharacters else { return value }
        return .string(String(text.prefix(maxValueCharacters)) + "… (\(text.count) characters)")
    }
}
