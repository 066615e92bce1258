// Client store benchmarks (issue #5), each beside raw SQLite doing the same work through GRDB
// in the same run:
//   1. a single `save` (model + outbox entry in one transaction) against one raw INSERT;
//   2. a predicate query returning 1,000 of 100,000 posts through an `@index`, against the same
//      SELECT written by hand;
//   3. applying 100,000 synced records in pages of 1,000, against raw INSERTs of the same rows;
//   4. a LiveQuery (@Observable) of 1,000 visible posts updated after a save, against the
//      observeQuery snapshot it follows and the same query run in full (LiveQueryBenchmark.swift).
//
//   swift run -c release ClientBenchmark
import BenchmarkSupport
import DeltaSyncClient
import Foundation
import GRDB

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func row(_ name: String, _ value: String) { say(name.padding(toLength: 64, withPad: " ", startingAt: 0) + value) }

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}


func timed(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    return milliseconds(ContinuousClock.now - start)
}

let statuses: [PostStatus] = [.draft, .published]

/// Post `n` as the server would send it in a sync page: 1 in 100 is archived.
func record(_ n: Int) -> Item {
    var post = Post(
        id: "post-\(n)", blogID: "blog-\(n % 50)", title: "Post number \(n)", status: n % 100 == 0 ? .archived : statuses[n % 2],
        rating: n % 5, tags: ["tag\(n % 7)"]
    ).item
    post["_version"] = 1
    post["_lastChangedAt"] = .int(1_700_000_000_000 + n)
    post["_deleted"] = false
    post["__typename"] = "Post"
    return post
}

let folder = BenchmarkSupport.scratchFolder("client-benchmark")
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: - 1. save

let saves = 3_000
let store = try DataStore(models: DeltaSyncModels.self, location: .file(folder.appendingPathComponent("store.sqlite")))
var saveTimes: [Double] = []
for n in 0..<saves {
    let post = Post(id: "saved-\(n)", blogID: "b1", title: "Saved \(n)", rating: n % 5)
    saveTimes.append(try await timed { try await store.save(post) })
}
let raw = try DatabasePool(path: folder.appendingPathComponent("raw.sqlite").path)
try raw.write { db in
    try db.execute(sql: "CREATE TABLE post (id TEXT PRIMARY KEY NOT NULL, blogID TEXT, title TEXT, status TEXT, rating INTEGER) WITHOUT ROWID")
}
var rawTimes: [Double] = []
for n in 0..<saves {
    rawTimes.append(try await timed {
        try await raw.write { db in
            try db.execute(
                sql: "INSERT INTO post (id, blogID, title, status, rating) VALUES (?, ?, ?, ?, ?)",
                arguments: ["saved-\(n)", "b1", "Saved \(n)", "DRAFT", n % 5])
        }
    })
}
// The store runs a free connection's transaction on the calling task's thread; so does this.
func insertOnThisThread(_ n: Int) throws {
    try raw.write { db in
        try db.execute(
            sql: "INSERT INTO post (id, blogID, title, status, rating) VALUES (?, ?, ?, ?, ?)",
            arguments: ["here-\(n)", "b1", "Saved \(n)", "DRAFT", n % 5])
    }
}
nonisolated func insertOnThePool(_ n: Int) async throws { try insertOnThisThread(n) }
var rawHereTimes: [Double] = []
for n in 0..<saves {
    rawHereTimes.append(try await timed { try await insertOnThePool(n) })
}
saveTimes.sort()
rawTimes.sort()
rawHereTimes.sort()
say("1. save, \(saves) new posts, file database in WAL mode")
row("   raw GRDB write of one INSERT (baseline)", String(format: "p50 %.3f ms   p99 %.3f ms", rawTimes[saves / 2], rawTimes[saves * 99 / 100]))
row("   the same INSERT on the calling thread (baseline)", String(format: "p50 %.3f ms   p99 %.3f ms", rawHereTimes[saves / 2], rawHereTimes[saves * 99 / 100]))
row("   DataStore.save (model row + outbox entry)", String(format: "p50 %.3f ms   p99 %.3f ms", saveTimes[saves / 2], saveTimes[saves * 99 / 100]))
say("   target: p50 < 0.2 ms")

// MARK: - 3. apply synced records (before 2, which queries what it stored)

let total = 100_000
let pages = stride(from: 0, to: total, by: 1_000).map { start in (start..<start + 1_000).map(record) }

/// Records per second of applying every page with `apply`.
func rate(_ apply: ([Item]) async throws -> Void) async throws -> Double {
    Double(total) / (try await timed { for page in pages { try await apply(page) } } / 1000)
}

/// A raw table with the same columns as the DataStore's `Post` rows that the sync sets.
func rawPostTable(_ name: String) async throws -> DatabasePool {
    let pool = try DatabasePool(path: folder.appendingPathComponent(name).path)
    try await pool.write { db in
        try db.execute(sql: "CREATE TABLE post (id TEXT PRIMARY KEY NOT NULL, blogID TEXT, title TEXT, status TEXT, rating INTEGER, tags TEXT, _version INTEGER, _lastChangedAt INTEGER) WITHOUT ROWID")
    }
    return pool
}

