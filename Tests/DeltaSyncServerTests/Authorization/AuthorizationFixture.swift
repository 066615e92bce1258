import AsyncHTTPClient
import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncSigV4
import DeltaSyncTesting
import Foundation
import HTTPTypes
import NIOCore

/// Who asks, in the authorization tests: two signed-in users, a member of the `Admin` and
/// `Support` groups, an API key, an identity pool's authenticated role (SigV4) and nobody.
enum TestCaller: String, CaseIterable, Sendable, CustomStringConvertible {
    case owner = "alice"
    case other = "bob"
    case member = "carol"
    case apiKey
    case iam
    case none

    var description: String { rawValue }
    /// The username a signed-in caller's token names.
    var username: String? { [.owner, .other, .member].contains(self) ? rawValue : nil }
}

/// A live server (real sockets, the suite's store: SQLite, or PostgreSQL with
/// `DELTASYNC_TEST_STORE=postgres`) with user pools as the default mode and the API key and
/// IAM as additional ones, and a way to ask it as each ``TestCaller``.
struct AuthorizationFixture: Sendable {
    static let accessKey = "AKIDAUTHZ"
    static let secretKey = "authz-secret"

    let running: RunningServer
    let server: DeltaSyncServer
    private let tokens: [TestCaller: String]

    static func withServer(
        schema: String, configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: (AuthorizationFixture) async throws -> Void
    ) async throws {
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: schema), schemaFiles: ["<test schema>"])
        let server = try await TestServer(project: project) {
            $0.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey, .iam])
            $0.dataDirectory = DeltaSyncTestServer.defaultDataDirectory
            $0.iamCredentials = [IAMCredential(accessKeyID: accessKey, secretAccessKey: secretKey, role: .authenticated)]
            configure(&$0)
        }.server
        let running = try await server.start()
        do {
            let issuer = try await DevelopmentIssuer.load(directory: DeltaSyncTestServer.defaultDataDirectory)
            var tokens: [TestCaller: String] = [:]
            tokens[.owner] = try await issuer.token(username: "alice", sub: "a1", groups: [], claims: [:], lifetime: 3600)
            tokens[.other] = try await issuer.token(username: "bob", sub: "b1", groups: [], claims: [:], lifetime: 3600)
            tokens[.member] = try await issuer.token(username: "carol", sub: "c1", groups: ["Admin", "Support"], claims: [:], lifetime: 3600)
            try await body(AuthorizationFixture(running: running, server: server, tokens: tokens))
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    /// The headers that authenticate `caller` for a request with `body` (SigV4 signs it).
    func headers(_ caller: TestCaller, body: [UInt8], path: String = "/graphql") -> [String: String] {
        switch caller {
        case .owner, .other, .member: return ["authorization": tokens[caller]!]
        case .apiKey: return ["x-api-key": running.apiKey]
        case .none: return [:]
        case .iam:
            let host = "\(running.host):\(running.port)"
            let request = SigV4Request(path: path, headers: ["host": host, "content-type": "application/json"], body: body)
            var signed = SigV4.sign(
                request, accessKeyID: Self.accessKey, secretAccessKey: Self.secretKey, region: "us-east-1", now: Date())
            signed["content-type"] = "application/json"
            return signed
        }
    }

    /// The whole JSON answer to a GraphQL request sent as `caller`, whatever its status.
    func ask(_ caller: TestCaller, _ query: String, _ variables: JSONValue = [:]) async throws -> JSONValue {
        let body = JSONWriter.bytes(["query": .string(query), "variables": variables])
        var request = HTTPClientRequest(url: running.graphQLURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        for (name, value) in headers(caller, body: body) where name.lowercased() != "content-type" {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        return try JSONValue(parsing: String(buffer: try await answer.body.collect(upTo: 64 << 20)))
    }

    /// `data.<field>` of a request expected to succeed without errors.
    @discardableResult
    func expectData(_ caller: TestCaller, _ field: String, _ query: String, _ variables: JSONValue = [:]) async throws -> JSONValue {
        let answer = try await ask(caller, query, variables)
        guard answer["errors"].isNull else { throw TestFailure("\(caller) \(field): unexpected errors \(answer.jsonText)") }
        return answer["data"][field]
    }

    /// A realtime connection authenticated as `caller`, acknowledged.
    func realtime(_ caller: TestCaller) async throws -> RealtimeTestClient {
        var headers: HTTPFields = [:]
        switch caller {
        case .owner, .other, .member: headers[.authorization] = tokens[caller]!
        default: headers[HTTPField.Name("x-api-key")!] = running.apiKey
        }
        let client = RealtimeTestClient(url: running.realtimeURL, headers: headers)
        _ = try await client.initialize()
        return client
    }

    /// A `start` authenticated as `caller` (a signed-in user or the API key).
    func start(_ client: RealtimeTestClient, id: String, as caller: TestCaller, _ query: String, _ variables: JSONValue = [:]) {
        if let token = tokens[caller] {
            client.start(id: id, query: query, variables: variables, token: token)
        } else {
            client.start(id: id, query: query, variables: variables, apiKey: running.apiKey)
        }
    }
}

extension JSONValue {
    /// Every string anywhere in the value: what a test searches for values that must not leak.
    var allStrings: [String] {
        switch self {
        case .string(let text): return [text]
        case .array(let elements): return elements.flatMap(\.allStrings)
        case .object(let members): return members.values.flatMap(\.allStrings)
        default: return []
        }
    }

    /// Every integer anywhere in the value.
    var allIntegers: [Int] {
        switch self {
        case .int(let number): return [number]
        case .array(let elements): return elements.flatMap(\.allIntegers)
        case .object(let members): return members.values.flatMap(\.allIntegers)
        default: return []
        }
    }
}
