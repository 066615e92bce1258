#if NIOTransport
import AsyncHTTPClient
import Foundation
import NIOCore

/// HTTP through AsyncHTTPClient on SwiftNIO: the default on Linux, where it is the better
/// stack. One shared client for every store.
package struct NIOHTTPExchange: HTTPExchange {
    package init() {}

    /// Fails at once when the backend refuses the connection: the sync engine decides when to
    /// try again, and a device that is offline should learn it now, not after the request
    /// timeout (the shared client retries connecting until then).
    private static let http: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    package func post(_ url: URL, headers: [String: String], body: [UInt8], timeout: Duration) async throws(HTTPExchangeFailure) -> HTTPAnswer {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await Self.http.execute(request, timeout: TimeAmount(timeout))
            let text = String(buffer: try await response.body.collect(upTo: Self.maximumAnswerBytes))
            return HTTPAnswer(status: Int(response.status.code), body: text)
        } catch {
            throw HTTPExchangeFailure("\(error)")
        }
    }
}
#endif
