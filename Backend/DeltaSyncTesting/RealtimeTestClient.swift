import DeltaSyncCore
import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// A realtime WebSocket client speaking AppSync's protocol message by message: sends protocol
/// messages as JSON and hands back what the server sends, in order, so a test can assert on
/// each one.
///
/// ```swift
/// let client = server.realtimeClient()   // or RealtimeTestClient(url:headers:)
/// _ = try await client.initialize()
/// client.start(id: "1", query: "subscription { onCreatePost { id title } }", apiKey: server.apiKey)
/// _ = try await client.next("start_ack")
/// // ... create a post ...
/// let event = try await client.next("data")
/// ```
public final class RealtimeTestClient: Sendable {
    public enum Failure: Error {
        case timedOut(waitingFor: String)
        case closed(waitingFor: String)
        case unexpected(JSONValue, waitingFor: String)
    }

    private let outgoing: AsyncStream<String>.Continuation
    /// Only one `next` runs at a time (tests await each message in turn).
    private struct Iterator: @unchecked Sendable { var base: AsyncStream<JSONValue>.AsyncIterator }
    private let incoming: NIOLockedValueBox<Iterator>
    private let task: Task<WebSocketCloseFrame?, any Error>

    /// Connects to `url` with the `graphql-ws` subprotocol (plus `extraProtocols`) and `headers`.
    /// - Parameter reads: `false` makes a subscriber that never reads (for the slow-subscriber test).
    /// - Parameters:
    ///   - tlsConfiguration: what a `wss://` connection trusts (a development CA, say); `nil`
    ///     uses the system's roots.
    ///   - serverName: the name a `wss://` connection asks for and checks the certificate
    ///     against, for a URL whose host is an address (TLS names no addresses): `localhost`.
    public init(
        url: String, headers: HTTPFields = [:], extraProtocols: [String] = [], reads: Bool = true,
        tlsConfiguration: TLSConfiguration? = nil, serverName: String? = nil
    ) {
        let (outgoingStream, outgoing) = AsyncStream.makeStream(of: String.self)
        let (incomingStream, incoming) = AsyncStream.makeStream(of: JSONValue.self)
        self.outgoing = outgoing
        self.incoming = NIOLockedValueBox(Iterator(base: incomingStream.makeAsyncIterator()))
        var allHeaders = headers
        allHeaders[.secWebSocketProtocol] = (["graphql-ws"] + extraProtocols).joined(separator: ", ")
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: allHeaders, sniHostname: serverName)
        task = Task {
            defer { incoming.finish() }
            return try await WebSocketClient.connect(
                url: url, configuration: configuration, tlsConfiguration: tlsConfiguration, logger: Logger(label: "realtime-test-client")
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    if reads {
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 1 << 22) {
                                guard case .text(let text) = message else { continue }
                                incoming.yield((try? JSONValue(parsing: text)) ?? .string(text))
                            }
                            incoming.finish()
                        }
                    }
                    group.addTask {
                        for await text in outgoingStream { try await outbound.write(.text(text)) }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }

    public func send(_ message: JSONValue) {
        outgoing.yield(message.jsonText)
    }

    public func sendRaw(_ text: String) {
        outgoing.yield(text)
    }

    /// How long ``next(timeout:)`` and ``next(_:timeout:)`` wait by default: 30 seconds. Only a
    /// message that never comes waits it out, so it is generous: a server sharing two cores with
    /// a parallel test run has taken over 10 seconds to acknowledge a connection.
    public static let defaultTimeout: Duration = .seconds(30)

    /// The next message, whatever it is.
    public func next(timeout: Duration = RealtimeTestClient.defaultTimeout) async throws -> JSONValue {
        try await next(where: { _ in true }, describing: "any message", timeout: timeout)
    }

    /// The next message other than `ka`, which must be of `type`.
    public func next(_ type: String, timeout: Duration = RealtimeTestClient.defaultTimeout) async throws -> JSONValue {
        let message = try await next(where: { $0["type"] != "ka" }, describing: type, timeout: timeout)
        guard message["type"] == .string(type) else { throw Failure.unexpected(message, waitingFor: type) }
        return message
    }

    private func next(where accept: @escaping @Sendable (JSONValue) -> Bool, describing: String, timeout: Duration) async throws -> JSONValue {
        try await withThrowingTaskGroup(of: JSONValue.self) { group in
            group.addTask {
                while true {
                    var iterator = self.incoming.withLockedValue { $0 }
                    let message = await iterator.base.next()
                    self.incoming.withLockedValue { $0 = iterator }
                    guard let message else { throw Failure.closed(waitingFor: describing) }
                    if accept(message) { return message }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Failure.timedOut(waitingFor: describing)
            }
            let first = try await group.next()!
            group.cancelAll()
            return first
        }
    }

    /// `connection_init`, then the `connection_ack`.
    public func initialize() async throws -> JSONValue {
        send(["type": "connection_init", "payload": [:]])
        return try await next("connection_ack")
    }

    /// A `start` with the API key in `extensions.authorization`.
    public func start(id: String, query: String, variables: JSONValue = [:], apiKey: String) {
        start(id: id, query: query, variables: variables, authorization: ["host": "localhost", "x-api-key": .string(apiKey)])
    }

    /// A `start` with a token (user pools, OIDC, Lambda) in `extensions.authorization`.
    public func start(id: String, query: String, variables: JSONValue = [:], token: String) {
        start(id: id, query: query, variables: variables, authorization: ["host": "localhost", "Authorization": .string(token)])
    }

    /// A `start` with these `extensions.authorization` headers.
    public func start(id: String, query: String, variables: JSONValue = [:], authorization: JSONValue) {
        let data: JSONValue = ["query": .string(query), "variables": variables]
        send([
            "id": .string(id), "type": "start",
            "payload": ["data": .string(data.jsonText), "extensions": ["authorization": authorization]],
        ])
    }

    /// Closes from the client side; returns the server's close frame if the server closed first.
    public func close() async -> WebSocketCloseFrame? {
        outgoing.finish()
        return try? await task.value
    }

    /// Waits for the connection to end (the server closed it).
    public func closed() async throws -> WebSocketCloseFrame? {
        try await task.value
    }
}
