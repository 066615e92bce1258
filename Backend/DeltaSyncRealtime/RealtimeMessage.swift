import DeltaSyncCore
import DeltaSyncGraphQL
import NIOCore

/// A client message of AppSync's realtime protocol (`graphql-ws` subprotocol, JSON text frames).
enum RealtimeClientMessage: Sendable, Equatable {
    case connectionInit
    /// `payload.data` (the request as a JSON string) and `payload.extensions`.
    case start(id: String, data: String, extensions: JSONValue)
    case stop(id: String)
    /// `connection_terminate`: the client is done (Apollo's WebSocket transport sends it before
    /// it closes); the server closes the connection normally.
    case connectionTerminate
    /// A well-formed message of a type the protocol does not have (`subscribe`, `ping`, ...).
    case unsupported(type: String)

    /// - Throws: ``AppSyncError`` (`MalformedMessage`) for a frame that is not a JSON object
    ///   with a string `type`, or a `start`/`stop` without its fields.
    init(text: String) throws(AppSyncError) {
        guard case .object(let message)? = try? JSONValue(parsing: text), let type = message["type"]?.stringValue else {
            throw AppSyncError(.malformedMessage, "Each message must be a JSON object with a string 'type'.")
        }
        switch type {
        case "connection_init":
            self = .connectionInit
        case "start":
            let id = try Self.id(message, type)
            guard let data = message["payload"]?["data"].stringValue else {
                throw AppSyncError(.malformedMessage, "A start message needs payload.data: the GraphQL request as a JSON string.")
            }
            self = .start(id: id, data: data, extensions: message["payload"]?["extensions"] ?? .null)
        case "stop":
            self = .stop(id: try Self.id(message, type))
        case "connection_terminate":
            self = .connectionTerminate
        default:
            self = .unsupported(type: type)
        }
    }

    /// Ids are echoed verbatim; gql sends `"1"`, Amplify UUIDs. A number is accepted as its text.
    private static func id(_ message: [String: JSONValue], _ type: String) throws(AppSyncError) -> String {
        switch message["id"] {
        case .string(let id)?: return id
        case .int(let id)?: return String(id)
        default: throw AppSyncError(.malformedMessage, "A \(type) message needs a string 'id'.")
        }
    }
}

/// Server messages, written as JSON bytes.
enum RealtimeServerMessage {
    static func connectionAck(timeoutMilliseconds: Int) -> [UInt8] {
        Array(#"{"type":"connection_ack","payload":{"connectionTimeoutMs":\#(timeoutMilliseconds)}}"#.utf8)
    }

    static let keepAlive = Array(#"{"type":"ka"}"#.utf8)

    static func startAck(id: String) -> [UInt8] {
        var out = Array(#"{"type":"start_ack","id":"#.utf8)
        JSONWriter.writeString(id, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func complete(id: String) -> [UInt8] {
        var out = Array(#"{"type":"complete","id":"#.utf8)
        JSONWriter.writeString(id, to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// What comes before the payload in every `data` message of subscription `id`.
    static func dataPrefix(id: String) -> [UInt8] {
        var out = Array(#"{"type":"data","id":"#.utf8)
        JSONWriter.writeString(id, to: &out)
        out.append(contentsOf: #","payload":"#.utf8)
        return out
    }

    /// `error`, with the subscription's id when the error concerns one (gql treats an error
    /// without id as fatal for the connection).
    static func error(id: String?, _ errors: ResponseErrors) -> [UInt8] {
        var out = Array(#"{"type":"error""#.utf8)
        if let id {
            out.append(contentsOf: #","id":"#.utf8)
            JSONWriter.writeString(id, to: &out)
        }
        out.append(contentsOf: #","payload":{"errors":"#.utf8)
        errors.write(to: &out)
        out.append(contentsOf: "}}".utf8)
        return out
    }

    static func error(id: String?, _ error: AppSyncError) -> [UInt8] {
        Self.error(id: id, ResponseErrors(error))
    }

    /// `connection_error`, sent before closing a connection that is not authorized. Amplify
    /// does not retry `errorCode` 401.
    static func connectionError(_ error: AppSyncError, code: Int) -> [UInt8] {
        var out = Array(#"{"type":"connection_error","payload":{"errors":"#.utf8)
        ResponseErrors.connection(error, code: code).write(to: &out)
        out.append(contentsOf: "}}".utf8)
        return out
    }
}
