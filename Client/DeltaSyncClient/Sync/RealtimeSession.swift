import DeltaSyncCore
import Foundation

/// One subscription a ``RealtimeSession`` starts: `onCreatePost`, `onUpdatePost`, ...
struct RealtimeSubscription: Sendable {
    let id: String
    let modelName: String
    /// The subscription field, the key of each event's `data`.
    let field: String
    let document: String
    let variables: Item
    /// The same subscription without its `filter`, for a backend that refuses the filter
    /// (AppSync's limits are stricter than what a sync expression can say); the events are
    /// filtered on the device either way.
    let unfiltered: Item?
    /// The credentials its `start` may carry, in order (the first that has something to give);
    /// empty for the endpoint's own.
    var authorizations: [SyncAuthorization] = []
}

/// What a realtime connection reports.
enum RealtimeMessage: Sendable {
    /// Connected, and every subscription answered. `refused` names the models whose
    /// subscriptions the backend refused (`Unauthorized`, `OperationDisabled`): as Amplify,
    /// those models sync without realtime.
    case established(refused: [String: String])
    /// An event of the subscription with this id: the subscription field's value.
    case data(subscriptionID: String, item: JSONValue)
}

/// AppSync's realtime protocol (`graphql-ws`) over one WebSocket, as a client: the API key in
/// the `header` query parameter (the form AppSync, `deltasync serve` and Amplify's simulator
/// all take), `connection_init`, one `start` per subscription, then events until the
/// connection ends. A connection that hears nothing, not even `ka`, within the
/// `connectionTimeoutMs` the backend announced is given up, as Amplify does.
struct RealtimeSession: Sendable {
    let endpoint: SyncEndpoint
    let subscriptions: [RealtimeSubscription]
    /// The WebSocket stack: the system's on Apple platforms, NIO on Linux.
    let transport: any RealtimeTransport
    var acknowledgementTimeout: Duration = .seconds(15)

    private enum Failure: Error {
        case lost(String)
    }

