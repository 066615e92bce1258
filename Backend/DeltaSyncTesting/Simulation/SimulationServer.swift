import DeltaSyncCore
import DeltaSyncFixture
import Foundation

/// The server a simulation's devices sync with: one the simulation started
/// (``DeltaSyncTestServer``) or one already running, reached through its fixture API
/// (``RemoteSimulationServer``).
///
/// ```swift
/// // let snapshot = try await simulation.server.snapshot()
/// // try await simulation.server.advanceClock(by: 3600)
/// ```
public protocol SimulationServer: Sendable {
    /// Where the devices' network links connect.
    var host: String { get }
    /// The port of ``host`` the links connect to.
    var port: Int { get }
    /// Its GraphQL endpoint, for requests straight to it rather than through a device's link.
    var graphQLURL: String { get }
    /// The API key devices with ``DeviceIdentity/apiKey`` send.
    var apiKey: String { get }
    /// The AWS region IAM devices sign for.
    var region: String { get }
    /// Everything its store holds: items, tombstones, the delta log and the conflict log.
    func snapshot() async throws -> StoreSnapshot
    /// Moves its clock forward.
    func advanceClock(by seconds: Int) async throws
    /// Adds a fault, as the fixture API's `POST /admin/faults` takes it.
    func addFault(_ fault: JSONValue) async throws
    /// Clears every fault.
    func clearFaults() async throws
    /// A token of its development issuer for a device signed in as `username`, in `groups`.
    func developmentToken(username: String, groups: [String], lifetime: TimeInterval) async throws -> String
}

extension DeltaSyncTestServer: SimulationServer {
    public var host: String { "127.0.0.1" }

    public func snapshot() async throws -> StoreSnapshot { try await fixture.snapshot() }

    public func advanceClock(by seconds: Int) async throws { fixture.clock.advance(by: .seconds(seconds)) }

    public func addFault(_ fault: JSONValue) async throws {
        _ = fixture.addFault(try Fault(json: fault, now: fixture.clock.now()))
    }

    public func clearFaults() async throws { _ = fixture.clearFaults() }

    public func developmentToken(username: String, groups: [String], lifetime: TimeInterval) async throws -> String {
        try await token(username: username, groups: groups, lifetime: lifetime)
    }
}
