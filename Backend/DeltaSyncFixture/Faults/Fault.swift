import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation

/// A failure a test asked the server to have, through the fixture API or
/// ``Fixture/addFault(_:)``. None is active unless added; each is listed until it is used up,
/// expires or is cleared.
///
/// ```swift
/// let fault = server.fixture.addFault(.mutationError(
///     field: "createPost", errorType: "DynamoDB:ProvisionedThroughputExceededException",
///     message: "Rate exceeded", count: 2))
/// server.fixture.clearFault(id: fault.id)
/// ```
public struct Fault: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The next `count` runs of the mutation field fail with this error.
        case mutationError(field: String, errorType: String, message: String)
        /// The next `count` runs of the mutation field are refused with `ConflictUnhandled`
        /// and the stored item, whatever the model's conflict handler.
        case conflict(field: String)
        /// HTTP GraphQL responses wait this long first.
        case delay(Duration)
        /// Realtime handshakes are refused until this time.
        case refuseConnections(until: Date)
    }

    /// Set when added: `f1`, `f2`, ...
    public var id: String
    public var kind: Kind
    /// How many more times it applies; `nil` until cleared (or, for refused connections,
    /// until its time is up).
    public var remaining: Int?

    public init(id: String = "", kind: Kind, remaining: Int? = nil) {
        self.id = id
        self.kind = kind
        self.remaining = remaining
    }

    public static func mutationError(field: String, errorType: String, message: String, count: Int? = 1) -> Fault {
        Fault(kind: .mutationError(field: field, errorType: errorType, message: message), remaining: count)
    }

    public static func conflict(field: String, count: Int? = 1) -> Fault {
        Fault(kind: .conflict(field: field), remaining: count)
    }

    public static func delay(_ duration: Duration, count: Int? = nil) -> Fault {
        Fault(kind: .delay(duration), remaining: count)
    }
}

// MARK: - JSON

extension Fault {
    /// `{"type":"mutationError","field":"createPost","count":1,"errorType":"...","message":"..."}`
    /// and the other types as the README's fixture API section lists them.
    ///
    /// - Parameter now: when a `refuseConnections` fault's `seconds` start.
    /// - Throws: ``AppSyncError`` (`BadRequest`) naming what is missing or wrong.
    public init(json: JSONValue, now: Date) throws {
        guard case .object(let object) = json else { throw Self.invalid("A fault is a JSON object with a \"type\".") }
        func string(_ name: String) throws -> String {
            guard let value = object[name]?.stringValue, !value.isEmpty else {
                throw Self.invalid("A \(object["type"]?.stringValue ?? "") fault needs \"\(name)\" (a non-empty string).")
            }
            return value
        }
        var count: Int? = 1
        if let value = object["count"] {
            if value.isNull {
                count = nil
            } else if let number = value.intValue, number >= 1 {
                count = number
            } else {
                throw Self.invalid("\"count\" is a whole number from 1, or null for until cleared; got \(value.jsonText).")
            }
        }
        switch object["type"]?.stringValue {
        case "mutationError":
            self = .mutationError(
                field: try string("field"), errorType: try string("errorType"),
                message: object["message"]?.stringValue ?? "An injected failure (DeltaSync fixture API).", count: count)
        case "conflict":
            self = .conflict(field: try string("field"), count: count)
        case "delay":
            guard let milliseconds = object["milliseconds"]?.intValue, (0...600_000).contains(milliseconds) else {
                throw Self.invalid("A delay fault needs \"milliseconds\" from 0 to 600000.")
            }
            if object["count"] == nil { count = nil }
            self = .delay(.milliseconds(milliseconds), count: count)
        case "refuseConnections":
            guard let seconds = object["seconds"]?.doubleValue, seconds > 0, seconds <= 86_400 else {
                throw Self.invalid("A refuseConnections fault needs \"seconds\" above 0, at most 86400.")
            }
            self = Fault(kind: .refuseConnections(until: now.addingTimeInterval(seconds)))
        case let other:
            throw Self.invalid(
                "Unknown fault type \(other.map { "'\($0)'" } ?? "(missing)"): use mutationError, conflict, delay or refuseConnections.")
        }
    }

    var json: JSONValue {
        var object: [String: JSONValue] = ["id": .string(id), "remaining": remaining.map(JSONValue.int) ?? .null]
        switch kind {
        case .mutationError(let field, let errorType, let message):
            object["type"] = "mutationError"
            object["field"] = .string(field)
            object["errorType"] = .string(errorType)
            object["message"] = .string(message)
        case .conflict(let field):
            object["type"] = "conflict"
            object["field"] = .string(field)
        case .delay(let duration):
            object["type"] = "delay"
            object["milliseconds"] = .int(duration.milliseconds)
        case .refuseConnections(let until):
            object["type"] = "refuseConnections"
            object["until"] = .string(AWSDateTimeFormat.string(fromMilliseconds: Int(until.timeIntervalSince1970 * 1000)))
        }
        return .object(object)
    }

    private static func invalid(_ message: String) -> AppSyncError {
        AppSyncError(.badRequest, message)
    }
}
