import DeltaSyncCore
import DeltaSyncGraphQL
import Foundation
import NIOCore
import NIOHTTP1

/// Why a request is refused before it reaches a route, and what the client is told: a status
/// from RFC 9110/9112 and an AppSync-shaped body. Every rejection closes the connection, since
/// after a framing error the server cannot tell where the next request would start.
struct RequestRejection: Error, Equatable {
    let status: HTTPResponseStatus
    let error: AppSyncError

    init(_ status: HTTPResponseStatus, _ message: String, errorType: AppSyncErrorType = .malformedHttpRequest) {
        self.status = status
        self.error = AppSyncError(errorType, message)
    }

    // MARK: - Parser errors

    /// The answer to a request NIO's HTTP/1 parser gave up on.
    init(parserError: HTTPParserError) {
        switch parserError {
        case .headerOverflow:
            // The parser counts the request target with the headers, so a huge URL lands here too.
            self.init(.requestHeaderFieldsTooLarge, "The request line and headers are too large.")
        case .invalidMethod:
            // RFC 9110 9.1: an unrecognised method gets 501. Methods are case-sensitive, so `get`
            // is one of them; so is the first byte of a TLS handshake sent to a plain-text port.
            self.init(.notImplemented, "The request method is not supported; use GET, POST or OPTIONS.")
        case .invalidVersion, .paused:
            // The parser pauses on `PRI * HTTP/2.0`, the HTTP/2 connection preface.
            self.init(.httpVersionNotSupported, "Only HTTP/1.0 and HTTP/1.1 are served on this port.")
        case .invalidContentLength, .unexpectedContentLength:
            self.init(.badRequest, "The Content-Length header is invalid, repeated with another value, or sent with Transfer-Encoding.")
        case .invalidChunkSize:
            self.init(.badRequest, "The chunked request body is malformed.")
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            self.init(.badRequest, "The request target is not a valid URL.")
        case .invalidHeaderToken, .invalidCharactersUsed:
            self.init(.badRequest, "A header name or value contains a character HTTP does not allow.")
        default:
            self.init(.badRequest, "The request is not valid HTTP/1.1.")
        }
    }

    // MARK: - Heads the parser accepts but HTTP/1.1 does not

    /// The rejection of a parsed request head, or `nil` when it may go on to the routes.
    ///
    /// - Parameter maxBodyBytes: a declared body larger than this gets 413 before it is read.
    static func check(_ head: HTTPRequestHead, maxBodyBytes: Int) -> RequestRejection? {
        // The parser reads an HTTP/0.9 request line as a request without headers; nothing
        // after it could be answered in 0.9's format.
        guard head.version.major == 1 else {
            return RequestRejection(.httpVersionNotSupported, "Only HTTP/1.0 and HTTP/1.1 are served on this port.")
        }
        // RFC 9112 3.2: the request target is ASCII without controls or spaces. Raw bytes above
        // 0x7F reach the head decoded as UTF-8 (or U+FFFD), so any non-ASCII scalar means them.
        if head.uri.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            return RequestRejection(.badRequest, "The request target must be ASCII; percent-encode other bytes.")
        }
        for (name, value) in head.headers {
            if value.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F }) {
                return RequestRejection(.badRequest, "The value of header '\(name)' contains a control character.")
            }
        }
        // RFC 9112 3.2: a server MUST answer 400 to an HTTP/1.1 request without exactly one Host.
        if head.version == .http1_1 && head.headers["host"].count != 1 {
            return RequestRejection(.badRequest, "An HTTP/1.1 request needs exactly one Host header.")
        }
        let codings = head.headers["transfer-encoding"]
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty {
            // RFC 9112 6.1: only chunked is decoded here; a server MUST answer 501 to a coding
            // it does not understand, rather than hand the route compressed bytes as the body.
            guard codings == ["chunked"] else {
                return RequestRejection(.notImplemented, "Transfer-Encoding '\(codings.joined(separator: ", "))' is not supported; send the body with Content-Length or chunked alone.")
            }
            // RFC 9112 6.3: both headers is a smuggling pattern; refuse rather than pick one.
            guard head.headers["content-length"].isEmpty else {
                return RequestRejection(.badRequest, "A request cannot carry both Content-Length and Transfer-Encoding.")
            }
        }
        if let length = head.headers["content-length"].first.flatMap({ Int($0) }), length > maxBodyBytes {
            return RequestRejection(.payloadTooLarge, "The request body is larger than \(maxBodyBytes) bytes.")
        }
        if let expectation = head.headers["expect"].first, expectation.lowercased() != "100-continue" {
            // RFC 9110 10.1.1: an expectation the server cannot meet gets 417.
            return RequestRejection(.expectationFailed, "Only 'Expect: 100-continue' is supported.")
        }
        return nil
    }

    /// `Expect: 100-continue`: the client waits for `100 Continue` before sending its body.
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        head.headers["expect"].first?.lowercased() == "100-continue"
    }

    // MARK: - Timeouts and limits

    static let headTimedOut = RequestRejection(.requestTimeout, "The request headers did not arrive in time.")
    static let bodyTimedOut = RequestRejection(.requestTimeout, "The request body did not arrive in time.")
    static let tooManyWebSockets = RequestRejection(
        .serviceUnavailable, "Too many realtime connections are open; retry later.", errorType: .limitExceeded)

    // MARK: - The response

    /// The response parts: the AppSync error body, `x-amzn-ErrorType`, and `Connection: close`.
    var responseParts: (HTTPResponseHead, ByteBuffer) {
        let bytes = ByteBuffer(string: HTTPErrorResponse.body(error))
        let headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=UTF-8"),
            ("Content-Length", String(bytes.readableBytes)),
            (HTTPErrorResponse.errorTypeHeader.rawName, error.errorType.rawValue),
            ("Connection", "close"),
        ])
        return (HTTPResponseHead(version: .http1_1, status: status, headers: headers), bytes)
    }
}
