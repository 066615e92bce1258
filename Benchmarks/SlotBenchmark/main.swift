// Project resolver benchmark (issue #38): a slot's overhead on a generated create.
//
// Two models of one shape in one server: `Plain` answered by DeltaSync's generated create,
// `Slotted` by the same generated create inside a pipeline with one `preAuth` slot (a template
// that stashes a default value, as Gen 1 projects do). Creates over HTTP one at a time, in
// alternating rounds; the overhead is the difference of the p50s (target: under 0.3 ms).
//
//   swift run -c release SlotBenchmark [requests-per-round]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import NIOCore

let requestsPerRound = CommandLine.arguments.dropFirst().compactMap { Int($0) }.first ?? 2_000
let rounds = 5
let folder = BenchmarkSupport.scratchFolder("slotbench")
defer { try? FileManager.default.removeItem(at: folder) }

let say = BenchmarkReport.say, row = BenchmarkReport.row, percentile = BenchmarkReport.percentile
let milliseconds = BenchmarkReport.milliseconds

let schema = """
    type Plain @model { id: ID! text: String priority: Int }
    type Slotted @model { id: ID! text: String priority: Int }
    """
var configuration = ServerConfiguration()
configuration.port = 0
configuration.apiKey = "da2-slotbench"
configuration.storage = .inMemory
configuration.metrics = false
configuration.dataDirectory = folder.path
configuration.slots = [SlotFunctionDefinition(
    type: "Mutation", field: "createSlotted", slot: .preAuth, position: 1,
    request: TemplateText(name: "Mutation.createSlotted.preAuth.1.req.vtl", text: #"$util.qr($ctx.stash.put("defaultValues", {"priority": 3})){}"#),
    response: nil)]
let server = try DeltaSyncServer(
    project: AmplifyProject(schema: try AmplifySchema.parse(source: schema), schemaFiles: []), configuration: configuration)
let running = try await server.start()

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)

func create(_ model: String, _ id: Int) async throws -> Double {
    var request = HTTPClientRequest(url: running.graphQLURL)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "x-api-key", value: "da2-slotbench")
    let body = #"{"query": "mutation { create\#(model)(input: {id: \"\#(id)\", text: \"hello\", priority: 1}) { id text priority } }"}"#
    request.body = .bytes(ByteBuffer(string: body))
    let started = ContinuousClock.now
    let response = try await client.execute(request, timeout: .seconds(30))
    let reply = String(buffer: try await response.body.collect(upTo: 1 << 20))
    let elapsed = milliseconds(ContinuousClock.now - started)
    guard response.status == .ok, !reply.contains("\"errors\""), reply.contains("\"priority\":1") else {
        throw BenchmarkFailure(description: "request failed: \(response.status) \(reply.prefix(300))")
    }
    return elapsed
}

for n in 0..<200 { _ = try await create("Plain", n); _ = try await create("Slotted", n) }
var plainTimes: [Double] = []
var slottedTimes: [Double] = []
for round in 0..<rounds * 2 {
    for n in 0..<requestsPerRound {
        let id = 1_000 + round * requestsPerRound + n
        if round % 2 == 0 { plainTimes.append(try await create("Plain", id)) } else { slottedTimes.append(try await create("Slotted", id)) }
    }
}
let plainP50 = percentile(plainTimes, 0.5), slottedP50 = percentile(slottedTimes, 0.5)
say("generated create over HTTP, one at a time, \(rounds) alternating rounds of \(requestsPerRound) each")
row("  baseline: generated createPlain p50 / p99 (ms)", String(format: "%.3f / %.3f", plainP50, percentile(plainTimes, 0.99)))
row("  with a preAuth slot: createSlotted p50 / p99 (ms)", String(format: "%.3f / %.3f", slottedP50, percentile(slottedTimes, 0.99)))
row("  slot overhead, p50 difference (target < 0.3 ms)", String(format: "%.3f ms", slottedP50 - plainP50))
try await client.shutdown()
await running.stop()
