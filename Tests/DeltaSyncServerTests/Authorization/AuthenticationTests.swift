import AsyncHTTPClient
import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// What AppSync answers before any resolver runs: 401 `UnauthorizedException` with its exact
/// messages for missing, malformed, forged, expired and wrong-issuer credentials; expired API
/// keys; and several keys at once.
@Suite struct AuthenticationTests {
    static let schema = "type Note @model @auth(rules: [{ allow: owner }, { allow: public }]) { id: ID! text: String }"
    static let list = "{ listNotes { items { id } } }"

    static func withServer(
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in }, _ body: (DeltaSyncTestServer) async throws -> Void
    ) async throws {
        try await DeltaSyncTestServer.withServer(schema: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey])
            configure(&$0)
        }, body)
    }

    static func refusal(_ answer: JSONValue) -> String? {
        guard answer["errors"][0]["errorType"] == "UnauthorizedException", answer["data"].isNull else { return nil }
        return answer["errors"][0]["message"].stringValue
    }

    static func base64URL(_ text: String) -> String { Base64URL.encode(Data(text.utf8)) }

    @Test func tokensExpireByTheFixtureClock() async throws {
        try await Self.withServer { server in
            let token = try await server.token(username: "alice", lifetime: 3600)
            #expect(try await server.graphQL(Self.list, token: token)["errors"].isNull)
            // Verified tokens are cached until they expire: by the server's clock, too.
            server.fixture.clock.advance(by: .seconds(2 * 3600))
            #expect(Self.refusal(try await server.graphQL(Self.list, token: token)) == "Token has expired.")
            server.fixture.clock.useRealTime()
            #expect(try await server.graphQL(Self.list, token: token)["errors"].isNull)
        }
    }

    @Test func tokensThatDoNotCheckOutAreRefusedWithAppSyncsMessages() async throws {
        try await Self.withServer { server in
            let good = try await server.token(username: "alice")
            #expect(try await server.graphQL(Self.list, token: good)["errors"].isNull)
            #expect(try await server.graphQL(Self.list, token: "Bearer " + good)["errors"].isNull)

            let expired = try await server.token(username: "alice", lifetime: -3600)
            #expect(Self.refusal(try await server.graphQL(Self.list, token: expired)) == "Token has expired.")

            // Signed by another key with the same issuer and key id.
            let otherFolder = (NSTemporaryDirectory() as NSString).appendingPathComponent("deltasync-other-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(atPath: otherFolder) }
            let forged = try await DevelopmentIssuer.load(directory: otherFolder).token(username: "alice")
            #expect(Self.refusal(try await server.graphQL(Self.list, token: forged)) == "Valid authorization header not provided.")

            // `alg: none` and HS256 (signed with anything) are never tried.
            let payload = good.split(separator: ".")[1]
            let none = Self.base64URL(#"{"alg":"none","typ":"JWT"}"#) + "." + payload + "."
            #expect(Self.refusal(try await server.graphQL(Self.list, token: none)) == "Valid authorization header not provided.")
            let hmac = Self.base64URL(#"{"alg":"HS256","typ":"JWT","kid":"deltasync-dev"}"#) + "." + payload + ".c2lnbmF0dXJl"
            #expect(Self.refusal(try await server.graphQL(Self.list, token: hmac)) == "Valid authorization header not provided.")

            let otherIssuer = try await server.token(username: "alice", claims: ["iss": "https://example.com/issuer"])
            #expect(Self.refusal(try await server.graphQL(Self.list, token: otherIssuer)) == "Valid authorization header not provided.")

            #expect(Self.refusal(try await server.graphQL(Self.list, token: "not a jwt")) == "Unable to parse JWT token.")
            let none401 = try await DeltaSyncTestServer.graphQL(Self.list, url: server.graphQLURL, headers: [:])
            #expect(Self.refusal(none401) == "Valid authorization header not provided.")
        }
    }

    @Test func theClientIDMustMatchTheConfiguredPattern() async throws {
        try await Self.withServer(configure: { configuration in
            configuration.acceptsDevelopmentTokens = false
            var verification = TokenVerification(mode: .userPools, issuer: DevelopmentIssuer.issuer, clientIDPattern: "^app-1$")
            verification.leeway = 0
            configuration.tokenProviders = [TokenProvider(
                verification: verification,
                keys: .file((DeltaSyncTestServer.defaultDataDirectory as NSString).appendingPathComponent("jwks.json")))]
        }) { server in
            let issuer = try await DevelopmentIssuer.load(directory: server.dataDirectory)
            try issuer.jwks.jsonText.write(
                toFile: (server.dataDirectory as NSString).appendingPathComponent("jwks.json"), atomically: true, encoding: .utf8)
            let app1 = try await issuer.token(username: "alice", claims: ["aud": "app-1"])
            let app2 = try await issuer.token(username: "alice", claims: ["aud": "app-2"])
            #expect(try await server.graphQL(Self.list, token: app1)["errors"].isNull)
            #expect(Self.refusal(try await server.graphQL(Self.list, token: app2)) == "Valid authorization header not provided.")
        }
    }

    @Test func apiKeysExpireAndSeveralAreAccepted() async throws {
        let past = Date().addingTimeInterval(-60)
        try await Self.withServer(configure: {
            $0.apiKeys = [APIKey("da2-second"), APIKey("da2-expired", expires: past)]
        }) { server in
            let first = try await server.graphQL(Self.list)
            let second = try await server.graphQL(Self.list, apiKey: "da2-second")
            let expired = try await server.graphQL(Self.list, apiKey: "da2-expired")
            let unknown = try await server.graphQL(Self.list, apiKey: "da2-unknown")
            #expect(first["errors"].isNull)
            #expect(second["errors"].isNull)
            #expect(Self.refusal(expired) == "You are not authorized to make this call.")
            #expect(Self.refusal(unknown) == "You are not authorized to make this call.")
        }
    }

    @Test func aKeyArgumentTakesATimeOrADuration() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let plain = try APIKey(argument: "da2-a", now: now)
        let week = try APIKey(argument: "da2-a:7d", now: now)
        let dated = try APIKey(argument: "da2-a:2026-12-31T00:00:00Z", now: now)
        #expect(plain == APIKey("da2-a"))
        #expect(week.expires == now.addingTimeInterval(7 * 86400))
        #expect(dated.expires == ISO8601DateFormatter().date(from: "2026-12-31T00:00:00Z"))
        #expect(throws: APIKeyArgumentError.self) { _ = try APIKey(argument: "da2-a:soon", now: now) }
        #expect(throws: APIKeyArgumentError.self) { _ = try APIKey(argument: ":7d", now: now) }
    }

    /// POSTs the list query with these header fields, repeats kept; the status and JSON answer.
    static func post(_ server: DeltaSyncTestServer, headers: [(String, String)]) async throws -> (status: Int, json: JSONValue) {
        var request = HTTPClientRequest(url: server.graphQLURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.bytes(["query": .string(Self.list)])))
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return (Int(answer.status.code), try JSONValue(parsing: String(buffer: try await answer.body.collect(upTo: 1 << 20))))
    }

    @Test func aRepeatedCredentialHeaderIsRefusedWhateverItsValues() async throws {
        try await Self.withServer { server in
            let alice = try await server.token(username: "alice")
            let bob = try await server.token(username: "bob")
            #expect(try await Self.post(server, headers: [("x-api-key", server.apiKey)]).json["errors"].isNull)
            let repeats: [[(String, String)]] = [
                [("x-api-key", "da2-wrong"), ("x-api-key", server.apiKey)],
                [("x-api-key", server.apiKey), ("X-Api-Key", "da2-wrong")],
                [("x-api-key", server.apiKey), ("x-api-key", server.apiKey)],
                [("authorization", "not-a-token"), ("authorization", alice)],
                [("authorization", alice), ("Authorization", bob)],
            ]
            for headers in repeats {
                let answer = try await Self.post(server, headers: headers)
                #expect(answer.status == 401, "\(headers.map(\.0))")
                #expect(Self.refusal(answer.json) == "Valid authorization header not provided.", "\(headers.map(\.0))")
            }
        }
    }

    /// The realtime carriers are read like HTTP headers: a credential given twice (names that
    /// differ only by case in the `header` object or a start's authorization) is refused.
    @Test func aRepeatedCredentialIsRefusedOnTheSocketToo() async throws {
        try await Self.withServer { server in
            let header: JSONValue = ["host": "localhost", "x-api-key": "da2-wrong", "X-Api-Key": .string(server.apiKey)]
            let encoded = Base64URL.encode(Data(header.jsonText.utf8))
            let handshake = RealtimeTestClient(url: server.realtimeURL + "?header=\(encoded)&payload=e30=")
            handshake.send(["type": "connection_init", "payload": [:]])
            let refused = try await handshake.next("connection_error")
            #expect(refused["payload"]["errors"][0]["errorType"] == "UnauthorizedException")
            _ = await handshake.close()

            let client = server.realtimeClient()
            _ = try await client.initialize()
            client.start(
                id: "twice", query: "subscription { onCreateNote { id } }",
                authorization: ["host": "localhost", "X-API-KEY": .string(server.apiKey), "x-api-key": "da2-wrong"])
            let error = try await client.next("error")
            #expect(error["payload"]["errors"][0]["message"] == "Valid authorization header not provided.")
            client.start(id: "once", query: "subscription { onCreateNote { id } }", apiKey: server.apiKey)
            #expect(try await client.next("start_ack")["id"] == "once")
            _ = await client.close()
        }
    }

    /// Development tokens stand in for a user pool only where no real one is configured.
    static func withRealPool(
        developmentTokens: Bool?, clientIDPattern: String? = nil, _ body: (DeltaSyncTestServer, DevelopmentIssuer) async throws -> Void
    ) async throws {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("deltasync-pool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pool = try await DevelopmentIssuer.load(directory: folder)
        let jwks = (folder as NSString).appendingPathComponent("jwks.json")
        try pool.jwks.jsonText.write(toFile: jwks, atomically: true, encoding: .utf8)
        try await Self.withServer(configure: { configuration in
            configuration.tokenProviders = [TokenProvider(
                verification: TokenVerification(mode: .userPools, issuer: Self.realPool, clientIDPattern: clientIDPattern), keys: .file(jwks))]
            if let developmentTokens { configuration.developmentTokens = developmentTokens }
        }) { server in try await body(server, pool) }
    }

    static let realPool = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_RealPool"

    @Test func developmentTokensAreOffBesideARealProvider() async throws {
        try await Self.withRealPool(developmentTokens: nil) { server, pool in
            let real = try await pool.token(username: "alice", claims: ["iss": .string(Self.realPool)])
            #expect(try await server.graphQL(Self.list, token: real)["errors"].isNull)
            let development = try await server.token(username: "alice")
            #expect(Self.refusal(try await server.graphQL(Self.list, token: development)) == "Valid authorization header not provided.")
        }
        // Asked for, they are accepted, and must pass the pool's client-id pattern as its own tokens do.
        try await Self.withRealPool(developmentTokens: true, clientIDPattern: "^app-1$") { server, pool in
            let real = try await pool.token(username: "alice", claims: ["iss": .string(Self.realPool), "aud": "app-1"])
            #expect(try await server.graphQL(Self.list, token: real)["errors"].isNull)
            let otherClient = try await server.token(username: "alice")
            #expect(Self.refusal(try await server.graphQL(Self.list, token: otherClient)) == "Valid authorization header not provided.")
            let sameClient = try await server.token(username: "alice", claims: ["aud": "app-1"])
            #expect(try await server.graphQL(Self.list, token: sameClient)["errors"].isNull)
        }
    }

    @Test func aTokenIsRefusedBeforeItsNotBeforeTime() async throws {
        try await Self.withServer { server in
            let now = Int(Date().timeIntervalSince1970)
            let later = try await server.token(username: "alice", claims: ["nbf": .int(now + 3600)])
            #expect(Self.refusal(try await server.graphQL(Self.list, token: later)) == "Valid authorization header not provided.")
            let begun = try await server.token(username: "alice", claims: ["nbf": .int(now - 10)])
            #expect(try await server.graphQL(Self.list, token: begun)["errors"].isNull)
        }
    }

    /// A remembered verification ends with the token's own limits: an OIDC `iatTTL` before
    /// `exp`, and `nbf` if the clock goes back.
    @Test func aRememberedTokenEndsWithItsOwnLimits() async throws {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("deltasync-limits-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let issuer = try await DevelopmentIssuer.load(directory: folder)
        let start = Date(timeIntervalSince1970: 1_900_000_000)
        let clock = NIOLockedValueBox(start)
        var verification = TokenVerification(mode: .oidc, issuer: DevelopmentIssuer.issuer)
        verification.leeway = 0
        verification.issuedAtTTL = 600
        let authenticator = TokenAuthenticator(verification: verification, keys: issuer.keys, clock: { clock.withLockedValue { $0 } })
        let token = try await issuer.token(
            username: "alice", claims: ["nbf": .int(Int(start.timeIntervalSince1970) + 100)], lifetime: 3600, now: start)

        clock.withLockedValue { $0 = start.addingTimeInterval(200) }
        #expect(try await authenticator.authenticate(token: token).username == "alice")
        // Before nbf again (a clock moved back): the remembered answer does not apply.
        clock.withLockedValue { $0 = start.addingTimeInterval(50) }
        await #expect(throws: AuthenticationFailure.missingOrInvalid) { try await authenticator.authenticate(token: token) }
        clock.withLockedValue { $0 = start.addingTimeInterval(300) }
        #expect(try await authenticator.authenticate(token: token).username == "alice")
        // Past iat + iatTTL, long before exp: refused although it was verified before.
        clock.withLockedValue { $0 = start.addingTimeInterval(700) }
        await #expect(throws: AuthenticationFailure.expiredToken) { try await authenticator.authenticate(token: token) }
    }

    @Test func rotatedKeysAreFetchedAgainWhenATokenDoesNotVerify() async throws {
        let folder = (NSTemporaryDirectory() as NSString).appendingPathComponent("deltasync-rotation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let current = try await DevelopmentIssuer.load(directory: folder + "/current")
        let retired = try await DevelopmentIssuer.load(directory: folder + "/retired")
        let token = try await current.token(username: "alice")
        let loads = NIOLockedValueBox(0)
        let authenticator = TokenAuthenticator(
            verification: TokenVerification(mode: .userPools, issuer: DevelopmentIssuer.issuer),
            loadingKeys: {
                // The first load still holds the retired key; the provider has rotated since.
                loads.withLockedValue { $0 += 1; return $0 } == 1 ? retired.keys : current.keys
            })
        let identity = try await authenticator.authenticate(token: token)
        #expect(identity.username == "alice")
        #expect(loads.withLockedValue { $0 } == 2)
        // Within the minute, a token that does not verify does not fetch the keys again.
        let forged = try await retired.token(username: "mallory")
        await #expect(throws: AuthenticationFailure.missingOrInvalid) { try await authenticator.authenticate(token: forged) }
        #expect(loads.withLockedValue { $0 } == 2)
    }
}
