import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The realtime WebSocket through `URLSessionWebSocketTask`: the system's networking, the
/// default on Apple platforms. (Linux's Foundation compiles it, but its libcurl has no
/// WebSocket: there the NIO transport runs.)
package struct URLSessionRealtimeTransport: RealtimeTransport {
    package let session: URLSession

    package init(session: URLSession) {
        self.session = session
    }

    package func run(
        _ url: URL, session body: @escaping @Sendable (AsyncThrowingStream<String, any Error>, @escaping RealtimeSend) async throws -> Void
    ) async throws {
        var request = URLRequest(url: url)
        request.setValue("graphql-ws", forHTTPHeaderField: "Sec-WebSocket-Protocol")
        let socket = Socket(task: session.webSocketTask(with: request))
        socket.task.maximumMessageSize = Self.maximumFrameBytes
        socket.task.resume()
        defer { socket.task.cancel(with: .normalClosure, reason: nil) }
        let incoming = AsyncThrowingStream<String, any Error> {
            do {
                switch try await socket.task.receive() {
                case .string(let text): return text
                case .data(let data): return String(decoding: data, as: UTF8.self)
                @unknown default: return ""
                }
            } catch {
                // A close the backend sent ends the frames; anything else is a lost connection.
                if socket.task.closeCode != .invalid { return nil }
                throw error
            }
        }
        try await body(incoming) { text in try await socket.task.send(.string(text)) }
    }

    /// The task, shared by the frames reader and the sender; `URLSessionWebSocketTask` is
    /// thread-safe.
    private final class Socket: @unchecked Sendable {
        let task: URLSessionWebSocketTask

        init(task: URLSessionWebSocketTask) {
            self.task = task
        }
    }
}