    /// Connects and reports through `messages` until the connection ends.
    ///
    /// - Throws: ``DataStoreError/network(_:)`` when the connection could not be made or was
    ///   lost; ``DataStoreError/rejected(model:errorType:message:)`` when the backend refused
    ///   the connection (a wrong API key), which retrying will not fix.
    func run(reporting messages: AsyncThrowingStream<RealtimeMessage, any Error>.Continuation) async throws(DataStoreError) {
        let heard = Locked(ContinuousClock.now)
        let timeout = Locked<Duration>(acknowledgementTimeout)
        // The connection runs in its own task: until the upgrade completes, the WebSocket client
        // waits without heeding cancellation, so a connection that hangs there (a half-open TCP
        // connection) is left behind instead of holding sync up.
        let (ended, end) = AsyncStream.makeStream(of: Result<Void, DataStoreError>.self)
        let connection = Task {
            do {
                try await connect(messages: messages, heard: heard, timeout: timeout)
                end.yield(.failure(.network("the realtime connection to \(endpoint.realtimeURL) was closed")))
            } catch let error as DataStoreError {
                end.yield(.failure(error))
            } catch Failure.lost(let reason) {
                end.yield(.failure(.network("the realtime connection to \(endpoint.realtimeURL) was lost: \(reason)")))
            } catch {
                end.yield(.failure(.network("cannot keep a realtime connection to \(endpoint.realtimeURL): \(error)")))
            }
            end.finish()
        }
        defer { connection.cancel() }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await result in ended { try result.get() }
                }
                group.addTask {
                    // Nothing heard (no upgrade, no acknowledgement, no `ka`) within the timeout.
                    while true {
                        let deadline = heard.withLock { $0 } + timeout.withLock { $0 }
                        try await Task.sleep(until: deadline, clock: .continuous)
                        if heard.withLock({ $0 }) + timeout.withLock({ $0 }) <= .now {
                            throw DataStoreError.network(
                                "the realtime connection to \(endpoint.realtimeURL) was lost: nothing heard within \(timeout.withLock { $0 })")
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        } catch let error as DataStoreError {
            throw error
        } catch {
            throw .network("\(error)")
        }
    }

    private func connect(
        messages: AsyncThrowingStream<RealtimeMessage, any Error>.Continuation, heard: Locked<ContinuousClock.Instant>,
        timeout: Locked<Duration>
    ) async throws {
        // AppSync's clients sign the handshake as POST <path>/connect with `{}`.
        let path = endpoint.url.path.isEmpty ? "/graphql" : endpoint.url.path
        let handshake = SyncAuthorization.Signed(host: endpoint.hostHeader, path: path + "/connect", body: Array("{}".utf8))
        let headers = try await Self.firstHeaders([endpoint.authorization] + endpoint.additionalAuthorizations, for: handshake)
        let (starts, unsigned) = try await startMessages(path: path)
        // A subscription nobody can sign for (signed out, no other mode) is not started: its
        // model syncs without realtime, as a refused one does.
        let startable = subscriptions.filter { starts[$0.id] != nil }
        guard let url = URL(string: connectURL(headers)) else {
            throw DataStoreError.configuration("the realtime URL \(endpoint.realtimeURL) cannot carry the connection's authorization")
        }
        try await transport.run(url) { incoming, send in
            heard.withLock { $0 = .now }
            try await send(#"{"type":"connection_init"}"#)
            var protocolState = ProtocolState(subscriptions: startable, starts: starts, refused: unsigned)
            for try await text in incoming {
                heard.withLock { $0 = .now }
                guard let json = try? JSONValue(parsing: text) else { continue }
                for reply in try protocolState.receive(json, messages: messages, timeout: timeout) { try await send(reply) }
            }
            throw Failure.lost("the backend closed it")
        }
    }

    /// What AppSync authorizes the connection and each `start` with: the GraphQL host and the
    /// credentials' headers.
    private func authorization(_ headers: [String: String]) -> JSONValue {
        var object: [String: JSONValue] = ["host": .string(endpoint.hostHeader)]
        for (name, value) in headers { object[name] = .string(value) }
        return .object(object)
    }

    /// Every `start` message this session may send (with and without the filter), by id, each
    /// authorized with its subscription's credentials (signed over its data, for IAM).
    private func startMessages(path: String) async throws(DataStoreError) -> (messages: [String: String], unsigned: [String: String]) {
        var messages: [String: String] = [:]
        var unsigned: [String: String] = [:]
        for subscription in subscriptions {
            var variants = [(subscription.id, subscription.variables)]
            if let unfiltered = subscription.unfiltered { variants.append((subscription.id + ProtocolState.unfilteredSuffix, unfiltered)) }
            for (id, variables) in variants {
                let data = (["query": .string(subscription.document), "variables": .object(variables)] as JSONValue).jsonText
                let candidates = subscription.authorizations.isEmpty ? [endpoint.authorization] : subscription.authorizations
                let headers: [String: String]
                do {
                    headers = try await Self.firstHeaders(
                        candidates, for: .init(host: endpoint.hostHeader, path: path, body: Array(data.utf8)))
                } catch {
                    guard case .rejected(_, "SignedOut", let reason) = error else { throw error }
                    unsigned[subscription.modelName] = "SignedOut: \(reason)"
                    continue
                }
                let message: JSONValue = [
                    "id": .string(id), "type": "start",
                    "payload": ["data": .string(data), "extensions": ["authorization": authorization(headers)]],
                ]
                messages[id] = message.jsonText
            }
        }
        return (messages, unsigned)
    }

    /// The headers of the first credentials that have something to give (a signed-out user's
    /// token provider passes to the next).
    private static func firstHeaders(
        _ candidates: [SyncAuthorization], for request: SyncAuthorization.Signed
    ) async throws(DataStoreError) -> [String: String] {
        for (index, authorization) in candidates.enumerated() {
            do {
                return try await authorization.headers(for: request)
            } catch {
                guard case .rejected(_, "SignedOut", _) = error, index < candidates.count - 1 else { throw error }
            }
        }
        throw .rejected(model: "realtime", errorType: "SignedOut", message: "no credentials for the realtime connection")
    }

    /// The realtime URL with the `header` and `payload` query parameters.
    private func connectURL(_ headers: [String: String]) -> String {
        let encoded = Data(authorization(headers).jsonText.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "=", with: "%3D")
        return endpoint.realtimeURL.absoluteString + "?header=\(encoded)&payload=e30%3D"
    }

    /// The protocol's state: which starts are still unanswered.
    private struct ProtocolState {
        let byID: [String: RealtimeSubscription]
        /// Each `start` message, ready to send, by id.
        let starts: [String: String]
        var unanswered: Set<String> = []
        var refused: [String: String] = [:]
        var acknowledged = false

        init(subscriptions: [RealtimeSubscription], starts: [String: String], refused: [String: String] = [:]) {
            byID = Dictionary(subscriptions.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            self.starts = starts
            self.refused = refused
        }

        /// Handles one message from the backend; returns the messages to send back.
        mutating func receive(
            _ message: JSONValue, messages: AsyncThrowingStream<RealtimeMessage, any Error>.Continuation,
            timeout: Locked<Duration>
        ) throws -> [String] {
            let id = message["id"].stringValue
            switch message["type"].stringValue {
            case "connection_ack":
                guard !acknowledged else { return [] }
                acknowledged = true
                let milliseconds = message["payload"]["connectionTimeoutMs"].intValue ?? 300_000
                timeout.withLock { $0 = .milliseconds(milliseconds) }
                unanswered = Set(byID.keys)
                if unanswered.isEmpty { messages.yield(.established(refused: refused)) }
                return byID.values.sorted { $0.id < $1.id }.compactMap { starts[$0.id] }
            case "connection_error":
                let error = message["payload"]["errors"][0]
                throw DataStoreError.rejected(
                    model: "realtime", errorType: error["errorType"].stringValue ?? "UnauthorizedException",
                    message: error["message"].stringValue ?? "the realtime connection was refused")
            case "start_ack":
                guard let id, unanswered.remove(id) != nil, unanswered.isEmpty else { return [] }
                messages.yield(.established(refused: refused))
                return []
            case "data":
                guard let id, let subscription = byID[Self.baseID(id)] else { return [] }
                messages.yield(.data(subscriptionID: subscription.id, item: message["payload"]["data"][subscription.field]))
                return []
            case "error":
                return try refuse(id: id, error: message["payload"]["errors"][0], messages: messages)
            default:
                // `ka`, `complete`.
                return []
            }
        }

        /// A `start` the backend refused. A filtered subscription is started again without its
        /// filter; an unauthorized or disabled one leaves its model without realtime. Any other
        /// refusal after the subscriptions were established ends the connection.
        private mutating func refuse(
            id: String?, error: JSONValue, messages: AsyncThrowingStream<RealtimeMessage, any Error>.Continuation
        ) throws -> [String] {
            let errorType = error["errorType"].stringValue ?? ""
            let reason = error["message"].stringValue ?? "refused"
            guard let id, unanswered.contains(id), let subscription = byID[Self.baseID(id)] else {
                throw Failure.lost("the backend ended a subscription: \(errorType) \(reason)")
            }
            unanswered.remove(id)
            if id == subscription.id, subscription.unfiltered != nil {
                let retry = id + Self.unfilteredSuffix
                unanswered.insert(retry)
                return starts[retry].map { [$0] } ?? []
            }
            refused[subscription.modelName] = "\(errorType.isEmpty ? "" : errorType + ": ")\(reason)"
            if unanswered.isEmpty { messages.yield(.established(refused: refused)) }
            return []
        }

        static let unfilteredSuffix = "-unfiltered"

        private static func baseID(_ id: String) -> String {
            id.hasSuffix(unfilteredSuffix) ? String(id.dropLast(unfilteredSuffix.count)) : id
        }

    }
}
