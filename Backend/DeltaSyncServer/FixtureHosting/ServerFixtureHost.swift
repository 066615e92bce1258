import DeltaSyncAuth
import DeltaSyncFixture
import DeltaSyncGraphQL
import DeltaSyncRealtime
import DeltaSyncStorage

/// What the server does for its ``Fixture``: the fixture's own mutations run through the
/// executor as the operator (no rule applied), and its purge is the expiry service's.
struct ServerFixtureHost: FixtureHost {
    let executor: RequestExecutor
    /// Who the fixture API's own writes run as: the server for its operator, no rule applied.
    let operatorCaller: Caller
    let expiry: ExpiryService

    init(executor: RequestExecutor, policy: AuthorizationPolicy, expiry: ExpiryService) {
        self.executor = executor
        operatorCaller = Caller(.trusted, policy: policy)
        self.expiry = expiry
    }

    func executeAsOperator(_ request: OperationRequest) async -> [UInt8] {
        await executor.execute(request, as: operatorCaller)
    }

    func purgeExpired() async -> PurgeResult {
        await expiry.purgeOnce()
    }
}

/// The realtime endpoint's connections as the fixture lists and closes them.
struct RealtimeFixtureConnections: FixtureConnections {
    let connections: RealtimeConnections

    var count: Int { connections.count }

    func list() -> [ConnectionListing] {
        connections.list().map { listed in
            ConnectionListing(id: listed.id, connectedAt: listed.connectedAt, identity: listed.identity, subscriptions: listed.subscriptions)
        }
    }

    @discardableResult
    func closeAll(drop: Bool) -> Int {
        connections.closeAll(drop: drop)
    }
}
