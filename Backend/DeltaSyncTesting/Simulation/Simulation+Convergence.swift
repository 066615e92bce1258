import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncFixture
import Foundation

extension Simulation {
    /// Brings every device online, waits until every outbox reached the server (sending one can
    /// give another device a conflict to send, so until all are empty at once), then until each
    /// device holds exactly the server's live items of every model (for a device signed in as
    /// a user or with IAM, those the server's sync gives it; with a sync expression, those it
    /// selects): the same keys, the same stored fields, the same `_version`. A copy the device
    /// holds of an item now outside its sync expression is not compared: Amplify keeps those.
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
        let snapshot = try await server.snapshot()
        for model in schema.models {
            let everything = Self.liveItems(of: model.name, in: snapshot)
            for device in devices {
                // A device with the API key holds every item; a signed-in one what the server
                // syncs to it (its rules decide); either, only what its sync expression selects.
                let available = device.identity == .apiKey ? everything : try await device.itemsTheServerSyncs(model, schema: schema, server: server)
                let scope = Scope(device: device, model: model, available: available, stored: snapshot.models[model.name]?.items ?? [])
                while true {
                    let received = device.receivedCount
                    let local = scope.compared(try await device.items(model.name))
                    if local == scope.expected { break }
                    let (extra, missing) = (local.subtracting(scope.expected).sorted(), scope.expected.subtracting(local).sorted())
                    guard ContinuousClock.now < deadline else {
                        throw SimulationError(
                            "\(device.name) did not settle on \(model.name) within \(timeout * 4): it keeps receiving changes, and holds "
                                + "\(extra) that the server does not, and lacks \(missing).")
                    }
                    do {
                        try await device.waitForReceived(after: received, timeout: timeout)
                    } catch {
                        throw SimulationError(
                            "\(device.name) did not converge on \(model.name): it holds \(extra) "
                                + "that the server does not\(device.identity == .apiKey ? "" : " give it"), and lacks \(missing).")
                    }
                }
            }
        }
        return snapshot
    }

    /// What one device must hold of one model once converged, under its sync expression.
    private struct Scope {
        let model: ModelSchema
        let predicate: QueryPredicate
        /// The server's items the device syncs, summarised.
        let expected: Set<String>
        let expectedKeys: Set<Item>
        /// Keys of the server's items (tombstones too) outside the device's scope.
        let outside: Set<Item>

        init(device: SimulatedDevice, model: ModelSchema, available: [Item], stored: [Item]) {
            self.model = model
            let predicate = device.scope.predicate(for: model.name)
            self.predicate = predicate
            let selected = available.filter(predicate.matches)
            expected = Set(selected.map { Simulation.summary($0, of: model) })
            expectedKeys = Set(selected.compactMap { try? SimulatedDevice.key($0, of: model) })
            outside = Set(stored.filter { !predicate.matches($0) }.compactMap { try? SimulatedDevice.key($0, of: model) })
        }

        /// The device's items that count: not a copy left outside its scope, which Amplify keeps
        /// (an edit elsewhere moved the item out, and the filtered sync and subscriptions never
        /// told the device; or its expressions changed without a clear).
        func compared(_ items: [Item]) -> Set<String> {
            Set(items.filter { item in
                guard let key = try? SimulatedDevice.key(item, of: model) else { return true }
                return expectedKeys.contains(key) || (predicate.matches(item) && !outside.contains(key))
            }.map { Simulation.summary($0, of: model) })
        }
    }

    /// What two copies of an item must agree on, as text: its stored fields and `_version`.
    static func summary(_ item: Item, of model: ModelSchema) -> String {
        var shown: Item = [:]
        for field in model.storedFields { shown[field.name] = item[field.name] ?? .null }
        shown["_version"] = item["_version"] ?? .null
        return JSONValue.object(shown).jsonText
    }
}
