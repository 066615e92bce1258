import DeltaSyncCore
import DeltaSyncServer
import Foundation
import Testing

/// Requests the HTTP parser or HTTP/1.1 refuses each get a status, an AppSync-shaped error and
/// the end of the connection, never silence on an open socket.
@Suite struct MalformedRequestTests {
    struct BadRequest: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let bytes: [UInt8]
        let status: String

        init(_ name: String, _ bytes: [UInt8], _ status: String) {
            testDescription = name
            self.bytes = bytes
            self.status = status
        }

        init(_ name: String, _ text: String, _ status: String) {
            self.init(name, Array(text.utf8), status)
        }
    }

    static let get = "GET /graphql?query=%7B__typename%7D HTTP/1.1\r\nHost: localhost\r\nx-api-key: \(TestServer.apiKey)\r\n"

    static let requests: [BadRequest] = [
        BadRequest(
            "raw non-UTF-8 byte in the target",
            Array("GET /graphql?query=%7B".utf8) + [0xFF] + Array("%7D HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8), "400"),
        BadRequest("control bytes in Content-Type", Array("\(get)Content-Type: ".utf8) + [0x7F, 0x01] + [13, 10, 13, 10], "400"),
        BadRequest("NUL in x-api-key", Array("GET /graphql HTTP/1.1\r\nHost: localhost\r\nx-api-key: da2".utf8) + [0] + [13, 10, 13, 10], "400"),
        BadRequest("control byte in a header name", Array("\(get)X-".utf8) + [0x01] + Array("y: 1\r\n\r\n".utf8), "400"),
        BadRequest("100 KB of headers", get + (0..<50).map { "X-Pad-\($0): \(String(repeating: "a", count: 2000))\r\n" }.joined() + "\r\n", "431"),
        BadRequest("100 KB URL", "GET /graphql?q=\(String(repeating: "a", count: 100_000)) HTTP/1.1\r\nHost: localhost\r\n\r\n", "431"),
        BadRequest("method FOO", "FOO /graphql HTTP/1.1\r\nHost: localhost\r\n\r\n", "501"),
        BadRequest("method get", "get /health HTTP/1.1\r\nHost: localhost\r\n\r\n", "501"),
        BadRequest("Content-Length -1", "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n", "400"),
        BadRequest("Content-Length abc", "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n", "400"),
        BadRequest(
            "Content-Length of 23 digits",
            "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: 12345678901234567890123\r\n\r\n", "400"),
        BadRequest(
            "two different Content-Lengths",
            "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "400"),
        BadRequest(
            "Content-Length with Transfer-Encoding",
            "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400"),
        BadRequest("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "505"),
        BadRequest("HTTP/0.9 request", "GET /health\r\n\r\n", "505"),
        BadRequest("TLS ClientHello", [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00, 0x00, 0xA1, 0x03, 0x03] + Array(repeating: 0x2A, count: 32), "501"),
        BadRequest("HTTP/1.1 without Host", "GET /health HTTP/1.1\r\n\r\n", "400"),
        BadRequest(
            "Transfer-Encoding gzip, chunked",
            "POST /graphql HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", "501"),
        BadRequest("unknown expectation", "POST /graphql HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\nContent-Length: 2\r\n\r\n", "417"),
        BadRequest("declared body over the limit", "POST /graphql HTTP/1.1\r\nHost: localhost\r\nContent-Length: 6000000\r\n\r\n", "413"),
    ]

    @Test func eachBadRequestIsAnsweredAndClosedAndTheServerStillServes() async throws {
        let running = try await TestServer().server.start()
        defer { Task { await running.stop() } }
        for request in Self.requests {
            let connection = try RawConnection(port: running.port)
            await connection.send(request.bytes)
            await connection.readUntilClosed()
            #expect(connection.statusLine.hasPrefix("HTTP/1.1 \(request.status) "), "\(request.testDescription): \(connection.statusLine)")
            #expect(connection.closed, "\(request.testDescription): the connection is still open")
            #expect(connection.text.contains(#""errorType":"MalformedHttpRequestException""#), "\(request.testDescription)")
            #expect(connection.text.lowercased().contains("connection: close"), "\(request.testDescription)")
        }
        let health = try RawConnection(port: running.port)
        await health.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(await health.readResponse().hasPrefix("HTTP/1.1 200 OK"))
        let reply = try await LiveHTTP.graphQL(running.graphQLURL, "mutation { createBlog(input: {name: \"After\"}) { name } }")
        #expect(reply["data"]["createBlog"]["name"] == "After")
    }

    @Test func aParserErrorAfterARequestWaitsForItsResponse() async throws {
        let running = try await TestServer().server.start()
        defer { Task { await running.stop() } }
        let connection = try RawConnection(port: running.port)
        await connection.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\nFOO / HTTP/1.1\r\n\r\n")
        // Generous: the whole suite runs beside it on two cores.
        await connection.readUntilClosed(timeout: .seconds(20))
        #expect(connection.closed)
        let responses = connection.text.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
        #expect(responses == ["200", "501"])
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        let running = try await TestServer().server.start()
        defer { Task { await running.stop() } }
        let body = #"{"query":"{ listPosts { items { id } } }"}"#
        let connection = try RawConnection(port: running.port)
        await connection.send(
            "POST /graphql HTTP/1.1\r\nHost: localhost\r\nx-api-key: \(TestServer.apiKey)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        await connection.read(until: { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") })
        #expect(connection.statusLine == "HTTP/1.1 100 Continue")
        await connection.send(body)
        let text = String(decoding: await connection.read(until: { String(decoding: $0, as: UTF8.self).contains("]}}}") }), as: UTF8.self)
        #expect(text.contains("HTTP/1.1 200 OK"))
        #expect(text.contains(#"{"data":{"listPosts":{"items":[]}}}"#))
    }
}
