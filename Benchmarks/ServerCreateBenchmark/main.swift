// Creates per second over HTTP keep-alive against an in-process server, beside the same-run
// rate of raw single-row SQLite inserts into the same table with the same storage settings.
//
//   swift run -c release ServerCreateBenchmark [creates] [connections]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import Foundation
import GRDB
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let creates = arguments.first ?? 20_000
let connections = arguments.dropFirst().first ?? 16
let schemaFile = BenchmarkSupport.exampleSchemaFile
let project = try AmplifyProject.load(schemaFile: schemaFile)
let folder = BenchmarkSupport.scratchFolder("bench")
defer { try? FileManager.default.removeItem(at: folder) }


// MARK: - Baseline: raw single-row inserts, one transaction each, same table and settings

let baselinePath = folder.appendingPathComponent("baseline.sqlite").path
_ = try SQLiteItemStore(location: .file(baselinePath), schema: project.schema)  // creates the tables
let pool = try DatabasePool(path: baselinePath)
let insert = """
    INSERT INTO "Post" (id, blogID, title, status, rating, createdAt, updatedAt, __typename, _version, _lastChangedAt)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """
let baselineSeconds = try await BenchmarkSupport.seconds {
    for n in 0..<creates {
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

// MARK: - Server: createPost over HTTP keep-alive

var configuration = ServerConfiguration()
configuration.port = 0
configuration.apiKey = "da2-benchmark"
configuration.storage = .file(folder.appendingPathComponent("server.sqlite").path)
let server = try DeltaSyncServer(project: project, configuration: configuration)
let running = try await server.start()

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(
    idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)

let mutation = "mutation($i: CreatePostInput!) { createPost(input: $i) { id _version } }"
@Sendable func create(_ n: Int) async throws {
    var request = HTTPClientRequest(url: running.graphQLURL)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "x-api-key", value: "da2-benchmark")
    let body = #"{"query":"\#(mutation)","variables":{"i":{"blogID":"blog-1","title":"Post \#(n)","rating":\#(n % 5)}}}"#
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await client.execute(request, timeout: .seconds(30))
    let reply = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .ok, !String(buffer: reply).contains("\"errors\"") else {
        throw BenchmarkFailure(description: "create \(n) failed: \(response.status) \(String(buffer: reply))")
    }
}

struct BenchmarkFailure: Error, CustomStringConvertible { let description: String }

func createConcurrently(_ count: Int, offset: Int) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<connections {
            group.addTask {
                var n = offset + worker
                while n < offset + count {
                    try await create(n)
                    n += connections
                }
            }
        }
        try await group.waitForAll()
    }
}

try await createConcurrently(min(1000, creates / 10), offset: -1_000_000)  // warm up connections and caches
let serverSeconds = try await BenchmarkSupport.seconds { try await createConcurrently(creates, offset: 0) }
try await client.shutdown().get()
await running.stop()

// MARK: - Report

let baselineRate = Double(creates) / baselineSeconds
let serverRate = Double(creates) / serverSeconds
func row(_ name: String, _ secs: Double, _ rate: Double) -> String {
    name.padding(toLength: 58, withPad: " ", startingAt: 0)
        + String(format: "%10d %9.2f %12.0f", creates, secs, rate)
}
print("measure".padding(toLength: 58, withPad: " ", startingAt: 0) + "       ops   seconds        ops/s")
print(row("raw SQLite single-row inserts (WAL, same table)", baselineSeconds, baselineRate))
print(row("createPost over HTTP keep-alive (\(connections) connections)", serverSeconds, serverRate))
print(String(format: "server / raw: %.1f%% (target: at least 40%%)", 100 * serverRate / baselineRate))
