import DeltaSyncCore
import DeltaSyncServer
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// What a web page the developer visits can do to a local server: CORS answers only the pages
/// the server allows and never the fixture API, a loopback server answers only its own names
/// (DNS rebinding), `/metrics` and query plans are not for every caller.
@Suite struct BrowserAccessTests {
    static let adminKeyHeader = HTTPField.Name("x-deltasync-admin-key")!

    static func preflight(origin: String, headers requested: String = "content-type,x-api-key") -> HTTPFields {
        [.origin: origin, .accessControlRequestMethod: "POST", .accessControlRequestHeaders: requested]
    }

    // MARK: - CORS

    @Test func theFixtureAPIAnswersNoPageAndNoPreflight() async throws {
        try await TestServer().server.application().test(.router) { client in
            try await client.execute(
                uri: "/admin/reset", method: .options,
                headers: Self.preflight(origin: "http://localhost:3000", headers: "x-deltasync-admin-key")
            ) { response in
                #expect(response.status.code >= 400, "a preflight to /admin/ must not succeed")
                #expect(response.headers[.accessControlAllowOrigin] == nil)
                #expect(response.headers[.accessControlAllowHeaders] == nil)
            }
            // Even a request that carries the key gets no header that would let a page read it.
            try await client.execute(
                uri: "/admin/status", method: .get,
                headers: [.origin: "http://localhost:3000", Self.adminKeyHeader: TestServer.adminKey]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func aLocalPageMayCallGraphQLButNeverSendTheAdminKey() async throws {
        try await TestServer().server.application().test(.router) { client in
            for origin in ["http://localhost:5173", "http://127.0.0.1:3000", "http://localhost", "https://localhost:8443"] {
                try await client.execute(uri: "/graphql", method: .options, headers: Self.preflight(origin: origin)) { response in
                    #expect(response.status == .noContent, "\(origin)")
                    #expect(response.headers[.accessControlAllowOrigin] == origin)
                    let allowed = response.headers[.accessControlAllowHeaders]?.lowercased() ?? ""
                    #expect(allowed.contains("x-api-key") && allowed.contains("authorization"))
                    #expect(!allowed.contains("x-deltasync-admin-key"))
                    #expect(!allowed.contains("x-deltasync-explain"))
                }
            }
            // A refusal reaches the page as one: its status and error type are readable.
            try await client.execute(
                uri: "/graphql", method: .post, headers: [.origin: "http://localhost:5173", .contentType: "application/json"],
                body: ByteBuffer(string: #"{"query":"{ listPosts { items { id } } }"}"#)
            ) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.accessControlAllowOrigin] == "http://localhost:5173")
                #expect(response.headers[.accessControlExposeHeaders]?.lowercased() == "x-amzn-errortype")
            }
        }
    }

    @Test func anotherSitesPageIsRefusedItsPreflightAndGetsNoHeaders() async throws {
        try await TestServer().server.application().test(.router) { client in
            for origin in ["https://evil.example", "http://localhost.evil.example", "http://localhost:3000.evil.example", "null"] {
                try await client.execute(uri: "/graphql", method: .options, headers: Self.preflight(origin: origin)) { response in
                    #expect(response.status == .forbidden, "\(origin)")
                    #expect(response.headers[.accessControlAllowOrigin] == nil)
                    let body = try JSONValue(parsing: String(buffer: response.body))
                    #expect(body["errors"][0]["message"].stringValue?.contains("--cors-origin") == true)
                }
            }
            try await client.execute(
                uri: "/graphql", method: .post,
                headers: [.origin: "https://evil.example", .contentType: "application/json", HTTPField.Name("x-api-key")!: TestServer.apiKey],
                body: ByteBuffer(string: #"{"query":"{ listPosts { items { id } } }"}"#)
            ) { response in
                #expect(response.headers[.accessControlAllowOrigin] == nil)
            }
        }
    }

    @Test func configuredOriginsReplaceTheLocalDefaultsAndStarAllowsEveryPage() async throws {
        let configured = try await TestServer(configure: { $0.corsOrigins = ["https://app.example.com", "http://staging.example.com:*"] })
        try await configured.server.application().test(.router) { client in
            let cases = [
                ("https://app.example.com", true), ("http://staging.example.com:8080", true), ("https://app.example.com:444", false),
                ("http://localhost:3000", false),
            ]
            for (origin, allowed) in cases {
                try await client.execute(uri: "/graphql", method: .options, headers: Self.preflight(origin: origin)) { response in
                    #expect(response.status == (allowed ? .noContent : .forbidden), "\(origin)")
                    #expect((response.headers[.accessControlAllowOrigin] == origin) == allowed, "\(origin)")
                }
            }
        }
        try await TestServer(configure: { $0.corsOrigins = ["*"] }).server.application().test(.router) { client in
            try await client.execute(uri: "/graphql", method: .options, headers: Self.preflight(origin: "https://anything.example")) { response in
                #expect(response.status == .noContent)
                #expect(response.headers[.accessControlAllowOrigin] == "https://anything.example")
                #expect(response.headers[.accessControlAllowHeaders]?.contains("x-deltasync-admin-key") == false)
            }
        }
        #expect(ServerConfiguration.corsOriginProblem("app.example.com") != nil)
        #expect(ServerConfiguration.corsOriginProblem("https://*.example.com") != nil)
        #expect(ServerConfiguration.corsOriginProblem("http://localhost:*") == nil)
    }

    // MARK: - Host (DNS rebinding)

    /// One request with this `Host` to a server listening on `host`; the raw response.
    static func request(_ target: String, host: String, to running: RunningServer, extra: String = "") async throws -> String {
        let connection = try RawConnection(port: running.port)
        await connection.send("GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\(extra)Connection: close\r\n\r\n")
        return await connection.readResponse()
    }

    @Test func aLoopbackServerRefusesNamesThatAreNotItsOwn() async throws {
        let running = try await TestServer(configure: { $0.allowedHosts = ["dev.example.test", ".lan.example.test"] }).server.start()
        defer { Task { await running.stop() } }
        let key = "x-deltasync-admin-key: \(TestServer.adminKey)\r\n"
        for host in ["evil.example:\(running.port)", "evil.example", "localhost.evil.example:\(running.port)", "other.example.test"] {
            let response = try await Self.request("/admin/status", host: host, to: running, extra: key)
            #expect(response.hasPrefix("HTTP/1.1 403"), "\(host): \(response)")
            #expect(response.contains(#""errorType":"ForbiddenException""#), "\(host)")
            #expect(response.contains("--allowed-host"), "\(host)")
            #expect(!response.contains("\"models\""))
        }
        for host in [
            "localhost:\(running.port)", "LOCALHOST", "app.localhost:\(running.port)", "127.0.0.1:\(running.port)", "[::1]:\(running.port)",
            "10.0.2.2:\(running.port)", "dev.example.test:\(running.port)", "phone.lan.example.test",
        ] {
            let response = try await Self.request("/admin/status", host: host, to: running, extra: key)
            #expect(response.hasPrefix("HTTP/1.1 200"), "\(host): \(response)")
        }
    }

    @Test func aLoopbackServerRefusesARealtimeUpgradeForAnotherName() async throws {
        let running = try await TestServer().server.start()
        defer { Task { await running.stop() } }
        let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-ws\r\n"
        for (host, status) in [("evil.example:\(running.port)", "403"), ("localhost:\(running.port)", "101")] {
            let connection = try RawConnection(port: running.port)
            await connection.send("GET /graphql HTTP/1.1\r\nHost: \(host)\r\n\(upgrade)\r\n")
            let response = await connection.read(until: { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") })
            #expect(String(decoding: response, as: UTF8.self).hasPrefix("HTTP/1.1 \(status)"), "\(host)")
        }
    }

    @Test func aServerListeningOnEveryInterfaceAnswersAnyName() async throws {
        let running = try await TestServer(configure: { $0.host = "0.0.0.0" }).server.start()
        defer { Task { await running.stop() } }
        let response = try await Self.request("/health", host: "deltasync.internal:\(running.port)", to: running)
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
    }

    // MARK: - Metrics

    @Test func metricsNeedTheTokenWhenOneIsSet() async throws {
        let server = try await TestServer(configure: { $0.metricsToken = "metrics-token-0123456789" }).server
        try await server.application().test(.router) { client in
            for authorization in [nil, "Bearer wrong-token-0123456789", "metrics-token-0123456789", "Bearer metrics-token-012345678"] {
                var headers: HTTPFields = [:]
                headers[.authorization] = authorization
                try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized, "\(authorization ?? "none")")
                    #expect(!String(buffer: response.body).contains("deltasync_requests_total"))
                }
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer metrics-token-0123456789"]) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func metricsAnswerALoopbackCallerAndRefuseOthers() async throws {
        let running = try await TestServer(configure: { $0.host = "0.0.0.0" }).server.start()
        defer { Task { await running.stop() } }
        let local = try await Self.request("/metrics", host: "127.0.0.1:\(running.port)", to: running)
        #expect(local.hasPrefix("HTTP/1.1 200"), "\(local)")
        // Another machine's address: the first non-loopback IPv4 address of this one, if any.
        guard let address = Self.nonLoopbackAddress() else { return }
        let connection = try RawConnection(port: running.port, address: address)
        await connection.send("GET /metrics HTTP/1.1\r\nHost: \(address):\(running.port)\r\nConnection: close\r\n\r\n")
        let remote = await connection.readResponse()
        #expect(remote.hasPrefix("HTTP/1.1 403"), "\(remote)")
        #expect(remote.contains("--metrics-token"))
    }

    static func nonLoopbackAddress() -> String? {
        (try? System.enumerateDevices())?.lazy.compactMap { device -> String? in
            guard let address = device.address, case .v4 = address, let ip = address.ipAddress, !ip.hasPrefix("127.") else { return nil }
            return ip
        }.first
    }

    // MARK: - Query plans

    @Test func queryPlansNeedTheAdminKey() async throws {
        try await TestServer().withClient { client in
            let query = #"{"query":"{ syncPosts { items { id } } }"}"#
            let explain = HTTPField.Name("x-deltasync-explain")!
            let without = try await client.post(query, headers: [explain: "1"])
            #expect(without.status == .unauthorized)
            #expect(without.json["extensions"].isNull)
            #expect(without.firstError["message"].stringValue?.contains("x-deltasync-admin-key") == true)
            let wrong = try await client.post(query, headers: [explain: "1", Self.adminKeyHeader: "dsa-not-this-one"])
            #expect(wrong.status == .unauthorized)
            let with = try await client.post(query, headers: [explain: "1", Self.adminKeyHeader: TestServer.adminKey])
            #expect(with.status == .ok)
            #expect(with.json["extensions"]["deltasync"]["plans"].arrayValue?.isEmpty == false)
        }
        try await TestServer(configure: { $0.fixtureAPI = false }).withClient { client in
            let reply = try await client.post(#"{"query":"{ syncPosts { items { id } } }"}"#, headers: [HTTPField.Name("x-deltasync-explain")!: "1"])
            #expect(reply.status == .forbidden)
            #expect(reply.json["extensions"].isNull)
        }
    }
}