// Three rounds, each into new databases, alternating the baseline and the store so that both
// see the same moments of a noisy machine; the medians are reported.
let rounds = 3
var applyRates: [Double] = [], memoryRates: [Double] = [], rawApplyRates: [Double] = []
var rawApplied: [DatabasePool] = [], applied: [DataStore] = []
for round in 0..<rounds {
    let raw = try await rawPostTable("raw-apply-\(round).sqlite")
    rawApplyRates.append(try await rate { page in
        try await raw.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO post VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            for item in page {
                try statement.execute(arguments: [
                    item["id"]?.stringValue, item["blogID"]?.stringValue, item["title"]?.stringValue, item["status"]?.stringValue,
                    item["rating"]?.intValue, item["tags"]?.jsonText, item["_version"]?.intValue, item["_lastChangedAt"]?.intValue,
                ])
            }
        }
    })
    let store = try DataStore(models: DeltaSyncModels.self, location: .file(folder.appendingPathComponent("synced-\(round).sqlite")))
    applyRates.append(try await rate { page in _ = try await store.applyRemote("Post", records: page) })
    let memory = try DataStore(models: DeltaSyncModels.self)
    memoryRates.append(try await rate { page in _ = try await memory.applyRemote("Post", records: page) })
    rawApplied.append(raw)
    applied.append(store)
}
// The query runs on what the last round stored.
let rawApply = rawApplied.last!
let synced = applied.last!
say("3. applying \(total) synced records in pages of 1,000; median of \(rounds) rounds")
row("   raw INSERTs of the same rows, one transaction per page (baseline)", String(format: "%9.0f records/s", BenchmarkReport.median(rawApplyRates)))
row("   DataStore apply (version check, outbox check, write)", String(format: "%9.0f records/s", BenchmarkReport.median(applyRates)))
row("   the same into an in-memory DataStore", String(format: "%9.0f records/s", BenchmarkReport.median(memoryRates)))
say("   target: >= 100,000 records/s")

// MARK: - 2. query

let predicate = Post.keys.status == .archived
var queryTimes: [Double] = []
var found = 0
for _ in 0..<21 {
    queryTimes.append(try await timed { found = try await synced.query(Post.self, where: predicate).count })
}
var rawQueryTimes: [Double] = []
for _ in 0..<21 {
    rawQueryTimes.append(try await timed {
        _ = try await rawApply.read { db in try Row.fetchAll(db, sql: "SELECT * FROM post WHERE status = ?", arguments: ["ARCHIVED"]).count }
    })
}
try rawApply.write { db in try db.execute(sql: "CREATE INDEX post_status ON post (status)") }
var rawIndexedTimes: [Double] = []
for _ in 0..<21 {
    rawIndexedTimes.append(try await timed {
        _ = try await rawApply.read { db in try Row.fetchAll(db, sql: "SELECT * FROM post WHERE status = ?", arguments: ["ARCHIVED"]).count }
    })
}
say("2. query `status == ARCHIVED`: \(found) of \(total) posts, through the byStatus @index; median of 21")
row("   raw SELECT * without an index (baseline)", String(format: "%7.3f ms", BenchmarkReport.median(rawQueryTimes)))
row("   raw SELECT * with an index (baseline)", String(format: "%7.3f ms", BenchmarkReport.median(rawIndexedTimes)))
row("   DataStore.query, decoded into Post values", String(format: "%7.3f ms", BenchmarkReport.median(queryTimes)))
say("   target: < 5 ms")

// MARK: - 4. a live query's update after a save

let liveStore = try await LiveQueryBenchmark.store(in: folder)
var liveTimes: [Double] = [], snapshotTimes: [Double] = [], requeryTimes: [Double] = []
// Ten rounds of 100 saves each of the three, in a rotating order; every save has its own n, so
// every rename changes the results.
for round in 0..<10 {
    let measures: [(Range<Int>) async throws -> Void] = [
        { liveTimes += try await LiveQueryBenchmark.liveUpdates(liveStore, saves: $0) },
        { snapshotTimes += try await LiveQueryBenchmark.snapshotUpdates(liveStore, saves: $0) },
        { requeryTimes += try await LiveQueryBenchmark.requeries(liveStore, saves: $0) },
    ]
    for step in 0..<3 {
        let start = (round * 3 + step) * 100
        try await measures[(round + step) % 3](start..<start + 100)
    }
}
liveTimes.sort()
snapshotTimes.sort()
requeryTimes.sort()
say("4. a query's update after a save: \(LiveQueryBenchmark.visible) visible posts of \(LiveQueryBenchmark.visible * 5), sorted, each save renaming one; \(liveTimes.count) saves each, in rotating rounds")
row("   save, then the same query run in full (baseline)", String(format: "p50 %.3f ms   p99 %.3f ms", requeryTimes[requeryTimes.count / 2], requeryTimes[requeryTimes.count * 99 / 100]))
row("   observeQuery's next snapshot on the main actor (baseline)", String(format: "p50 %.3f ms   p99 %.3f ms", snapshotTimes[snapshotTimes.count / 2], snapshotTimes[snapshotTimes.count * 99 / 100]))
row("   LiveQuery.items changed (@Observable, main actor)", String(format: "p50 %.3f ms   p99 %.3f ms", liveTimes[liveTimes.count / 2], liveTimes[liveTimes.count * 99 / 100]))
say("   target: p50 < 2 ms")
