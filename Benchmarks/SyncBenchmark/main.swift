// Sync query benchmarks (issue #3), each beside a same-run baseline:
//   1. base sync of 100,000 items in pages of 1,000, against raw SQLite reads of the same rows;
//   2. a delta sync of 10 changes on a 1,000,000-item table against the same on 1,000 items;
//   3. selective sync by index on 1,000,000 items against the same filter forced to scan.
//
// With `--postgres URL` (or DELTASYNC_POSTGRES_URL) the servers store in PostgreSQL
// (`PostgresItemStore`, a fresh schema per table size, dropped at the end) and the base sync's
// baseline is raw keyset reads through postgres-nio; the other two baselines are the same as
// with SQLite.
//
//   swift run -c release SyncBenchmark [items-for-base-sync] [items-for-large-table] [--postgres URL]
import BenchmarkSupport
import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import Foundation
import GRDB
import PostgresNIO

let arguments = BenchmarkSupport.numberArguments
let baseItems = arguments.first ?? 100_000
let largeItems = arguments.dropFirst().first ?? 1_000_000
let postgres = try BenchmarkSupport.postgresURL.map(PostgresRun.init(url:))
let schemaFile = BenchmarkSupport.exampleSchemaFile
let project = try AmplifyProject.load(schemaFile: schemaFile)
let post = project.schema.model(named: "Post")!
let folder = BenchmarkSupport.scratchFolder("syncbench")
defer { try? FileManager.default.removeItem(at: folder) }
if let postgres {
    print("Store: PostgreSQL at \(postgres.settings.host):\(postgres.settings.port), schemas \(postgres.run)_*")
} else {
    print("Store: SQLite files (WAL)")
}



/// Post `n` of a table of `count` posts spread over `count / 100` blogs.
func seedPost(_ n: Int, of count: Int) -> Item {
    [
        "id": .string(String(format: "p%07d", n)), "blogID": .string("b\(n % max(1, count / 100))"),
        "title": .string("Post \(n)"), "status": "PUBLISHED", "rating": .int(n % 5),
        "publishedAt": .string("2024-01-01T00:00:00.000Z"), "createdAt": "2024-01-01T00:00:00.000Z",
        "updatedAt": "2024-01-01T00:00:00.000Z", "__typename": "Post", "_version": 1,
        "_lastChangedAt": .int(1_700_000_000_000),
    ]
}

/// PostgreSQL stores to shut down at the end.
nonisolated(unsafe) var postgresStores: [PostgresItemStore] = []

/// A server on a fresh file (or PostgreSQL schema) with `count` posts, seeded straight into the
/// store (as if written long ago: no delta log entries). Returns the file's path (the schema's
/// name) too.
func seededServer(_ name: String, count: Int) async throws -> (DeltaSyncServer, String) {
    var configuration = ServerConfiguration()
    configuration.apiKey = "da2-bench"
    let batch = 10_000
    if let postgres {
        let store = try await postgres.store(name, schema: project.schema)
        postgresStores.append(store)
        configuration.storage = .store(store)
        // One multi-row INSERT per batch, in the rows `put` writes: a million single puts take minutes.
        let seconds = try await BenchmarkSupport.seconds {
            for start in stride(from: 0, to: count, by: batch) {
                try await store.bulkLoad(post, (start..<min(start + batch, count)).map { seedPost($0, of: count) })
            }
        }
        print(String(format: "   (seeded %d posts in %.1f s)", count, seconds))
        return (try DeltaSyncServer(project: project, configuration: configuration), name)
    }
    let path = folder.appendingPathComponent("\(name).sqlite").path
    configuration.storage = .file(path)
    let server = try DeltaSyncServer(project: project, configuration: configuration)
    for start in stride(from: 0, to: count, by: batch) {
        try await server.itemStore.write { tx in
            for n in start..<min(start + batch, count) {
                try tx.put(post, seedPost(n, of: count))
            }
        }
    }
    return (server, path)
}

let syncQuery = """
    query($t: String, $f: ModelPostFilterInput, $l: AWSTimestamp) {
      syncPosts(limit: 1000, nextToken: $t, filter: $f, lastSync: $l) {
        items { id blogID title status rating publishedAt createdAt updatedAt _version _deleted _lastChangedAt }
        nextToken startedAt
      }
    }
    """

/// Seconds spent inside the server by the last `syncAll` (reading the responses is the client's).
nonisolated(unsafe) var serverSeconds = 0.0

