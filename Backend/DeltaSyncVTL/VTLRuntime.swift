import Foundation

/// What the embedder supplies to a rendering beside the template's variables: the request's
/// authorization type (`$util.authType()`), where `$util.log.*` lines go, and the clock that
/// `$util.time.*`, `$util.autoUlid()` and `$util.autoKsuid()` read.
///
/// ```swift
/// var runtime = VTLRuntime(authType: VTLRuntime.apiKeyAuthorization)
/// runtime.clock = { Date(timeIntervalSince1970: 1_517_943_695.750) }
/// runtime.log = { line in print("[\(line.level)] \(line.message)") }
/// let rendering = try template.render(["ctx": context], runtime: runtime)
/// rendering.logLines   // also recorded here
/// ```
public struct VTLRuntime: Sendable {
    /// What `$util.authType()` returns, in AppSync's spelling (``apiKeyAuthorization`` and the
    /// other constants here); `nil` makes it return null.
    public var authType: String?
    /// Receives every `$util.log.*` line as it is logged (AppSync sends them to CloudWatch);
    /// the lines are also in ``VTLRendering/logLines``.
    public var log: (@Sendable (VTLLogLine) -> Void)?
    /// The current instant for `$util.time.now*`, `autoUlid` and `autoKsuid`; fix it in tests.
    public var clock: @Sendable () -> Date

    /// - Parameters:
    ///   - authType: `$util.authType()`'s value, as ``apiKeyAuthorization``.
    ///   - log: a sink for `$util.log.*` lines.
    ///   - clock: the current instant; the system clock by default.
    public init(authType: String? = nil, log: (@Sendable (VTLLogLine) -> Void)? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.authType = authType
        self.log = log
        self.clock = clock
    }

    /// `$util.authType()` for an API key.
    public static let apiKeyAuthorization = "API Key Authorization"
    /// `$util.authType()` for Cognito user pools.
    public static let userPoolAuthorization = "User Pool Authorization"
    /// `$util.authType()` for OpenID Connect.
    public static let openIDConnectAuthorization = "Open ID Connect Authorization"
    /// `$util.authType()` for IAM (SigV4).
    public static let iamAuthorization = "IAM Authorization"
    /// `$util.authType()` for a Lambda authorizer.
    public static let lambdaAuthorization = "Lambda Authorization"
}

/// One `$util.log.info|debug|error(...)` call: its level and its text, with `{}` placeholders
/// of the two-argument form filled in.
public struct VTLLogLine: Sendable, Equatable {
    /// The `$util.log` function that wrote the line.
    public enum Level: String, Sendable {
        case debug, info, error
    }

    /// Which function logged the line.
    public var level: Level
    /// The text, as Java's `toString()` prints the logged values.
    public var message: String

    /// A line at `level` with `message`.
    public init(level: Level, message: String) {
        self.level = level
        self.message = message
    }
}

/// A call to `$extensions` a template made: recorded for the resolver layer, which applies it
/// (a subscription's filter, invalidations, cache evictions) after the template succeeds.
/// The values are copies taken at the call, so later changes by the template do not show.
public enum VTLExtensionCall {
    /// `$extensions.setSubscriptionFilter(filter)`: the filter (`{"filterGroup": [...]}`).
    case setSubscriptionFilter(VTLValue)
    /// `$extensions.setSubscriptionInvalidationFilter(filter)`.
    case setSubscriptionInvalidationFilter(VTLValue)
    /// `$extensions.invalidateSubscriptions({"subscriptionField": ..., "payload": {...}})`.
    case invalidateSubscriptions(subscriptionField: String, payload: VTLValue)
    /// `$extensions.evictFromApiCache(typeName, fieldName, keyValuePairs)`.
    case evictFromApiCache(typeName: String, fieldName: String, keys: VTLValue)
}
