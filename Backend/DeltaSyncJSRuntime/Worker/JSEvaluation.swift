import DeltaSyncCore

/// What one handler call gave: how it ended, the context it leaves for later steps (`ctx.stash`,
/// `ctx.args`), and what it recorded on the way (appended errors, `extensions` calls, console
/// lines).
public struct JSEvaluation: Sendable, Equatable {
    /// How the handler ended.
    public enum Outcome: Sendable, Equatable {
        /// It returned a value: the data source's request, or the step's value.
        case value(JSONValue)
        /// `runtime.earlyReturn(value, {skipTo})`: the rest of the step is skipped, and with
        /// `END` the rest of the pipeline's functions.
        case earlyReturn(JSONValue, skipTo: SkipTo?)
        /// `util.error(...)`: the field's error.
        case raised(JSRaisedError)
        /// `util.unauthorized()`.
        case unauthorized
    }

    /// `runtime.earlyReturn`'s `skipTo`.
    public enum SkipTo: String, Sendable {
        /// To the pipeline resolver's response handler.
        case end = "END"
        /// To the next function.
        case next = "NEXT"
    }

    public var outcome: Outcome
    /// `ctx.stash` after the call.
    public var stash: Item
    /// `ctx.args` after the call.
    public var arguments: Item
    /// `util.appendError` calls, in order.
    public var appendedErrors: [JSRaisedError]
    /// `extensions.*` calls, in order: `setSubscriptionFilter`, `invalidateSubscriptions`, ...
    public var extensions: [(name: String, value: JSONValue)]
    /// `console.*` lines, in order.
    public var logs: [(level: String, message: String)]

    public static func == (lhs: JSEvaluation, rhs: JSEvaluation) -> Bool {
        lhs.outcome == rhs.outcome && lhs.stash == rhs.stash && lhs.arguments == rhs.arguments
            && lhs.appendedErrors == rhs.appendedErrors
            && lhs.extensions.map(\.name) == rhs.extensions.map(\.name) && lhs.extensions.map(\.value) == rhs.extensions.map(\.value)
            && lhs.logs.map(\.level) == rhs.logs.map(\.level) && lhs.logs.map(\.message) == rhs.logs.map(\.message)
    }

    /// The worker's answer (worker.mjs documents it).
    init(answer: JSONValue) {
        if case .object(let raised) = answer["raised"] {
            outcome = raised["unauthorized"]?.boolValue == true ? .unauthorized : .raised(JSRaisedError(.object(raised)))
        } else if answer["earlyReturn"].boolValue == true {
            outcome = .earlyReturn(answer["value"], skipTo: answer["skipTo"].stringValue.flatMap(SkipTo.init(rawValue:)))
        } else {
            outcome = .value(answer["value"])
        }
        stash = answer["stash"].objectValue ?? [:]
        arguments = answer["arguments"].objectValue ?? [:]
        appendedErrors = (answer["errors"].arrayValue ?? []).map(JSRaisedError.init)
        extensions = (answer["extensions"].arrayValue ?? []).map { (name: $0["name"].stringValue ?? "", value: $0["value"]) }
        logs = (answer["logs"].arrayValue ?? []).map { (level: $0["level"].stringValue ?? "log", message: $0["message"].stringValue ?? "") }
    }
}

/// An error code raised or appended (`util.error(message, errorType, data, errorInfo)`).
public struct JSRaisedError: Sendable, Equatable {
    public var message: String
    /// `nil` when the code gave none.
    public var errorType: String?
    public var data: JSONValue
    public var errorInfo: JSONValue

    init(_ fields: JSONValue) {
        message = fields["message"].stringValue ?? ""
        errorType = fields["errorType"].stringValue
        data = fields["data"]
        errorInfo = fields["errorInfo"]
    }
}
