import Foundation

/// One HTTP POST and its answer: what ``GraphQLClient`` needs of an HTTP stack. Two stacks
/// implement it: the system's (``URLSessionHTTPExchange``, the default on Apple platforms:
/// system proxies, VPN on demand, App Transport Security, cellular settings) and
/// AsyncHTTPClient's (``NIOHTTPExchange``, the default on Linux).
package protocol HTTPExchange: Sendable {
    /// Posts `body` to `url` with `headers`, and returns the status and body.
    ///
    /// - Throws: ``HTTPExchangeFailure`` when no answer came: the host cannot be reached, the
    ///   connection failed or `timeout` passed.
    func post(_ url: URL, headers: [String: String], body: [UInt8], timeout: Duration) async throws(HTTPExchangeFailure) -> HTTPAnswer
}

/// A status and a body, as text.
package struct HTTPAnswer: Sendable, Equatable {
    package var status: Int
    package var body: String

    package init(status: Int, body: String) {
        self.status = status
        self.body = body
    }
}

/// Why no answer came.
package struct HTTPExchangeFailure: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

extension HTTPExchange {
    /// The largest answer a sync client reads (a page of 1,000 items stays far below it).
    static var maximumAnswerBytes: Int { 64 << 20 }
}
