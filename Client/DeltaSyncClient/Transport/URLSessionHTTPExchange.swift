import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP through `URLSession`: the system's networking on Apple platforms, with its proxy,
/// VPN, App Transport Security and cellular rules. It also runs on Linux (over libcurl), where
/// the protocol tests exercise it beside ``NIOHTTPExchange``.
package struct URLSessionHTTPExchange: HTTPExchange {
    package let session: URLSession

    package init(session: URLSession) {
        self.session = session
    }

    package func post(_ url: URL, headers: [String: String], body: [UInt8], timeout: Duration) async throws(HTTPExchangeFailure) -> HTTPAnswer {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = timeout / .seconds(1)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body)
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw HTTPExchangeFailure("\(url) did not answer over HTTP") }
            guard data.count <= Self.maximumAnswerBytes else { throw HTTPExchangeFailure("\(url) answered more than \(Self.maximumAnswerBytes) bytes") }
            return HTTPAnswer(status: http.statusCode, body: String(decoding: data, as: UTF8.self))
        } catch let failure as HTTPExchangeFailure {
            throw failure
        } catch {
            throw HTTPExchangeFailure("\(error.localizedDescription) (\(error))")
        }
    }
}
