// Creates per second over HTTP keep-alive against an in-process server, beside the same-run
// rate of raw single-row SQLite inserts into the same table with the same storage settings.
//
// With `--postgres URL` (or DELTASYNC_POSTGRES_URL) the server stores in PostgreSQL
// (`PostgresItemStore` on a fresh schema, dropped at the end) and the baseline is raw single-row
// `INSERT`s through postgres-nio into the same table layout (a second fresh schema), from as
// many connections at once as the HTTP side has. Two more lines, not targets, split the cost:
// the store step of a create and an update's write transaction, with no HTTP in front.
//
// With `--conflict-detection none` the server serves the plain shape (the API category's and
// Gen 2's): creates and updates select no `_version`, updates send none. Either way the updates
// (`updatePost` of each created item once, over HTTP) get their own rounds beside the baseline.
//
// The baseline and the HTTP creates alternate in `rounds` rounds of `creates / rounds` each, and
// each round's share is its creates/s over the raw rate measured just before: the machine's load
// moves within a run, and a baseline taken once, seconds before the creates, moved the share by
// up to 15 points between runs. The figure is the median share.
//
//   swift run -c release ServerCreateBenchmark [creates] [connections] [rounds] [--postgres URL] [--conflict-detection none]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import Foundation
import GRDB
import NIOCore
import PostgresNIO

let arguments = BenchmarkSupport.numberArguments
let creates = arguments.first ?? 20_000
let connections = arguments.dropFirst().first ?? 16
let rounds = max(1, arguments.dropFirst(2).first ?? 5)
let perRound = creates / rounds
let postgres = try BenchmarkSupport.postgresURL.map(PostgresRun.init(url:))
let schemaFile = BenchmarkSupport.exampleSchemaFile
let plain = BenchmarkSupport.option("conflict-detection") == "none"
let project = try AmplifyProject.load(schemaFile: schemaFile).servingConflictDetection(plain ? .none : .version, because: "the benchmark")
let folder = BenchmarkSupport.scratchFolder("bench")
defer { try? FileManager.default.removeItem(at: folder) }

/// Runs `body(n)` for `count` values of `n` from `offset`, on `connections` workers at once.
func concurrently(_ count: Int, offset: Int, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<connections {
            group.addTask {
                var n = offset + worker
                while n < offset + count {
                    try await body(n)
                    n += connections
                }
            }
        }
        try await group.waitForAll()
    }
}

// MARK: - Baseline: raw single-row inserts, one transaction each, same table and settings

