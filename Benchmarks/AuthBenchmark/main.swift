// Authorization benchmarks (issue #20), each beside a same-run baseline:
//   1. creates over HTTP with a user pools JWT, alternating in rounds with the same creates
//      with an API key (target: at least 90% of the API key's rate; verified tokens are cached);
//   2. an owner's base sync of their 1,000 items in a 1,000,000-item table, alternating with
//      the same sync on a table of just those 1,000 items (target: within 10x).
//
//   swift run -c release AuthBenchmark [creates-per-round] [large-table-items]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let createsPerRound = arguments.first ?? 4_000
let largeItems = arguments.dropFirst().first ?? 1_000_000
let rounds = 4
let connections = 16
let ownerItems = 1_000
let schemaFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("schema.graphql").path
let project = try AmplifyProject.load(schemaFile: schemaFile)
let todo = project.schema.model(named: "Todo")!
let folder = BenchmarkSupport.scratchFolder("authbench")
defer { try? FileManager.default.removeItem(at: folder) }

/// Unbuffered, so a run that is stopped still shows what it measured.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func row(_ name: String, _ value: String) { say(name.padding(toLength: 66, withPad: " ", startingAt: 0) + value) }

struct BenchmarkFailure: Error, CustomStringConvertible { let description: String }

func server(_ name: String) throws -> DeltaSyncServer {
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.apiKey = "da2-authbench"
    configuration.adminKey = "dsa-authbench"  // query plans (x-deltasync-explain) need it
    configuration.storage = .file(folder.appendingPathComponent("\(name).sqlite").path)
    configuration.dataDirectory = folder.path
    configuration.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey])
    return try DeltaSyncServer(project: project, configuration: configuration)
}

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)

func post(_ url: String, _ body: String, auth: (String, String), explain: Bool = false) async throws -> String {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: auth.0, value: auth.1)
    if explain {
        request.headers.add(name: "x-deltasync-explain", value: "1")
        request.headers.add(name: "x-deltasync-admin-key", value: "dsa-authbench")
    }
    request.body = .bytes(ByteBuffer(string: body))
    let response = try await client.execute(request, timeout: .seconds(60))
    let reply = String(buffer: try await response.body.collect(upTo: 64 << 20))
    guard response.status == .ok, !reply.contains("\"errors\"") else {
        throw BenchmarkFailure(description: "request failed: \(response.status) \(reply.prefix(300))")
    }
    return reply
}

// MARK: - 1. Creates: JWT against API key

let creates = try server("creates")
let running = try await creates.start()
let token = try await DevelopmentIssuer.load(directory: folder.path).token(username: "alice", lifetime: 24 * 3600)
let mutation = "mutation($i: CreateTodoInput!) { createTodo(input: $i) { id content done owner _version } }"

