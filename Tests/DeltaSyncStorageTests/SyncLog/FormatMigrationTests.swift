import DeltaSyncCore
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import GRDB
import Testing

/// SQLite only: the file format's versions.
@Suite("Opening SQLite files of older formats")
struct FormatMigrationTests {
    let post = Fixtures.post

    /// A file as format 1 (DeltaSync before the sync log) wrote it for ``Fixtures/post``: an item
    /// changed at `lastChangedAt` and a tombstone expired at `_ttl` 50.
    func formatOneFile(_ path: String, lastChangedAt: Int, format: String = "1") throws {
        let db = try DatabaseQueue(path: path)
        try db.write { db in
            try db.execute(sql: """
                CREATE TABLE deltasync_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO deltasync_meta (key, value) VALUES ('formatVersion', '\(format)');
                CREATE TABLE "Post" ("id" TEXT NOT NULL, "blogId" TEXT, "createdAt" TEXT, "rank" INTEGER, "title" TEXT,
                    "_version" INTEGER NOT NULL DEFAULT 1, "_deleted" INTEGER, "_lastChangedAt" INTEGER, "_ttl" INTEGER,
                    "__typename" TEXT, PRIMARY KEY ("id")) WITHOUT ROWID;
                CREATE INDEX "Post.byBlog" ON "Post" ("blogId", "createdAt", "id");
                CREATE INDEX "Post.byBlogRank" ON "Post" ("blogId", "rank", "title", "id");
                """)
            try db.execute(
                sql: #"INSERT INTO "Post" ("id", "title", "_version", "_lastChangedAt") VALUES ('p1', 'old', 2, ?)"#,
                arguments: [lastChangedAt]
            )
            try db.execute(sql: #"INSERT INTO "Post" ("id", "_version", "_deleted", "_ttl") VALUES ('p2', 3, 1, 50)"#)
        }
    }

    @Test("a format 1 file opens with its items and gains the clock, the logs and the tombstone index")
    func formatOne() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        let future = 9_000_000_000_000
        try formatOneFile(path, lastChangedAt: future)

        let store = try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(post))
        #expect(try await store.get(post, ["id": "p1"]) == ["id": "p1", "title": "old", "_version": 2, "_lastChangedAt": .int(future)])
        // The clock starts after every change the old format stamped.
        #expect(try await store.stamp(1) == future + 1)
        try await store.change(post, [["id": "p3"]], now: 1)
        #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.map { $0["id"]! } == ["p3"])
        try await store.write { tx in try tx.recordConflict(ConflictRecord(
            model: "Post", key: ["id": "p1"], mutation: "updatePost", incomingVersion: 1, storedVersion: 2,
            handler: "OPTIMISTIC_CONCURRENCY", outcome: "rejected", resultVersion: nil, at: 1
        )) }
        #expect(try await store.read { tx in try tx.conflicts(model: nil, limit: 5) }.count == 1)
        #expect(try await store.purgeExpired(deltasBefore: 0, tombstonesExpiredBy: 50) == PurgeResult(deltas: 0, tombstones: 1))

        let db = try DatabaseQueue(path: path)
        let (version, indexes) = try await db.read { db in
            (
                try String.fetchOne(db, sql: "SELECT value FROM deltasync_meta WHERE key = 'formatVersion'"),
                try db.indexes(on: "Post").map(\.name).filter { !$0.hasPrefix("sqlite_") }.sorted()
            )
        }
        #expect(version == "2")
        #expect(indexes == ["Post.byBlog", "Post.byBlogRank", "deltasync_tombstones:Post"])
    }

    @Test("reopening a current file keeps the clock and the logs")
    func reopenCurrent() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        do {
            let store = try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(post))
            try await store.change(post, [["id": "p1"], ["id": "p2"]], now: 700)
        }
        let store = try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(post))
        #expect(try await store.deltaPage(post, DeltaQuery(since: 0)).items.count == 2)
        #expect(try await store.stamp(0) == 702)
    }

    @Test("a file of a newer format is refused and left as it was")
    func newerFormat() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("app.sqlite")
        try formatOneFile(path, lastChangedAt: 1, format: "3")
        let error = #expect(throws: AppSyncError.self) {
            try SQLiteItemStore(location: .file(path), schema: Fixtures.schema(post))
        }
        #expect(error?.message.contains("newer DeltaSync") == true)
        let tables = try await DatabaseQueue(path: path).read { db in try db.tableExists("deltasync_delta") }
        #expect(!tables)
    }
}
