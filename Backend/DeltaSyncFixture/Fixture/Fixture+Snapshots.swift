import DeltaSyncCore
import DeltaSyncStorage
import Foundation

extension Fixture {
    // MARK: - Whole-store snapshots

    /// Everything the store holds, read in one transaction.
    public func snapshot() async throws -> StoreSnapshot {
        try await StoreSnapshot.read(from: store, schema: schema)
    }

    /// Replaces everything the store holds with `snapshot`, in one transaction.
    @discardableResult
    public func restore(_ snapshot: StoreSnapshot) async throws -> [String: Int] {
        try await snapshot.write(to: store, schema: schema)
    }

    /// ``restore(_:)-(StoreSnapshot)`` from a snapshot's JSON text, checked whole first.
    ///
    /// - Throws: ``FixtureInputError`` naming the line and value at fault; nothing is written.
    @discardableResult
    public func restore(_ text: String) async throws -> [String: Int] {
        let json = try Self.parse(text, document: "Snapshot")
        return try await restore(try StoreSnapshot(json: json, text: text, schema: schema, tombstoneTTL: tombstoneTTL))
    }

    /// Everything the store holds as a database file's bytes (SQLite's own format), which
    /// ``restore(database:)`` of a server with the same schema puts back in a fraction of a
    /// second: the fast form of a snapshot kept between runs.
    public func snapshotDatabase() async throws -> Data {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await store.export(toFile: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Replaces everything the store holds with a ``snapshotDatabase()``, checked first.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) for bytes that are not such a snapshot or one
    ///   of another schema; nothing changes then.
    public func restore(database data: Data) async throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try data.write(to: URL(fileURLWithPath: path))
        try await store.restore(fromFile: path)
    }

    private static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-snapshot-\(UUID().uuidString).sqlite").path
    }

    // MARK: - Named snapshots

    /// Keeps a copy of everything the store holds under `name` (in memory, replacing one of the
    /// same name), which ``restoreSnapshot(named:)`` puts back in milliseconds: set up once, then
    /// restore before each test.
    public func saveSnapshot(named name: String) async throws {
        let checkpoint = try await store.checkpoint()
        checkpoints.withLockedValue { $0[name] = checkpoint }
    }

    /// Puts back the snapshot saved under `name`: items, delta log, conflicts. The change
    /// clock stays where it is, so later changes are later than every earlier one.
    ///
    /// - Throws: ``AppSyncError`` (`BadRequest`) when no snapshot has that name.
    public func restoreSnapshot(named name: String) async throws {
        guard let checkpoint = checkpoints.withLockedValue({ $0[name] }) else {
            throw AppSyncError(.badRequest, "No snapshot is saved as '\(name)'; save one first (PUT /admin/snapshots/\(name)).")
        }
        try await store.restore(checkpoint)
    }

    /// The names of the saved snapshots.
    public var snapshotNames: [String] { checkpoints.withLockedValue { $0.keys.sorted() } }

    /// Forgets a saved snapshot; `false` when none had that name.
    @discardableResult
    public func deleteSnapshot(named name: String) -> Bool {
        checkpoints.withLockedValue { $0.removeValue(forKey: name) != nil }
    }
}
