import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncFixture
import Foundation

extension Simulation {
    /// Brings every device online, waits until every outbox reached the server (sending one can
    /// give another device a conflict to send, so until all are empty at once), then until each
    /// device holds exactly the server's live items of every model (for a device signed in as
    /// a user or with IAM, those the server's sync gives it): the same keys, the same stored
    /// fields, the same `_version`.
    ///
    /// - Throws: ``SimulationError`` naming the first device that still differs after `timeout`
    ///   without receiving a change, or after four times `timeout` in all (devices that keep
    ///   changing never settle), and the items that differ.
    /// - Returns: the server's store as the devices converged on it (nothing writes once every
    ///   outbox is empty), for checks that follow.
    @discardableResult
    public func converge(timeout: Duration = .seconds(30)) async throws -> StoreSnapshot {
        for device in devices { device.link.goOnline() }
        let deadline = ContinuousClock.now + timeout * 4
        var pending = true
        while pending {
            guard ContinuousClock.now < deadline else {
                throw SimulationError("the devices' outboxes did not empty at once within \(timeout * 4): they keep sending.")
            }
            for device in devices { try await device.waitForEmptyOutbox(timeout: timeout) }
            pending = false
            for device in devices where try await device.pendingCount() > 0 { pending = true }
        }
        // One read of the server's store for every model: nothing writes once the outboxes are empty.
        let snapshot = try await server.fixture.snapshot()
        for model in schema.models {
            let everything = Set(Self.liveItems(of: model.name, in: snapshot).map { Self.summary($0, of: model) })
            for device in devices {
                // A device with the API key holds every item; a signed-in one what the server
                // syncs to it (its rules decide).
                let expected = device.identity == .apiKey
                    ? everything
                    : Set(try await device.itemsTheServerSyncs(model, schema: schema, server: server).map { Self.summary($0, of: model) })
                while true {
                    let received = device.receivedCount
                    let local = Set(try await device.items(model.name).map { Self.summary($0, of: model) })
                    if local == expected { break }
                    guard ContinuousClock.now < deadline else {
                        throw SimulationError(
                            "\(device.name) did not settle on \(model.name) within \(timeout * 4): it keeps receiving changes, and holds "
                                + "\(local.subtracting(expected).sorted()) that the server does not, and lacks \(expected.subtracting(local).sorted()).")
                    }
                    do {
                        try await device.waitForReceived(after: received, timeout: timeout)
                    } catch {
                        throw SimulationError(
                            "\(device.name) did not converge on \(model.name): it holds \(local.subtracting(expected).sorted()) "
                                + "that the server does not\(device.identity == .apiKey ? "" : " give it"), and lacks \(expected.subtracting(local).sorted()).")
                    }
                }
            }
        }
        return snapshot
    }

    /// What two copies of an item must agree on, as text: its stored fields and `_version`.
    static func summary(_ item: Item, of model: ModelSchema) -> String {
        var shown: Item = [:]
        for field in model.storedFields { shown[field.name] = item[field.name] ?? .null }
        shown["_version"] = item["_version"] ?? .null
        return JSONValue.object(shown).jsonText
    }
}
