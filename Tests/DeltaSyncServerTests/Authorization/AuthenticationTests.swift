import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import NIOConcurrencyHelpers
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
