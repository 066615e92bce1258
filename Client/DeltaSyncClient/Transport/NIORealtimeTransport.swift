#if NIOTransport
import Foundation
import HummingbirdWSClient
import Logging

/// The realtime WebSocket on SwiftNIO (HummingbirdWSClient): the default on Linux.
package struct NIORealtimeTransport: RealtimeTransport {
    let logger: Logger

    package init(logger: Logger) {
        self.logger = logger
    }

    package func run(
        _ url: URL, session: @escaping @Sendable (AsyncThrowingStream<String, any Error>, @escaping RealtimeSend) async throws -> Void
    ) async throws {
        var configuration = WebSocketClientConfiguration(maxFrameSize: Self.maximumFrameBytes)
        configuration.additionalHeaders[.secWebSocketProtocol] = "graphql-ws"
        let maximum = Self.maximumFrameBytes
        try await WebSocketClient.connect(url: url.absoluteString, configuration: configuration, logger: logger) { inbound, outbound, _ in
            let (incoming, frames) = AsyncThrowingStream.makeStream(of: String.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        for try await message in inbound.messages(maxSize: maximum) {
                            if case .text(let text) = message { frames.yield(text) }
                        }
                        frames.finish()
                    } catch {
                        frames.finish(throwing: error)
                    }
                }
                group.addTask {
                    try await session(incoming) { text in try await outbound.write(.text(text)) }
                }
                // The session ends the connection; the reader ends when the socket does.
                try await group.next()
                group.cancelAll()
            }
        }
    }
}
#endif
