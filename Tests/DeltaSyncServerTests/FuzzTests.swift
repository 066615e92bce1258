import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Random mutations of valid documents, request bodies, request heads and WebSocket frames,
/// from a fixed seed. Whatever arrives, the server answers without a 5xx, within seconds, its
/// memory comes back near where it started, and it still answers correctly afterwards.
/// Tagged `.timing`: each answer's time and the process's memory are measured, so the suite
/// runs apart from the parallel run (beside it, answers took 10 s and memory grew 400 MB).
@Suite(.serialized, .tags(.timing)) struct FuzzTests {
    static let documents = [
        "{ listPosts(limit: 5, filter: {and: [{rating: {ge: 1}}, {not: {title: {beginsWith: \"a\"}}}]}) { items { id title blog { id name } } nextToken } }",
        "query Sync($lastSync: AWSTimestamp) { syncPosts(limit: 100, lastSync: $lastSync) { items { id _version _deleted _lastChangedAt } startedAt nextToken } }",
        "mutation($i: CreatePostInput!) { createPost(input: $i) { id title _version __typename } }",
        "mutation { updatePost(input: {id: \"p1\", title: \"x\", _version: 1}, condition: {rating: {gt: 2}}) { id _version } }",
        "{ getBlog(id: \"b1\") { id posts(limit: 3) { items { id comments { items { id } } } } } }",
        "query Q { ...F } fragment F on Query { postsByBlog(blogID: \"b1\", sortDirection: DESC) { items { id publishedAt } } }",
        "{ __type(name: \"Post\") { fields { name type { name ofType { name } } } } }",
    ]

    static let punctuation = Array("{}[]()\"\\$@#:!.,=|&\n\t ".utf8) + [0, 0xC3, 0xFF, 0xE2, 0x80]

    /// `seed` mutated once or a few times: bytes dropped, repeated, replaced or inserted, or a
    /// slice repeated many times (deep nesting, long lists).
    static func mutate(_ seed: [UInt8], using random: inout SeededRandom) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { return bytes }
            let i = Int.random(in: 0..<bytes.count, using: &random)
            let j = min(bytes.count, i + Int.random(in: 1...16, using: &random))
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes.removeSubrange(i..<j)
            case 1: bytes.insert(punctuation.randomElement(using: &random)!, at: i)
            case 2: bytes[i] = punctuation.randomElement(using: &random)!
            case 3: bytes.insert(contentsOf: bytes[i..<j], at: i)
            case 4:
                let slice = Array(bytes[i..<j])
                let times = Int.random(in: 10...3_000, using: &random)
                bytes.insert(contentsOf: (0..<times).flatMap { _ in slice }, at: i)
            default: bytes = Array(bytes[..<i])
            }
        }
        return bytes
    }

    static func residentBytes() -> Int {
        #if canImport(Glibc)
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    @Test("2,000 mutated documents and 1,000 mutated bodies are each answered with 200 or 4xx")
    func documentsAndBodies() async throws {
        var random = SeededRandom(seed: 17)
        let bodies = (0..<3_000).map { n -> String in
            if n < 2_000 {
                let document = Self.documents[n % Self.documents.count]
                let query = String(decoding: Self.mutate(Array(document.utf8), using: &random), as: UTF8.self)
                let json: JSONValue = ["query": .string(query), "variables": ["i": ["blogID": "b1", "title": "t"], "lastSync": 0]]
                return json.jsonText
            }
            let json: JSONValue = ["query": .string(Self.documents[n % Self.documents.count]), "variables": ["i": ["blogID": "b1", "title": "t"]]]
            return String(decoding: Self.mutate(Array(json.jsonText.utf8), using: &random), as: UTF8.self)
        }
        try await TestServer().withClient { client in
            _ = try await client.expectData("createBlog", #"mutation { createBlog(input: {id: "b1", name: "B"}) { id } }"#)
            let memoryBefore = Self.residentBytes()
            for (n, body) in bodies.enumerated() {
                let started = ContinuousClock.now
                let reply = try await client.post(body)
                #expect(reply.status.code < 500, "case \(n): \(body.prefix(200))")
                #expect(ContinuousClock.now - started < .seconds(5), "case \(n) took too long: \(body.prefix(200))")
                if reply.status == .ok {
                    #expect(reply.json["data"] != .null || !reply.errors.isEmpty, "case \(n): an answer has data or errors")
                }
            }
            let memoryAfter = Self.residentBytes()
            #expect(memoryAfter - memoryBefore < 300 * 1024 * 1024, "memory grew from \(memoryBefore) to \(memoryAfter)")
            let blog = try await client.expectData("getBlog", #"{ getBlog(id: "b1") { id name } }"#)
            #expect(blog == ["id": "b1", "name": "B"], "the server still answers correctly")
        }
    }

    @Test("150 mutated request heads and 50 mutated WebSocket messages never get a 5xx or a hang")
    func headsAndFrames() async throws {
        var random = SeededRandom(seed: 23)
        // Short timers: a mutated head that never ends is closed by the head timeout.
        try await RealtimeTests.withServer(configure: {
            $0.connections.requestHeadTimeout = .milliseconds(300)
            $0.connections.requestBodyTimeout = .milliseconds(300)
            $0.connections.idleTimeout = .milliseconds(300)
            $0.realtime.connectionInitTimeout = .milliseconds(300)
        }) { live in
            let port = live.running.port
            let head = Array("POST /graphql HTTP/1.1\r\nHost: localhost\r\nx-api-key: \(TestServer.apiKey)\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n{\"query\":\"{ __typename }\"}".utf8)
            for n in 0..<150 {
                let connection = try RawConnection(port: port)
                await connection.send(Self.mutate(head, using: &random))
                let answer = await connection.readUntilClosed(timeout: .seconds(3))
                let statusLine = String(decoding: answer.prefix(12), as: UTF8.self)
                #expect(!statusLine.hasPrefix("HTTP/1.1 5") || statusLine.hasPrefix("HTTP/1.1 501") || statusLine.hasPrefix("HTTP/1.1 505"),
                        "case \(n): \(statusLine)")
            }
            let message = Array(#"{"id":"s1","type":"start","payload":{"data":"{\"query\":\"subscription { onCreatePost { id } }\"}","extensions":{"authorization":{"x-api-key":"da2-testkey"}}}}"#.utf8)
            for _ in 0..<50 {
                let (socket, _) = try await RawWebSocket.open(port: port)
                await socket.send(opcode: 0x1, Array(#"{"type":"connection_init"}"#.utf8))
                await socket.send(opcode: [0x1, 0x2, 0x9, 0x0].randomElement(using: &random)!, Self.mutate(message, using: &random))
                await socket.send(opcode: 0x8, [0x03, 0xE8])
                _ = await socket.closeCode(timeout: .seconds(3))
            }
            let health = try RawConnection(port: port)
            await health.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(await health.readResponse().hasPrefix("HTTP/1.1 200"))
        }
    }
}
