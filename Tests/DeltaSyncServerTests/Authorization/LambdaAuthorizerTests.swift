import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import NIOConcurrencyHelpers
import Testing

/// `AWS_LAMBDA`: the authorizer sees AppSync's payload; `isAuthorized: false` is a 401;
/// `deniedFields` hides fields on every path; answers are reused for `ttlOverride` seconds;
/// `identityValidationExpression` refuses without a call; `custom` rules grant Lambda callers.
@Suite struct LambdaAuthorizerTests {
    static let schema = """
        type Order @model @auth(rules: [{ allow: custom }, { allow: public }]) {
          id: ID!
          item: String
          price: Int
        }
        """

    final class Calls: Sendable {
        let requests = NIOLockedValueBox<[LambdaAuthorizerRequest]>([])
        var count: Int { requests.withLockedValue { $0.count } }
    }

    static func withServer(_ calls: Calls, _ body: (DeltaSyncTestServer) async throws -> Void) async throws {
        let authorizer = LambdaAuthorizer(identityValidationExpression: "tok-.+") { request in
            calls.requests.withLockedValue { $0.append(request) }
            switch request.authorizationToken {
            case "tok-full": return LambdaAuthorizerResponse(isAuthorized: true, ttlOverride: 600)
            case "tok-no-price":
                return LambdaAuthorizerResponse(
                    isAuthorized: true, deniedFields: ["arn:aws:appsync:us-east-1:1:apis/x/types/Order/fields/price"], ttlOverride: 0)
            case "tok-no-create": return LambdaAuthorizerResponse(isAuthorized: true, deniedFields: ["Mutation.createOrder"])
            default: return LambdaAuthorizerResponse(isAuthorized: false)
            }
        }
        try await DeltaSyncTestServer.withServer(schema: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .lambda, additionalModes: [.apiKey])
            $0.authenticators = [authorizer]
            $0.conflictHandler = .optimisticConcurrency
        }, body)
    }

    static let create = "mutation { createOrder(input: {id: \"o1\", item: \"tea\", price: 3}) { id item price } }"
    static let get = "{ getOrder(id: \"o1\") { id item price } }"

    @Test func theAuthorizersAnswerDecides() async throws {
        let calls = Calls()
        try await Self.withServer(calls) { server in
            let created = try await server.graphQL(Self.create, token: "tok-full")
            #expect(created["data"]["createOrder"]["price"] == 3)
            #expect(calls.requests.withLockedValue { $0.first?.queryString } == Self.create)
            // Reused for ttlOverride: a second request does not call the authorizer again.
            _ = try await server.graphQL(Self.get, token: "tok-full")
            #expect(calls.count == 1)

            let hidden = try await server.graphQL(Self.get, token: "tok-no-price")
            #expect(hidden["data"]["getOrder"]["item"] == "tea")
            #expect(hidden["data"]["getOrder"]["price"].isNull)
            #expect(hidden["errors"][0]["message"] == "Not Authorized to access price on type Order")
            // ttlOverride 0: asked every time.
            _ = try await server.graphQL(Self.get, token: "tok-no-price")
            #expect(calls.count == 3)

            let noCreate = try await server.graphQL(
                "mutation { createOrder(input: {id: \"o2\"}) { id } }", token: "tok-no-create")
            #expect(noCreate["errors"][0]["message"] == "Not Authorized to access createOrder on type Mutation")

            let refused = try await server.graphQL(Self.get, token: "tok-nobody")
            #expect(refused["errors"][0] == ["errorType": "UnauthorizedException", "message": "You are not authorized to make this call."])
            let before = calls.count
            let malformed = try await server.graphQL(Self.get, token: "nope")
            #expect(malformed["errors"][0]["errorType"] == "UnauthorizedException")
            #expect(calls.count == before, "a token failing identityValidationExpression never reaches the authorizer")

            // The API key is a `public` caller here.
            #expect(try await server.graphQL(Self.get)["data"]["getOrder"]["id"] == "o1")
        }
    }

    @Test func aConflictShowsOnlyWhatTheCallerMayRead() async throws {
        let calls = Calls()
        try await Self.withServer(calls) { server in
            _ = try await server.graphQL(Self.create, token: "tok-full")
            _ = try await server.graphQL("mutation { updateOrder(input: {id: \"o1\", price: 4, _version: 1}) { id } }", token: "tok-full")
            let stale = try await server.graphQL(
                "mutation { updateOrder(input: {id: \"o1\", item: \"coffee\", _version: 1}) { id item price _version } }",
                token: "tok-no-price")
            #expect(stale["errors"][0]["errorType"] == "ConflictUnhandled")
            #expect(stale["errors"][0]["data"]["item"] == "tea")
            #expect(stale["errors"][0]["data"]["_version"] == 2)
            #expect(stale["errors"][0]["data"]["price"].isNull, "the server's price is not shown to a caller denied it")
        }
    }

    /// A closure authorizer granting `good` tokens, counting the calls per token.
    static func counting(
        _ calls: Calls, expression: String? = nil, cacheLimit: Int = LambdaAuthorizer.cacheLimit,
        grants: @escaping @Sendable (String, Int) -> Bool
    ) -> LambdaAuthorizer {
        LambdaAuthorizer(identityValidationExpression: expression, defaultTTL: 600, cacheLimit: cacheLimit) { request in
            let token = request.authorizationToken
            let asked = calls.requests.withLockedValue { requests in
                requests.append(request)
                return requests.filter { $0.authorizationToken == token }.count
            }
            return LambdaAuthorizerResponse(isAuthorized: grants(token, asked))
        }
    }

    static func ask(_ authorizer: LambdaAuthorizer, _ token: String) async -> Bool {
        (try? await authorizer.authenticate(Credentials(headers: ["authorization": token]))) != nil
    }

    @Test func aFloodOfRefusedTokensKeepsTheGrantedAnswers() async throws {
        let calls = Calls()
        // A small cache, so the flood is short: more refused tokens than it holds.
        let limit = 50
        let authorizer = Self.counting(calls, cacheLimit: limit) { token, _ in token == "good" }
        #expect(await Self.ask(authorizer, "good"))
        for attempt in 0...limit {
            #expect(await Self.ask(authorizer, "made-up-\(attempt)") == false)
        }
        #expect(await Self.ask(authorizer, "good"))
        #expect(calls.requests.withLockedValue { $0.filter { $0.authorizationToken == "good" }.count } == 1,
            "the granted answer is still reused after \(limit + 1) refused tokens")
    }

    @Test func aRefusalIsNotRemembered() async throws {
        let calls = Calls()
        // Refuses a token the first time it is asked, grants it afterwards (a user who just signed in).
        let authorizer = Self.counting(calls) { _, asked in asked > 1 }
        #expect(await Self.ask(authorizer, "late") == false)
        #expect(await Self.ask(authorizer, "late"))
        #expect(calls.count == 2)
    }

    @Test func theIdentityExpressionMustMatchTheWholeToken() async throws {
        let calls = Calls()
        let authorizer = Self.counting(calls, expression: "tok-[a-z]+") { _, _ in true }
        #expect(await Self.ask(authorizer, "tok-abc"))
        for token in ["xtok-abc", "tok-abc!", "tok-abc\nsecond line", "Bearer tok-abc"] {
            #expect(await Self.ask(authorizer, token) == false, "\(token)")
        }
        #expect(calls.count == 1, "only the token matching as a whole reached the authorizer")
    }

    @Test func deniedFieldsHideFieldsInRealtimeEvents() async throws {
        let calls = Calls()
        try await Self.withServer(calls) { server in
            let client = RealtimeTestClient(url: server.realtimeURL, headers: [.authorization: "tok-no-price"])
            _ = try await client.initialize()
            client.start(id: "1", query: "subscription { onCreateOrder { id item price } }", token: "tok-no-price")
            _ = try await client.next("start_ack")
            _ = try await server.graphQL(Self.create, token: "tok-full")
            let event = try await client.next("data")
            #expect(event["payload"]["data"]["onCreateOrder"]["item"] == "tea")
            #expect(event["payload"]["data"]["onCreateOrder"]["price"].isNull)
            _ = await client.close()
        }
    }
}
