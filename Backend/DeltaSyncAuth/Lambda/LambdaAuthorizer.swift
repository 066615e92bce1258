import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncModelSchema
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// `AWS_LAMBDA`: the token in `Authorization` is handed to an authorizer function with
/// AppSync's request payload; its answer decides (`isAuthorized`), names what resolvers see
/// (`resolverContext`), hides fields (`deniedFields`) and how long the answer is reused
/// (`ttlOverride`, else ``defaultTTL``).
///
/// Only grants are reused, at most ``cacheLimit`` of them, the least recently used going first:
/// a refusal is asked again next time, so a flood of made-up tokens costs authorizer calls
/// but never pushes out the answers of real callers.
///
/// The function is a local HTTP endpoint (`--lambda-authorizer-url`) or a Swift closure:
///
/// ```swift
/// let authorizer = LambdaAuthorizer { request in
///     LambdaAuthorizerResponse(isAuthorized: request.authorizationToken == "let-me-in",
///                              resolverContext: ["userId": "u1"])
/// }
/// ```
public final class LambdaAuthorizer: Authenticator {
    public typealias Decide = @Sendable (LambdaAuthorizerRequest) async throws -> LambdaAuthorizerResponse

    private let decide: Decide
    /// AppSync's `identityValidationExpression`: a token that does not match it as a whole
    /// (`tok-.*` does not admit `xtok-1`) is refused without calling the function.
    public let identityValidationExpression: String?
    /// How long an answer is reused for the same token when it names no `ttlOverride`
    /// (AppSync's `authorizerResultTtlInSeconds`). Default 300 seconds.
    public let defaultTTL: TimeInterval
    private let clock: @Sendable () -> Date
    /// Granted answers by token, at most `cacheLimit` of them.
    private let answers: NIOLockedValueBox<ExpiringCache<String, Identity>>
    /// How many granted answers are kept by default.
    public static let cacheLimit = 10_000

    /// - Parameter cacheLimit: how many granted answers are kept, the least recently used
    ///   going first; refusals are never kept. Default ``cacheLimit`` (10,000).
    public init(
        identityValidationExpression: String? = nil, defaultTTL: TimeInterval = 300, cacheLimit: Int = LambdaAuthorizer.cacheLimit,
        clock: @escaping @Sendable () -> Date = { Date() }, decide: @escaping Decide
    ) {
        answers = NIOLockedValueBox(ExpiringCache(capacity: max(cacheLimit, 1)))
        self.decide = decide
        self.identityValidationExpression = identityValidationExpression
        self.defaultTTL = defaultTTL
        self.clock = clock
    }

    /// An authorizer that POSTs the request payload as JSON to `url` and reads the answer.
    public convenience init(
        url: String, identityValidationExpression: String? = nil, defaultTTL: TimeInterval = 300,
        timeout: TimeAmount = .seconds(10), clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(identityValidationExpression: identityValidationExpression, defaultTTL: defaultTTL, clock: clock) { request in
            var http = HTTPClientRequest(url: url)
            http.method = .POST
            http.headers.add(name: "content-type", value: "application/json")
            http.body = .bytes(ByteBuffer(string: request.json.jsonText))
            let response = try await HTTPClient.shared.execute(http, timeout: timeout)
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok else { throw LambdaAuthorizerError("the authorizer at \(url) answered \(response.status.code)") }
            return try LambdaAuthorizerResponse(json: JSONValue(parsing: String(buffer: body)))
        }
    }

    public var mode: AuthMode { .lambda }

