import DeltaSyncClient
import Foundation

/// Who a simulated device syncs as: the API key, a signed-in user with groups, or an IAM
/// identity. A scenario names it per device:
///
/// ```yaml
/// devices:
///   alice: {user: alice, groups: [team]}
///   kiosk: apiKey
///   visitor: {iam: unauthenticated}
/// ```
public enum DeviceIdentity: Sendable, Equatable {
    /// The server's API key (`API_KEY`).
    case apiKey
    /// A user of the server's development issuer (what `deltasync token` signs): a Cognito
    /// user pools ID token for `username`, in `groups` (`AMAZON_COGNITO_USER_POOLS`).
    case user(String, groups: [String])
    /// `AWS_IAM`: requests signed with an access key of the device's own, of the identity
    /// pool's authenticated role, or its unauthenticated (guest) role.
    case iam(authenticated: Bool)

    /// How the identity reads in reports: `user alice (team)`.
    public var description: String {
        switch self {
        case .apiKey: "API key"
        case .user(let name, let groups): "user \(name)" + (groups.isEmpty ? "" : " (\(groups.joined(separator: ", ")))")
        case .iam(let authenticated): authenticated ? "IAM, authenticated role" : "IAM, unauthenticated role"
        }
    }

    /// The access key the simulation gives the IAM device with this index.
    static func accessKey(_ index: Int) -> (id: String, secret: String) {
        ("AKIDSIMULATED\(index)", "simulated-secret-\(index)")
    }

    /// The credentials the device's requests, realtime connection and subscriptions carry.
    func authorization(server: any SimulationServer, index: Int) async throws -> SyncAuthorization {
        switch self {
        case .apiKey:
            return .apiKey(server.apiKey)
        case .user(let name, let groups):
            // Minted once, for longer than any simulated clock runs; again when refused.
            let first = try await server.developmentToken(username: name, groups: groups, lifetime: Self.tokenLifetime)
            let current = TokenBox(first)
            return .userPools { refresh in
                if refresh { current.set(try await server.developmentToken(username: name, groups: groups, lifetime: Self.tokenLifetime)) }
                return current.value
            }
        case .iam:
            let key = Self.accessKey(index)
            return .iam(region: server.region) { _ in .init(accessKeyID: key.id, secretAccessKey: key.secret) }
        }
    }

    /// A year: scenarios move the server's clock by days at most.
    static let tokenLifetime: TimeInterval = 365 * 24 * 3600
}

/// A device's current token, shared by its requests.
private final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var token: String
    init(_ token: String) { self.token = token }
    var value: String { lock.withLock { token } }
    func set(_ token: String) { lock.withLock { self.token = token } }
}
