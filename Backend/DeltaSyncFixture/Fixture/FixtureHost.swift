import DeltaSyncGraphQL
import DeltaSyncStorage

/// What a ``Fixture`` does through the server it controls rather than on its store: a change
/// "as another device" runs the API's own mutation (so subscribers receive it), and a purge runs
/// the server's own expiry. The server implements it; a fixture never sees the server's types.
package protocol FixtureHost: Sendable {
    /// Executes `request` as the server's operator (no `@auth` rule applies) and returns the
    /// response body, as `POST /graphql` would.
    func executeAsOperator(_ request: OperationRequest) async -> [UInt8]

    /// Removes the deltas and tombstones that expired by the server's clock, now.
    func purgeExpired() async -> PurgeResult
}