/// Pages a sync to the end; returns the item count and the last page's startedAt.
func syncAll(_ server: DeltaSyncServer, filter: JSONValue = nil, lastSync: JSONValue = nil) async throws -> (Int, Int) {
    var token: JSONValue = nil
    var count = 0
    var startedAt = 0
    serverSeconds = 0
    repeat {
        var body: [UInt8] = []
        let request = OperationRequest(query: syncQuery, variables: ["t": token, "f": filter, "l": lastSync])
        serverSeconds += await BenchmarkSupport.seconds { body = await server.execute(request, as: .apiKey) }
        let page = try JSONValue(parsing: String(decoding: body, as: UTF8.self))["data"]["syncPosts"]
        guard page != .null else { fatalError("sync failed: \(String(decoding: body, as: UTF8.self))") }
        count += page["items"].arrayValue?.count ?? 0
        startedAt = page["startedAt"].intValue ?? 0
        token = page["nextToken"]
    } while token != .null
    return (count, startedAt)
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

func row(_ name: String, _ value: String) { print(name.padding(toLength: 76, withPad: " ", startingAt: 0) + value) }

// MARK: - 1. Base sync throughput

let (baseServer, baseLocation) = try await seededServer("base", count: baseItems)

/// One pass of the baseline: keyset reads of the same rows, in the store's key order, a page of
/// 1,000 at a time; returns its seconds.
let rawPass: () async throws -> Double
var rawConnection: PostgresConnection?
if let postgres {
    // The store's primary key order: the same expression index its scan reads. Rows collected
    // on the event loop (postgres-nio's EventLoopFuture API, which the store uses too).
    let connection = try await postgres.connect()
    rawConnection = connection
    let order = #"((item->>'id') COLLATE "C")"#
    let sql = "SELECT item::text, item->>'id' FROM \(postgres.table(baseLocation, model: "Post")) WHERE \(order) > $1 ORDER BY \(order) LIMIT 1000"
    rawPass = {
        let start = ContinuousClock.now
        var last = ""
        var read = 0
        while true {
            var binds = PostgresBindings()
            binds.append(last)
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: postgres.logger).get().rows
            var page: [(String, String)] = []
            page.reserveCapacity(rows.count)
            for row in rows { page.append(try row.decode((String, String).self)) }
            guard let tail = page.last else { break }
            read += page.count
            last = tail.1
        }
        precondition(read == baseItems)
        return seconds(since: start)
    }
} else {
    let pool = try DatabasePool(path: baseLocation)
    rawPass = {
        let start = ContinuousClock.now
        var last = ""
        var read = 0
        while true {
            let rows = try pool.read { db in
                try Row.fetchAll(db, sql: #"SELECT * FROM "Post" WHERE id > ? ORDER BY id LIMIT 1000"#, arguments: [last])
            }
            guard let tail = rows.last else { break }
            read += rows.count
            last = tail["id"]
        }
        precondition(read == baseItems)
        return seconds(since: start)
    }
}

// A warm pass of each, then five of each in turn: single passes, or all of one before all of
// the other, varied by half from run to run as the machine's load came and went.
_ = try await syncAll(baseServer)
_ = try await rawPass()
var baseRuns: [Double] = []
var rawRuns: [Double] = []
for _ in 0..<5 {
    let synced = try await syncAll(baseServer).0
    precondition(synced == baseItems, "base sync returned \(synced) of \(baseItems)")
    baseRuns.append(serverSeconds)
    rawRuns.append(try await rawPass())
}
let baseSeconds = BenchmarkReport.median(baseRuns)
let rawSeconds = BenchmarkReport.median(rawRuns)
try await rawConnection?.close().get()
print("1. Base sync, pages of 1,000")
row(
    postgres == nil ? "   raw SQLite keyset reads of the same rows (median of 5)" : "   raw keyset reads of the same rows through postgres-nio (median of 5)",
    String(format: "%10.0f items/s", Double(baseItems) / rawSeconds))
row("   syncPosts, server-side (request in, JSON bytes out; median of 5)", String(format: "%10.0f items/s", Double(baseItems) / baseSeconds))
print(String(format: "   target: at least 100,000 items/s server-side; raw/server %.1fx", baseSeconds / rawSeconds))

// MARK: - 2. Delta sync cost follows changes, not table size

func deltaTime(_ server: DeltaSyncServer) async throws -> Double {
    // An (empty) delta sync from now stamps a startedAt without reading the table.
    let (_, startedAt) = try await syncAll(server, lastSync: .int(Int(Date().timeIntervalSince1970 * 1000)))
    for n in 0..<10 {
        let body = await server.execute(OperationRequest(
            query: "mutation($i: UpdatePostInput!) { updatePost(input: $i) { _version } }",
            variables: ["i": ["id": .string(String(format: "p%07d", n * 7)), "title": "changed", "_version": 1]]), as: .apiKey)
        precondition(!String(decoding: body, as: UTF8.self).contains("errors"))
    }
    var times: [Double] = []
    for _ in 0..<50 {
        var count = 0
        count = try await syncAll(server, lastSync: .int(startedAt)).0
        times.append(serverSeconds)
        precondition(count == 10, "delta returned \(count)")
    }
    return BenchmarkReport.median(times)
}

let (small, _) = try await seededServer("small", count: 1_000)
let (large, _) = try await seededServer("large", count: largeItems)
let smallDelta = try await deltaTime(small)
let largeDelta = try await deltaTime(large)
print("2. Delta sync of 10 changes (median of 50)")
row("   on a 1,000-item table", String(format: "%10.3f ms", smallDelta * 1000))
row("   on a \(largeItems)-item table", String(format: "%10.3f ms", largeDelta * 1000))
print(String(format: "   large/small: %.2fx (target: within 10x)", largeDelta / smallDelta))

// MARK: - 3. Selective sync: index query versus scan

let blog = "b\(largeItems / 100 / 2)"
var viaIndex = 0
var viaScan = 0
var indexTimes: [Double] = []
for _ in 0..<20 {
    viaIndex = try await syncAll(large, filter: ["and": [["blogID": ["eq": .string(blog)]]]]).0
    indexTimes.append(serverSeconds)
}
viaScan = try await syncAll(large, filter: ["blogID": ["eq": .string(blog)]]).0
let scanSeconds = serverSeconds
precondition(viaIndex == viaScan && viaIndex > 0, "index \(viaIndex) vs scan \(viaScan)")
print("3. Selective sync on \(largeItems) items (\(viaIndex) match)")
row("   filter forced to scan ({blogID: {eq}})", String(format: "%10.3f ms", scanSeconds * 1000))
row("   filter served by index byBlog ({and: [{blogID: {eq}}]}, median of 20)", String(format: "%10.3f ms", BenchmarkReport.median(indexTimes) * 1000))
print(String(format: "   scan/index: %.0fx (target: at least 100x)", scanSeconds / BenchmarkReport.median(indexTimes)))

// MARK: - Cleanup

if let postgres {
    for store in postgresStores { await store.shutdown() }
    try await postgres.dropSchemas()
}
