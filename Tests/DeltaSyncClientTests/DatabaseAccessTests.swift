import DeltaSyncLocalStore
import Foundation
import GRDB
import Testing

/// The local store's connection rule: transactions on the calling thread when the connection is
/// free, checkpoints of the write-ahead log on GRDB's queue, never inside a commit.
@Suite("DatabaseAccess and WAL checkpoints")
struct ConnectionAccessTests {
    let file = FileManager.default.temporaryDirectory
        .appendingPathComponent("deltasync-access-\(UUID().uuidString)").appendingPathComponent("store.sqlite")

    func pool(checkpoints: WALCheckpoints) throws -> DatabasePool {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { checkpoints.install(on: db) }
        }
        return try DatabasePool(path: file.path, configuration: configuration)
    }

    @Test("the log is checkpointed once it passes the threshold, on GRDB's queue, and stays bounded")
    func checkpointsKeepTheLogBounded() async throws {
        let checkpoints = WALCheckpoints(threshold: 16)
        let pool = try pool(checkpoints: checkpoints)
        let access = DatabaseAccess(pool)
        checkpoints.attach(access)
        try await access.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)") }
        let body = String(repeating: "x", count: 3_000)
        for row in 0..<400 {
            try await access.write { db in try db.execute(sql: "INSERT INTO t (id, body) VALUES (?, ?)", arguments: [row, body]) }
        }
        // Queued behind every checkpoint scheduled so far.
        try await pool.writeWithoutTransaction { _ in }
        #expect(checkpoints.completed > 0)
        let wal = try FileManager.default.attributesOfItem(atPath: file.path + "-wal")[.size] as? Int ?? 0
        // 400 rows of 3 KB are 1.2 MB of pages: without checkpoints the log would hold them all.
        #expect(wal < 400 * 1_024, "the log holds \(wal) bytes")
        #expect(try await access.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 400)
    }

    @Test("a write that arrives while a checkpoint holds the writer waits for it without failing")
    func writesDuringACheckpoint() async throws {
        let checkpoints = WALCheckpoints(threshold: 1)
        let pool = try pool(checkpoints: checkpoints)
        let access = DatabaseAccess(pool)
        checkpoints.attach(access)
        try await access.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for row in 0..<200 {
                group.addTask { try await access.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: [row]) } }
            }
            try await group.waitForAll()
        }
        try await pool.writeWithoutTransaction { _ in }
        #expect(checkpoints.completed > 0)
        #expect(try await access.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 200)
    }
}
