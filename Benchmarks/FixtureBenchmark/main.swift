// Fixture API and metrics benchmarks (issue #21), each beside a same-run baseline:
//   1. reset of a file database holding 100,000 items (and their 100,000 delta log entries),
//      beside raw SQLite inserting the same 100,000 rows in one transaction (target: < 1 s);
//   2. restore of a saved snapshot of those 100,000 items and deltas (`PUT /admin/snapshots/NAME`,
//      then `POST .../restore`: SQLite's backup API), beside the same raw inserts (target:
//      < 1 s); and the import of the same snapshot as JSON text (parsed, checked, written in
//      one transaction), with where its time goes, and as a database file (`export --format
//      sqlite`, checked against the schema and copied in with the backup API);
//   3. creates over HTTP with Prometheus metrics on, alternating in rounds with a server with
//      metrics off (target: within 3%).
//
//   swift run -c release FixtureBenchmark [items] [creates-per-round]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import Foundation
import GRDB
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let itemCount = arguments.first ?? 100_000
let createsPerRound = arguments.dropFirst().first ?? 4_000
let rounds = 4
let connections = 16
let project = try AmplifyProject.load(schemaFile: BenchmarkSupport.exampleSchemaFile)
let folder = BenchmarkSupport.scratchFolder("fixturebench")
defer { try? FileManager.default.removeItem(at: folder) }

/// Unbuffered, so a run that is stopped still shows what it measured.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func row(_ name: String, _ value: String) { say(name.padding(toLength: 66, withPad: " ", startingAt: 0) + value) }

func server(_ name: String, metrics: Bool) throws -> DeltaSyncServer {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.apiKey = "da2-fixturebench"
    configuration.storage = .file(folder.appendingPathComponent("\(name).sqlite").path)
    configuration.dataDirectory = folder.path
    configuration.metrics = metrics
    return try DeltaSyncServer(project: project, configuration: configuration)
}

// MARK: - Baseline: the same rows inserted raw, one transaction

let posts = (0..<itemCount).map { n -> Item in
    [
        "id": .string("post-\(n)"), "blogID": "blog-1", "title": .string("Post \(n)"), "status": "DRAFT", "rating": .int(n % 5),
        "_version": 1, "_lastChangedAt": .int(1_700_000_000_000 + n),
    ]
}
let seed = JSONValue.object(["Post": .array(posts.map(JSONValue.object))]).jsonText

