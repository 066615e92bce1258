import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncSchema

extension Simulation {
    /// A quiet point's checks, as the random mode makes them: every device converges
    /// (``converge(timeout:)``), the server's conflict log holds no failure of a conflict
    /// handler, and no device holds or received an item it may not read (each asked of the
    /// server's `get` query as the device, a path apart from the sync and subscriptions that
    /// delivered it). A Lambda handler that throws, answers something the server cannot store or
    /// answers RESOLVE to a delete leaves the devices converged (each takes the server's item
    /// back), so only the log shows that the team's handler is broken.
    ///
    /// - Throws: ``SimulationError`` saying why the devices differ, or which conflict the
    ///   handler failed on and how.
    public func check(timeout: Duration = .seconds(30)) async throws {
        // One read of the server's store serves every check: nothing writes once converged.
        let snapshot = try await converge(timeout: timeout)
        try await checkReads(in: snapshot)
        let failures = snapshot.conflicts.filter { $0.outcome.hasPrefix("error") }
        guard let first = failures.first else { return }
        throw SimulationError(
            "the conflict handler failed \(failures.count) time(s); first on \(first.model) \(JSONValue.object(first.key).jsonText) "
                + "(\(first.mutation) of version \(first.incomingVersion) over \(first.storedVersion)): \(first.outcome)")
    }

    /// Every item each device holds, and every one it received whose version the server still
    /// holds (the rules that let it read it then still apply), it may read now.
    ///
    /// - Throws: ``SimulationError`` naming the device, its identity and the item.
    public func checkReads() async throws {
        try await checkReads(in: try await server.snapshot())
    }

    /// ``checkReads()`` against `snapshot` of the server's store.
    func checkReads(in snapshot: StoreSnapshot) async throws {
        for model in schema.models {
            let current = Dictionary(
                Self.liveItems(of: model.name, in: snapshot).compactMap { item in
                    (try? SimulatedDevice.key(item, of: model)).map { ($0, item["_version"]?.intValue ?? 0) }
                }, uniquingKeysWith: { first, _ in first })
            for device in devices {
                var keys = Set(try await device.items(model.name).compactMap { try? SimulatedDevice.key($0, of: model) })
                for (key, versions) in device.receivedVersions(of: model) where current[key].map(versions.contains) == true {
                    keys.insert(key)
                }
                for key in keys.sorted(by: { JSONValue.object($0).jsonText < JSONValue.object($1).jsonText })
                where !(try await device.mayRead(model, key: key, schema: schema, server: server)) {
                    throw SimulationError(
                        "\(device.name) (\(device.identity.description)) holds or received \(model.name) \(JSONValue.object(key).jsonText), "
                            + "which it may not read.")
                }
            }
        }
    }
}
