import DeltaSyncCore
import DeltaSyncLocalStore
import DeltaSyncModelSchema

/// Which credentials each request of a model carries, as Amplify Swift's auth mode strategies
/// decide: the endpoint's own (``AuthModeStrategy/default``), or per model and operation from
/// the model's `@auth` rules (``AuthModeStrategy/multiAuth``).
///
/// Multi-auth orders the rules that grant the operation by strategy (`custom`, `owner`,
/// `groups`, `private`, `public`), then provider (`function`, `userPools`, `oidc`, `iam`,
/// `apiKey`), keeps the modes the endpoint has credentials for, and tries them in that order:
/// a mode whose provider has nothing to give (signed out) passes to the next. A model without
/// rules, or with none the endpoint can serve, uses the endpoint's own credentials.
struct AuthorizationPlan: Sendable {
    let endpoint: SyncEndpoint
    let strategy: AuthModeStrategy

    /// The credentials to try for `operation` on `model`, in order.
    func candidates(for model: ModelSchema, _ operation: ModelOperation) -> [SyncAuthorization] {
        guard strategy == .multiAuth, let rules = model.authRules else { return [endpoint.authorization] }
        let available = [endpoint.authorization] + endpoint.additionalAuthorizations
        var chosen: [SyncAuthorization] = []
        for rule in rules.filter({ $0.grants(operation) }).sorted(by: Self.priority) {
            guard let authorization = available.first(where: { $0.mode == rule.provider.mode }),
                !chosen.contains(where: { $0.mode == authorization.mode })
            else { continue }
            chosen.append(authorization)
        }
        return chosen.isEmpty ? [endpoint.authorization] : chosen
    }

    /// Runs `body` with each candidate in turn until one has credentials to give.
    func run<T>(
        _ model: ModelSchema, _ operation: ModelOperation, _ body: (SyncAuthorization) async throws(DataStoreError) -> T
    ) async throws(DataStoreError) -> T {
        let candidates = candidates(for: model, operation)
        for (index, authorization) in candidates.enumerated() {
            do {
                return try await body(authorization)
            } catch {
                guard case .rejected(_, "SignedOut", _) = error, index < candidates.count - 1 else { throw error }
            }
        }
        throw .rejected(model: model.name, errorType: "SignedOut", message: "no credentials for \(model.name)")
    }

    /// Amplify's order: strategy first, then provider.
    private static func priority(_ a: AuthRule, _ b: AuthRule) -> Bool {
        let strategies: [AuthRule.Strategy] = [.custom, .owner, .groups, .private, .public]
        let providers: [AuthRule.Provider] = [.function, .userPools, .oidc, .iam, .identityPool, .apiKey]
        let (sa, sb) = (strategies.firstIndex(of: a.strategy) ?? 9, strategies.firstIndex(of: b.strategy) ?? 9)
        if sa != sb { return sa < sb }
        return (providers.firstIndex(of: a.provider) ?? 9) < (providers.firstIndex(of: b.provider) ?? 9)
    }
}

/// How the sync engine picks credentials per request (Amplify's `authModeStrategy`).
public enum AuthModeStrategy: Sendable, Equatable {
    /// Every request uses ``SyncEndpoint/authorization``.
    case `default`
    /// Per model and operation, from the model's `@auth` rules, among
    /// ``SyncEndpoint/authorization`` and ``SyncEndpoint/additionalAuthorizations``.
    case multiAuth
}