    public func authenticate(_ credentials: Credentials) async throws(AuthenticationFailure) -> Identity {
        guard let token = credentials["authorization"], !token.isEmpty else { throw .missingOrInvalid }
        if let expression = identityValidationExpression, !Self.matchesWhole(token, expression) {
            throw .notAuthorized
        }
        let now = clock()
        if let identity = answers.withLockedValue({ $0.value(for: token, now: now) }) {
            return identity
        }
        let request = LambdaAuthorizerRequest(token: token, credentials: credentials)
        let answer: LambdaAuthorizerResponse
        do {
            answer = try await decide(request)
        } catch {
            // AppSync answers a failed authorizer as a refusal.
            throw .notAuthorized
        }
        guard answer.isAuthorized else { throw .notAuthorized }
        let identity = Identity(
            mode: .lambda, resolverContext: answer.resolverContext,
            deniedFields: Set(answer.deniedFields.map(LambdaAuthorizerResponse.typeField)))
        let ttl = answer.ttlOverride.map(TimeInterval.init) ?? defaultTTL
        if ttl > 0 {
            answers.withLockedValue { $0.insert(identity, for: token, until: now.addingTimeInterval(ttl), now: now) }
        }
        return identity
    }

    /// Whether `expression` matches all of `token`, as AppSync applies
    /// `identityValidationExpression` (a pattern that matches inside the token is not enough).
    static func matchesWhole(_ token: String, _ expression: String) -> Bool {
        token.range(of: "\\A(?:\(expression))\\z", options: .regularExpression) != nil
    }
}

/// What AppSync sends a Lambda authorizer.
public struct LambdaAuthorizerRequest: Sendable {
    public var authorizationToken: String
    /// The GraphQL request (empty for a realtime handshake).
    public var queryString: String
    public var operationName: String?
    public var variables: [String: JSONValue]
    public var requestHeaders: [String: String]

    init(token: String, credentials: Credentials) {
        authorizationToken = token
        let body = (try? JSONValue(parsing: String(decoding: credentials.body, as: UTF8.self))) ?? .null
        queryString = body["query"].stringValue ?? ""
        operationName = body["operationName"].stringValue
        variables = body["variables"].objectValue ?? [:]
        requestHeaders = credentials.headers
    }

    /// `{"authorizationToken": ..., "requestContext": {apiId, accountId, requestId, queryString, operationName, variables}, "requestHeaders": ...}`.
    public var json: JSONValue {
        [
            "authorizationToken": .string(authorizationToken),
            "requestContext": [
                "apiId": "deltasync", "accountId": "000000000000", "requestId": .string(UUID().uuidString.lowercased()),
                "queryString": .string(queryString), "operationName": operationName.map(JSONValue.string) ?? .null,
                "variables": .object(variables),
            ],
            "requestHeaders": .object(requestHeaders.mapValues(JSONValue.string)),
        ]
    }
}

/// What a Lambda authorizer answers.
public struct LambdaAuthorizerResponse: Sendable, Equatable {
    public var isAuthorized: Bool
    /// Becomes `$ctx.identity.resolverContext`.
    public var resolverContext: [String: JSONValue]
    /// Fields the caller may not touch: `Type.field` or an ARN ending in `/types/Type/fields/field`.
    public var deniedFields: [String]
    /// Seconds to reuse this answer for the same token; `0` not at all.
    public var ttlOverride: Int?

    public init(isAuthorized: Bool, resolverContext: [String: JSONValue] = [:], deniedFields: [String] = [], ttlOverride: Int? = nil) {
        self.isAuthorized = isAuthorized
        self.resolverContext = resolverContext
        self.deniedFields = deniedFields
        self.ttlOverride = ttlOverride
    }

    init(json: JSONValue) throws {
        guard let authorized = json["isAuthorized"].boolValue else {
            throw LambdaAuthorizerError("the authorizer's answer has no boolean isAuthorized")
        }
        self.init(
            isAuthorized: authorized, resolverContext: json["resolverContext"].objectValue ?? [:],
            deniedFields: (json["deniedFields"].arrayValue ?? []).compactMap(\.stringValue),
            ttlOverride: json["ttlOverride"].intValue)
    }

    /// `arn:aws:appsync:...:apis/<id>/types/Post/fields/content` -> `Post.content`.
    static func typeField(_ entry: String) -> String {
        let parts = entry.split(separator: "/")
        if let types = parts.firstIndex(of: "types"), parts.count > types + 3, parts[types + 2] == "fields" {
            return "\(parts[types + 1]).\(parts[types + 3])"
        }
        return entry
    }
}

/// A Lambda authorizer that cannot be reached or answered nonsense (refused as AppSync does).
public struct LambdaAuthorizerError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
