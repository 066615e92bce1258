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
    package let http: any HTTPExchange
    let realtime: @Sendable (Logger) -> any RealtimeTransport

    /// The system's networking through `session`: the default on Apple platforms.
    public static func urlSession(_ session: URLSession = .shared) -> NetworkStack {
        NetworkStack(http: URLSessionHTTPExchange(session: session), realtime: { _ in URLSessionRealtimeTransport(session: session) })
    }

    #if NIOTransport
    /// SwiftNIO: AsyncHTTPClient and a NIO WebSocket. The default on Linux. Built with the
    /// package's `NIOTransport` trait (part of the default `Server` trait).
    public static var nio: NetworkStack {
        NetworkStack(http: NIOHTTPExchange(), realtime: { logger in NIORealtimeTransport(logger: logger) })
    }
    #endif

    /// The platform's default: ``urlSession(_:)`` on Apple platforms, the NIO stack elsewhere
    /// when the package is built with its `NIOTransport` trait (URLSession without it: HTTP
    /// works, the realtime connection does not on Linux).
    public static var platformDefault: NetworkStack {
        #if canImport(Darwin) || !NIOTransport
        return .urlSession()
        #else
        return .nio
        #endif
    }
}