/// One round of the baseline: `count` raw inserts numbered from `offset`.
let baselineRound: @Sendable (_ count: Int, _ offset: Int) async throws -> Void
var storeSeconds: Double?
var updateSeconds: Double?
var stopBaseline: @Sendable () async -> Void = {}
if let postgres {
    // The table as the store makes it; then plain INSERTs of the rows `put` writes, each its own
    // transaction, from `connections` connections at once (the HTTP side's concurrency).
    try await postgres.store("raw", schema: project.schema).shutdown()
    let client = postgres.client(connections: connections)
    let clientTask = Task { await client.run() }
    let table = postgres.table("raw", model: "Post")
    @Sendable func insert(_ n: Int) async throws {
        let id = UUID().uuidString.lowercased()
        let item = #"{"id":"\#(id)","blogID":"blog-1","title":"Post \#(n)","status":"DRAFT","rating":\#(n % 5),"createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-01T00:00:00.000Z","__typename":"Post","_version":1,"_lastChangedAt":\#(1_700_000_000_000 + n)}"#
        try await client.query(
            """
            INSERT INTO \(unescaped: table) (key, item, "_lastChangedAt", "_deleted", "_ttl")
            VALUES (\(#"[""# + id + #""]"#), \(item)::jsonb, \(1_700_000_000_000 + n), NULL, NULL)
            """)
    }
    try await concurrently(min(1000, creates / 10), offset: -1_000_000, insert)  // open the connections, as the HTTP side's warm-up does
    baselineRound = { count, offset in try await concurrently(count, offset: offset, insert) }
    stopBaseline = {
        clientTask.cancel()
        await clientTask.value
    }

    // Not a target, a breakdown: the store step a create makes (`ItemStore.insert`: the key
    // free, the clock ticked, the item and its delta written), with no HTTP or GraphQL in front.
    let store = try await postgres.store("direct", schema: project.schema)
    let post = project.schema.model(named: "Post")!
    @Sendable func write(_ n: Int) async throws {
        let id = "post-\(n)"
        let created = try await store.insert(post, key: ["id": .string(id)], now: Int(Date().timeIntervalSince1970 * 1000)) { changedAt in
            [
                "id": .string(id), "blogID": "blog-1", "title": .string("Post \(n)"), "status": "DRAFT", "rating": .int(n % 5),
                "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z", "__typename": "Post",
                "_version": 1, "_lastChangedAt": .int(changedAt),
            ]
        }
        guard created != nil else { fatalError("post \(id) exists") }
    }
    try await concurrently(min(1000, creates / 10), offset: -1_000_000, write)
    storeSeconds = try await BenchmarkSupport.seconds { try await concurrently(creates, offset: 0, write) }
    // Also not a target: the write transaction of an update (`get` under the item's lock, the
    // stamp, the item and its delta written) on the posts just created.
    @Sendable func update(_ n: Int) async throws {
        let now = Int(Date().timeIntervalSince1970 * 1000)
        try await store.write { tx in
            guard var item = try tx.get(post, key: ["id": .string("post-\(n)")]) else { fatalError("post-\(n) is missing") }
            let changedAt = try tx.stampChange(now: now)
            item["title"] = .string("Post \(n), edited")
            item["_version"] = .int((item["_version"]?.intValue ?? 0) + 1)
            item["_lastChangedAt"] = .int(changedAt)
            try tx.putLogged(post, item, changedAt: changedAt)
        }
    }
    updateSeconds = try await BenchmarkSupport.seconds { try await concurrently(creates, offset: 0, update) }
    await store.shutdown()
} else {
    let baselinePath = folder.appendingPathComponent("baseline.sqlite").path
    _ = try SQLiteItemStore(location: .file(baselinePath), schema: project.schema)  // creates the tables
    let pool = try DatabasePool(path: baselinePath)
    let insert = """
        INSERT INTO "Post" (id, blogID, title, status, rating, createdAt, updatedAt, __typename, _version, _lastChangedAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    // One writer, one transaction per insert: SQLite's writes are serial whatever the callers.
    baselineRound = { count, offset in
        for n in offset..<(offset + count) {
            try await pool.write { db in
                try db.execute(
                    sql: insert,
                    arguments: [
                        UUID().uuidString.lowercased(), "blog-1", "Post \(n)", "DRAFT", n % 5,
                        "2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z", "Post", 1, 1_700_000_000_000 + n,
                    ])
            }
        }
    }
    try await baselineRound(min(1000, creates / 10), -1_000_000)
}

// MARK: - Server: createPost over HTTP keep-alive

var configuration = ServerConfiguration()
configuration.port = 0
configuration.apiKey = "da2-benchmark"
let postgresStore = try await postgres?.store("server", schema: project.schema)
configuration.storage = postgresStore.map { .store($0) } ?? .file(folder.appendingPathComponent("server.sqlite").path)
let server = try DeltaSyncServer(project: project, configuration: configuration)
let running = try await server.start()

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(
    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)

let selection = plain ? "id" : "id _version"
let mutation = "mutation($i: CreatePostInput!) { createPost(input: $i) { \(selection) } }"
let updateMutation = "mutation($i: UpdatePostInput!) { updatePost(input: $i) { \(selection) } }"
/// POSTs one mutation and checks that it succeeded.
@Sendable func send(_ query: String, _ input: String, _ what: String) async throws {
    var request = HTTPClientRequest(url: running.graphQLURL)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "x-api-key", value: "da2-benchmark")
    request.body = .bytes(ByteBuffer(string: #"{"query":"\#(query)","variables":{"i":\#(input)}}"#))
    let response = try await client.execute(request, timeout: .seconds(30))
    let reply = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .ok, !String(buffer: reply).contains("\"errors\"") else {
        throw BenchmarkFailure(description: "\(what) failed: \(response.status) \(String(buffer: reply))")
    }
}
@Sendable func create(_ n: Int) async throws {
    try await send(mutation, #"{"id":"p-\#(n)","blogID":"blog-1","title":"Post \#(n)","rating":\#(n % 5)}"#, "create \(n)")
}
/// Each created post once: the versioned shape sends the version it was created with.
@Sendable func update(_ n: Int) async throws {
    try await send(updateMutation, #"{"id":"p-\#(n)","title":"Post \#(n), edited"\#(plain ? "" : #","_version":1"#)}"#, "update \(n)")
}

struct BenchmarkFailure: Error, CustomStringConvertible { let description: String }

try await concurrently(min(1000, creates / 10), offset: -1_000_000, create)  // warm up connections and caches

// MARK: - Rounds: the baseline, then the creates, `rounds` times

var baselineSeconds: [Double] = []
var serverSeconds: [Double] = []
for round in 0..<rounds {
    let offset = round * perRound
    baselineSeconds.append(try await BenchmarkSupport.seconds { try await baselineRound(perRound, offset) })
    serverSeconds.append(try await BenchmarkSupport.seconds { try await concurrently(perRound, offset: offset, create) })
}
var updateBaselineSeconds: [Double] = []
var updateServerSeconds: [Double] = []
for round in 0..<rounds {
    let offset = round * perRound
    updateBaselineSeconds.append(try await BenchmarkSupport.seconds { try await baselineRound(perRound, creates + offset) })
    updateServerSeconds.append(try await BenchmarkSupport.seconds { try await concurrently(perRound, offset: offset, update) })
}
await stopBaseline()
try await client.shutdown().get()
await running.stop()
if let postgres, let postgresStore {
    await postgresStore.shutdown()
    try await postgres.dropSchemas()
}

// MARK: - Report

func row(_ name: String, _ count: Int, _ secs: Double) -> String {
    name.padding(toLength: 84, withPad: " ", startingAt: 0) + String(format: "%10d %9.2f %12.0f", count, secs, Double(count) / secs)
}
print("measure".padding(toLength: 84, withPad: " ", startingAt: 0) + "       ops   seconds        ops/s")
let baselineName =
    postgres == nil
    ? "raw SQLite single-row inserts (WAL, same table)" : "raw PostgreSQL single-row INSERTs (\(connections) connections)"
let shape = plain ? "NONE" : "VERSION"
let serverName = "createPost over HTTP keep-alive (\(connections) connections, \(shape))"
if let storeSeconds { print(row("  breakdown: the create's store step, no HTTP", creates, storeSeconds)) }
if let updateSeconds { print(row("  not a target: an update's write transaction, no HTTP", creates, updateSeconds)) }
var shares: [Double] = []
for round in 0..<rounds {
    print("round \(round + 1) of \(rounds)")
    print(row("  " + baselineName, perRound, baselineSeconds[round]))
    print(row("  " + serverName, perRound, serverSeconds[round]))
    shares.append(baselineSeconds[round] / serverSeconds[round])
}
let total = perRound * rounds
print(row(baselineName + ", all rounds", total, baselineSeconds.reduce(0, +)))
print(row(serverName + ", all rounds", total, serverSeconds.reduce(0, +)))
print("server / raw per round: " + shares.map { String(format: "%.1f%%", 100 * $0) }.joined(separator: ", "))
let median = shares.sorted()[shares.count / 2]
print(String(format: "server / raw: %.1f%% (median of the rounds; target: at least 40%%)", 100 * median))

// Updates: the same baseline, beside `updatePost` of each created post once.
let updateName = "updatePost over HTTP keep-alive (\(connections) connections, \(shape))"
var updateShares: [Double] = []
for round in 0..<rounds {
    print("update round \(round + 1) of \(rounds)")
    print(row("  " + baselineName, perRound, updateBaselineSeconds[round]))
    print(row("  " + updateName, perRound, updateServerSeconds[round]))
    updateShares.append(updateBaselineSeconds[round] / updateServerSeconds[round])
}
print("updates / raw inserts per round: " + updateShares.map { String(format: "%.1f%%", 100 * $0) }.joined(separator: ", "))
print(String(format: "updates / raw inserts: %.1f%% (median of the rounds)", 100 * updateShares.sorted()[updateShares.count / 2]))
