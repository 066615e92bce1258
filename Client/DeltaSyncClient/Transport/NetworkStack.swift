import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The networking sync sends its queries and mutations and holds its realtime connection
/// with. On Apple platforms the default is the system's (`URLSession` and its WebSocket task:
/// system proxies, VPN on demand, App Transport Security, cellular settings); on Linux it is
/// SwiftNIO's (AsyncHTTPClient and a NIO WebSocket), as Linux's Foundation has no WebSocket.
///
/// ```swift
/// var configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:20002/graphql")!, apiKey: "da2-fakeApiId123456"))
/// configuration.network = .urlSession(.shared)   // or a session of the app's own configuration
/// ```
public struct NetworkStack: Sendable {
    /// What the stack is, for logs and test names.
    public let name: String
    let http: any HTTPExchange
    let realtime: @Sendable (Logger) -> any RealtimeTransport

    /// The system's networking through `session`: the default on Apple platforms.
    public static func urlSession(_ session: URLSession = .shared) -> NetworkStack {
        NetworkStack(
            name: "URLSession", http: URLSessionHTTPExchange(session: session),
            realtime: { _ in URLSessionRealtimeTransport(session: session) })
    }

    /// SwiftNIO: AsyncHTTPClient and a NIO WebSocket. The default on Linux.
    public static var nio: NetworkStack {
        NetworkStack(name: "NIO", http: NIOHTTPExchange(), realtime: { logger in NIORealtimeTransport(logger: logger) })
    }

    /// The platform's default: ``urlSession(_:)`` on Apple platforms, ``nio`` elsewhere.
    public static var platformDefault: NetworkStack {
        #if canImport(Darwin)
        return .urlSession()
        #else
        return .nio
        #endif
    }
}
