import DeltaSyncAuth
import DeltaSyncCore

/// The request around a field: who asks and what they sent, for `$ctx.identity`,
/// `$ctx.request` and the events of Lambda functions.
struct ResolverRequest: Sendable {
    /// Who asks; `nil` without authentication (the executor-only tests).
    var caller: Identity?
    var sourceIP: String?
    var headers: [String: String] = [:]

    /// `$ctx.identity`, built when a step needs it rather than for every request.
    var identity: JSONValue { caller?.contextValue(sourceIP: sourceIP) ?? .null }

    /// `$ctx.request`: the client's headers; `domainName` is set only for AppSync's custom
    /// domains.
    var json: JSONValue {
        ["headers": .object(headers.mapValues(JSONValue.string)), "domainName": .null]
    }
}