func createRound(_ count: Int, offset: Int, auth: (String, String)) async throws -> Double {
    try await BenchmarkSupport.seconds {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<connections {
                group.addTask {
                    var n = offset + worker
                    while n < offset + count {
                        _ = try await post(
                            running.graphQLURL,
                            #"{"query":"\#(mutation)","variables":{"i":{"content":"todo \#(n)","done":false}}}"#, auth: auth)
                        n += connections
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}

let apiKey = ("x-api-key", "da2-authbench")
let jwt = ("authorization", token)
_ = try await createRound(500, offset: -10_000, auth: apiKey)  // warm up connections and caches
_ = try await createRound(500, offset: -20_000, auth: jwt)
var keyRates: [Double] = []
var tokenRates: [Double] = []
for round in 0..<rounds {
    // Alternate which goes first: the table grows, and later creates may be slower.
    let order = round % 2 == 0 ? [apiKey, jwt] : [jwt, apiKey]
    for auth in order {
        let seconds = try await createRound(createsPerRound, offset: round * 2 * createsPerRound + (auth == apiKey ? 0 : createsPerRound), auth: auth)
        if auth == apiKey { keyRates.append(Double(createsPerRound) / seconds) } else { tokenRates.append(Double(createsPerRound) / seconds) }
    }
}
await running.stop()
say("1. createTodo over HTTP keep-alive, \(connections) connections, \(rounds) alternating rounds of \(createsPerRound)")
row("   with an API key (baseline), median", String(format: "%9.0f creates/s", BenchmarkReport.median(keyRates)))
row("   with a user pools JWT (owner filled in), median", String(format: "%9.0f creates/s", BenchmarkReport.median(tokenRates)))
say(String(format: "   JWT / API key: %.1f%% (target: at least 90%%); rounds: key %@, JWT %@", 100 * BenchmarkReport.median(tokenRates) / BenchmarkReport.median(keyRates),
    keyRates.map { String(format: "%.0f", $0) }.joined(separator: " "), tokenRates.map { String(format: "%.0f", $0) }.joined(separator: " ")))

// MARK: - 2. Owner-scoped base sync: 1,000 of 1,000,000 against 1,000 of 1,000

/// A server whose table holds alice's 1,000 items among `total` items of `total / 1,000` owners,
/// seeded straight into the store (as if written long ago).
func seeded(_ name: String, total: Int) async throws -> RunningServer {
    let server = try server(name)
    let owners = max(1, total / ownerItems)
    let batch = 10_000
    for start in stride(from: 0, to: total, by: batch) {
        try await server.itemStore.write { tx in
            for n in start..<min(start + batch, total) {
                let owner = n % owners == 0 ? aliceOwner : "sub-\(n % owners)::user\(n % owners)"
                try tx.put(todo, [
                    "id": .string(String(format: "t%08d", n)), "content": .string("todo \(n)"), "done": false,
                    "owner": .string(owner), "createdAt": "2024-01-01T00:00:00.000Z", "updatedAt": "2024-01-01T00:00:00.000Z",
                    "__typename": "Todo", "_version": 1, "_lastChangedAt": .int(1_700_000_000_000),
                ])
            }
        }
    }
    return try await server.start()
}

let aliceOwner: String = {
    // The composite value a create by this token stores: `<sub>::<username>`.
    let payload = String(token.split(separator: ".")[1])
    var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    let claims = (try? JSONValue(parsing: String(decoding: Data(base64Encoded: base64) ?? Data(), as: UTF8.self))) ?? .null
    return "\(claims["sub"].stringValue ?? "")::alice"
}()

let syncQuery = """
    query($t: String) { syncTodos(limit: 1000, nextToken: $t) { items { id content done owner _version _deleted _lastChangedAt } nextToken startedAt } }
    """

/// alice's whole base sync (every page); the milliseconds it took and the items it returned.
func ownerSync(_ server: RunningServer) async throws -> (Double, Int) {
    var items = 0
    var next: String?
    let seconds = try await BenchmarkSupport.seconds {
        repeat {
            let variables = next.map { #"{"t":"\#($0)"}"# } ?? "{}"
            let body = #"{"query":\#(JSONValue.string(syncQuery).jsonText),"variables":\#(variables)}"#
            let reply = try JSONValue(parsing: try await post(server.graphQLURL, body, auth: jwt))
            items += reply["data"]["syncTodos"]["items"].arrayValue?.count ?? 0
            next = reply["data"]["syncTodos"]["nextToken"].stringValue
        } while next != nil
    }
    return (seconds * 1000, items)
}

let small = try await seeded("small", total: ownerItems)
let large = try await seeded("large", total: largeItems)
var smallTimes: [Double] = []
var largeTimes: [Double] = []
for _ in 0..<3 { _ = try await ownerSync(small); _ = try await ownerSync(large) }  // warm up
for run in 0..<15 {
    for server in run % 2 == 0 ? [small, large] : [large, small] {
        let (milliseconds, items) = try await ownerSync(server)
        guard items == ownerItems else { throw BenchmarkFailure(description: "alice synced \(items) items, not \(ownerItems)") }
        if server.port == small.port { smallTimes.append(milliseconds) } else { largeTimes.append(milliseconds) }
    }
}
await small.stop()
await large.stop()
say("2. alice's base sync of her \(ownerItems) items (owner rule, user pools JWT), 15 alternating runs")
row("   table of her \(ownerItems) items (baseline), median", String(format: "%9.2f ms", BenchmarkReport.median(smallTimes)))
row("   table of \(largeItems) items of \(largeItems / ownerItems) owners, median", String(format: "%9.2f ms", BenchmarkReport.median(largeTimes)))
say(String(format: "   large / small: %.2fx (target: within 10x)", BenchmarkReport.median(largeTimes) / BenchmarkReport.median(smallTimes)))
try await client.shutdown().get()
