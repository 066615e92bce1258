// Cold client sync (issue #6): a new device syncs 100,000 posts from a real server until the
// store is `ready`, beside the same pages fetched over HTTP with nothing stored, in the same run.
// Rounds alternate the two (the baseline, then a new device on a new file), and each figure is
// the median of its rounds: one pass of the baseline moved by a third from run to run.
//
//   swift run -c release ColdSyncBenchmark [posts] [--rounds N]   (3 rounds unless told)
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncClient
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import NIOCore

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func row(_ name: String, _ value: String) { say(name.padding(toLength: 70, withPad: " ", startingAt: 0) + value) }

let count = BenchmarkSupport.numberArguments.first ?? 100_000
let rounds = max(1, BenchmarkSupport.option("rounds").flatMap { Int($0) } ?? 3)
let apiKey = "da2-coldsync"
let folder = BenchmarkSupport.scratchFolder("coldsync")
defer { try? FileManager.default.removeItem(at: folder) }
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

// MARK: - The server, seeded straight into its store

let project = try AmplifyProject.load(schemaFile: BenchmarkSupport.exampleSchemaFile)
let postModel = project.schema.model(named: "Post")!
var serverConfiguration = ServerConfiguration()
serverConfiguration.storage = .file(folder.appendingPathComponent("server.sqlite").path)
serverConfiguration.apiKey = apiKey
serverConfiguration.port = 0
let server = try DeltaSyncServer(project: project, configuration: serverConfiguration)
let statuses: [JSONValue] = ["DRAFT", "PUBLISHED", "ARCHIVED"]
let now = Int(Date().timeIntervalSince1970 * 1000)
for start in stride(from: 0, to: count, by: 10_000) {
    try await server.itemStore.write { tx in
        for n in start..<min(start + 10_000, count) {
            // Ids as Amplify makes them: random UUIDs.
            try tx.put(postModel, [
                "id": .string(UUID().uuidString.lowercased()), "blogID": .string("blog-\(n % 100)"), "title": .string("Post number \(n)"),
                "body": .string("A short body for post \(n)."), "status": statuses[n % 3], "rating": .int(n % 5),
                "tags": ["swift", .string("tag\(n % 7)")], "publishedAt": "2026-01-01T00:00:00.000Z",
                "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z", "__typename": "Post",
                "_version": 1, "_lastChangedAt": .int(now - 60_000),
            ])
        }
    }
}
let running = try await server.start()
let endpoint = SyncEndpoint(url: URL(string: running.graphQLURL)!, apiKey: apiKey)

// MARK: - Baseline: the same pages over HTTP, parsed, nothing stored

let selection = "id blogID title body status rating views featured tags location { lat lon name } metadata publishedAt publishDay readingTime expiresAt authorPhone authorIp createdAt updatedAt _version _deleted _lastChangedAt __typename"
func fetchAll() async throws -> Double {
    try await BenchmarkSupport.seconds {
        var token: JSONValue = .null
        var fetched = 0
        repeat {
            var request = HTTPClientRequest(url: running.graphQLURL)
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            request.headers.add(name: "x-api-key", value: apiKey)
            let body: JSONValue = [
                "query": .string("query ($t: String) { syncPosts(limit: 1000, nextToken: $t) { items { \(selection) } nextToken startedAt } }"),
                "variables": ["t": token],
            ]
            request.body = .bytes(ByteBuffer(string: body.jsonText))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            let page = try JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 64 << 20)))["data"]["syncPosts"]
            fetched += page["items"].arrayValue?.count ?? 0
            token = page["nextToken"]
        } while !token.isNull
        precondition(fetched == count, "fetched \(fetched) of \(count)")
    }
}

// MARK: - A cold DataStore: subscriptions, base sync of every model, ready

func coldStart(round: Int) async throws -> Double {
    var configuration = DataStoreConfiguration(endpoint: endpoint)
    configuration.syncMaxRecords = count
    let file = folder.appendingPathComponent("device-\(round).sqlite")
    let store = try DataStore(models: DeltaSyncModels.self, location: .file(file), configuration: configuration)
    var synced: [ModelSyncedEvent] = []
    let seconds = try await BenchmarkSupport.seconds { synced = try await store.start() }
    let added = synced.first { $0.modelName == "Post" }?.added ?? 0
    precondition(added == count, "synced \(added) of \(count)")
    await store.stop()
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    return seconds
}

var fetchRuns: [Double] = []
var coldRuns: [Double] = []
for round in 0..<rounds {
    fetchRuns.append(try await fetchAll())
    coldRuns.append(try await coldStart(round: round))
}
await running.stop()
let fetchSeconds = BenchmarkReport.median(fetchRuns)
let coldSeconds = BenchmarkReport.median(coldRuns)
let roundFigures = zip(fetchRuns, coldRuns).map { fetch, cold in
    String(format: "%.0f / %.0f (%.1f%%)", Double(count) / fetch, Double(count) / cold, fetch / cold * 100)
}

say("Cold sync of \(count) posts (UUID ids, 17 fields) from a deltasync server on loopback, pages of 1,000; median of \(rounds) alternating rounds")
row("   the same pages fetched and parsed, nothing stored (baseline)", String(format: "%8.0f records/s  (%.2f s)", Double(count) / fetchSeconds, fetchSeconds))
row("   DataStore.start() until ready (file store)", String(format: "%8.0f records/s  (%.2f s)", Double(count) / coldSeconds, coldSeconds))
row("   each round: baseline / start() records/s", roundFigures.joined(separator: ", "))
row("   start() against the baseline, medians", String(format: "%.1f%%", fetchSeconds / coldSeconds * 100))
say("   target: >= 20,000 records/s; issue #42: at least 90% of the baseline")