let baselinePath = folder.appendingPathComponent("baseline.sqlite").path
_ = try SQLiteItemStore(location: .file(baselinePath), schema: project.schema)
let pool = try DatabasePool(path: baselinePath)
let baselineSeconds = try await BenchmarkSupport.seconds {
    try await pool.write { db in
        let insert = try db.makeStatement(sql: """
            INSERT INTO "Post" (id, blogID, title, status, rating, createdAt, updatedAt, __typename, _version, _lastChangedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for n in 0..<itemCount {
            try insert.execute(arguments: [
                "post-\(n)", "blog-1", "Post \(n)", "DRAFT", n % 5, "2024-01-01T00:00:00.000Z", "2024-01-01T00:00:00.000Z", "Post", 1,
                1_700_000_000_000 + n,
            ])
        }
    }
}
row("baseline: raw SQLite, \(itemCount) rows in one transaction", String(format: "%.3f s", baselineSeconds))

// MARK: - 1. Reset

let fixtureServer = try server("fixture", metrics: true)
let fixture = fixtureServer.fixture
let seedSeconds = try await BenchmarkSupport.seconds { try await fixture.seed(seed) }
row("(seed of \(itemCount) items with their deltas, from JSON)", String(format: "%.3f s", seedSeconds))
let snapshot = try await fixture.snapshot()
let snapshotText = snapshot.json.jsonText
let resetSeconds = try await BenchmarkSupport.seconds { try await fixture.reset() }
row("1. reset of \(itemCount) items and their deltas (< 1 s)", String(format: "%.3f s", resetSeconds))

// MARK: - 2. Restore and import

_ = try await fixture.restore(snapshot)
let saveSeconds = try await BenchmarkSupport.seconds { try await fixture.saveSnapshot(named: "bench") }
try await fixture.reset()
var restoreSeconds: [Double] = []
for _ in 0..<3 {
    restoreSeconds.append(try await BenchmarkSupport.seconds { try await fixture.restoreSnapshot(named: "bench") })
}
guard try await fixture.snapshot().models["Post"]?.items.count == itemCount else {
    fatalError("the restore did not bring back \(itemCount) items")
}
row("2. restore of a saved snapshot of \(itemCount) items (< 1 s)",
    String(format: "%.3f s (median of 3; saving it took %.3f s)", BenchmarkReport.median(restoreSeconds), saveSeconds))

var importSeconds: [Double] = []
for _ in 0..<3 {
    importSeconds.append(try await BenchmarkSupport.seconds { try await fixture.restore(snapshotText) })
}
let restored = try await fixture.snapshot()
guard restored.models["Post"]?.items.count == itemCount, restored.models["Post"]?.deltas.count == itemCount else {
    fatalError("the import did not restore \(itemCount) items and deltas")
}
row(
    "   import of the same as \(snapshotText.utf8.count / 1_000_000) MB of JSON (PUT /admin/snapshot)",
    String(format: "%.3f s (median of 3; %.3f .. %.3f)", BenchmarkReport.median(importSeconds), importSeconds.min()!, importSeconds.max()!))

// The same snapshot as a database file (`deltasync export --format sqlite`), imported.
let database = try await fixture.snapshotDatabase()
var fileSeconds: [Double] = []
for _ in 0..<3 {
    fileSeconds.append(try await BenchmarkSupport.seconds { try await fixture.restore(database: database) })
}
row(
    "   import of the same as a \(database.count / 1_000_000) MB database file (< 1 s)",
    String(format: "%.3f s (median of 3; %.3f .. %.3f)", BenchmarkReport.median(fileSeconds), fileSeconds.min()!, fileSeconds.max()!))

// Where an import's time goes: parsing the text, and writing an already checked snapshot.
let parseSeconds = try await BenchmarkSupport.seconds { _ = try JSONValue(parsing: snapshotText) }
let writeSeconds = try await BenchmarkSupport.seconds { try await fixture.restore(snapshot) }
row("   of which: parsing the JSON text", String(format: "%.3f s", parseSeconds))
row("   of which: writing the checked items and deltas", String(format: "%.3f s", writeSeconds))

// MARK: - 3. Metrics on and off

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)

func creates(_ url: String, round: Int, tag: String) async throws -> Double {
    let perConnection = createsPerRound / connections
    return try await BenchmarkSupport.seconds {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for c in 0..<connections {
                group.addTask {
                    for n in 0..<perConnection {
                        var request = HTTPClientRequest(url: url)
                        request.method = .POST
                        request.headers.add(name: "content-type", value: "application/json")
                        request.headers.add(name: "x-api-key", value: "da2-fixturebench")
                        // One document with variables, as apps send it (the server prepares it once).
                        let body = #"{"query":"mutation($i: CreatePostInput!) { createPost(input: $i) { id _version } }","variables":{"i":{"blogID":"b","title":"\#(tag)-\#(round)-\#(c)-\#(n)"}}}"#
                        request.body = .bytes(ByteBuffer(string: body))
                        let response = try await client.execute(request, timeout: .seconds(60))
                        _ = try await response.body.collect(upTo: 1 << 20)
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

let on = try await server("on", metrics: true).start()
let off = try await server("off", metrics: false).start()
var rates: (on: [Double], off: [Double]) = ([], [])
_ = try await creates(on.graphQLURL, round: -1, tag: "warm-on")
_ = try await creates(off.graphQLURL, round: -1, tag: "warm-off")
for round in 0..<rounds {
    // Alternating which goes first, so drift in the machine's speed falls on both.
    let order = round % 2 == 0 ? [true, false] : [false, true]
    for metrics in order {
        let seconds = try await creates(metrics ? on.graphQLURL : off.graphQLURL, round: round, tag: metrics ? "on" : "off")
        let rate = Double(createsPerRound) / seconds
        if metrics { rates.on.append(rate) } else { rates.off.append(rate) }
    }
}
row("3. creates/s, metrics off (median of \(rounds) rounds)", String(format: "%.0f", BenchmarkReport.median(rates.off)))
row("   creates/s, metrics on", String(format: "%.0f  (%.1f%% of off)", BenchmarkReport.median(rates.on), 100 * BenchmarkReport.median(rates.on) / BenchmarkReport.median(rates.off)))
await on.stop()
await off.stop()
try await client.shutdown()
