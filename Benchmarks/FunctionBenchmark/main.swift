// `@function` benchmark (issue #22): a query answered by a warm local Node handler, over HTTP
// one request at a time, against the same handler called straight through its process (the
// handler's own time and its pipe, no server), in alternating rounds of the same run. The
// server's overhead is the difference of the medians (target: p50 under 0.5 ms). A query the
// server answers without a function (`__typename`) is timed beside them as the HTTP floor.
//
//   swift run -c release FunctionBenchmark [requests-per-round]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Logging
import NIOCore

let requestsPerRound = CommandLine.arguments.dropFirst().compactMap { Int($0) }.first ?? 2_000
let rounds = 5
let folder = BenchmarkSupport.scratchFolder("functionbench")
defer { try? FileManager.default.removeItem(at: folder) }

let say = BenchmarkReport.say, row = BenchmarkReport.row, percentile = BenchmarkReport.percentile

let source = folder.appendingPathComponent("echo/src")
try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
try "exports.handler = async (event) => ({ text: event.arguments.msg });\n"
    .write(to: source.appendingPathComponent("index.js"), atomically: true, encoding: .utf8)
let command = try HandlerRuntime.node.command(
    handler: "index.handler", sourceDirectory: source.path, bootstrapDirectory: folder.appendingPathComponent("bootstrap").path)
let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
func handler() -> LocalProcessFunction {
    LocalProcessFunction(
        name: "echo", configuration: LocalProcessConfiguration(command: command, environment: environment, maxProcesses: 1),
        logger: Logger(label: "functionbench"))
}

let schema = """
    type Note @model { id: ID! text: String }
    type Echo { text: String! }
    type Query { echo(msg: String!): Echo @function(name: "echo") }
    """
var configuration = ServerConfiguration()
configuration.port = 0
configuration.apiKey = "da2-functionbench"
configuration.storage = .inMemory
configuration.metrics = false
configuration.dataDirectory = folder.path
let served = handler()
configuration.functions["echo"] = served
let server = try DeltaSyncServer(
    project: AmplifyProject(schema: try AmplifySchema.parse(source: schema), schemaFiles: []), configuration: configuration)
let running = try await server.start()

var clientConfiguration = HTTPClient.Configuration()
clientConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 1)
let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)

func post(_ body: String) async throws -> Double {
    var request = HTTPClientRequest(url: running.graphQLURL)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "x-api-key", value: "da2-functionbench")
    request.body = .bytes(ByteBuffer(string: body))
    let started = ContinuousClock.now
    let response = try await client.execute(request, timeout: .seconds(30))
    let reply = String(buffer: try await response.body.collect(upTo: 1 << 20))
    let elapsed = ContinuousClock.now - started
    guard response.status == .ok, !reply.contains("\"errors\"") else {
        throw BenchmarkFailure(description: "request failed: \(response.status) \(reply.prefix(300))")
    }
    return Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
}

let direct = handler()
let event: JSONValue = [
    "typeName": "Query", "fieldName": "echo", "arguments": ["msg": "hi"], "identity": .null, "source": .null,
    "request": ["headers": [:], "domainName": .null], "prev": ["result": [:]],
]
func callDirectly() async throws -> Double {
    let started = ContinuousClock.now
    _ = try await direct.invoke(LambdaInvocation(functionName: "echo", event: event))
    let elapsed = ContinuousClock.now - started
    return Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
}

let functionQuery = #"{"query":"query { echo(msg: \"hi\") { text } }"}"#
let floorQuery = #"{"query":"query { __typename }"}"#
// Warm up: processes started, documents cached, connections open.
for _ in 0..<300 {
    _ = try await post(functionQuery)
    _ = try await post(floorQuery)
    _ = try await callDirectly()
}
var viaServer: [Double] = [], handlerAlone: [Double] = [], floor: [Double] = []
var overheads: [Double] = []
for round in 0..<rounds {
    var s: [Double] = [], h: [Double] = [], f: [Double] = []
    // Alternate which goes first, so drift in the machine spreads over both.
    for n in 0..<requestsPerRound {
        if (n + round) % 2 == 0 {
            s.append(try await post(functionQuery))
            h.append(try await callDirectly())
        } else {
            h.append(try await callDirectly())
            s.append(try await post(functionQuery))
        }
        f.append(try await post(floorQuery))
    }
    overheads.append(percentile(s, 0.5) - percentile(h, 0.5))
    viaServer += s
    handlerAlone += h
    floor += f
}
await running.stop()
await served.shutdown()
await direct.shutdown()
try await client.shutdown()

say("@function query answered by a warm Node handler, \(rounds) alternating rounds of \(requestsPerRound), one request at a time")
row("   the handler called directly (baseline), p50 / p90", String(format: "%7.3f / %7.3f ms", percentile(handlerAlone, 0.5), percentile(handlerAlone, 0.9)))
row("   the query through the server, p50 / p90", String(format: "%7.3f / %7.3f ms", percentile(viaServer, 0.5), percentile(viaServer, 0.9)))
row("   { __typename } through the server (HTTP floor), p50", String(format: "%7.3f ms", percentile(floor, 0.5)))
say(String(
    format: "   server overhead, p50 minus p50: %.3f ms (target: under 0.5 ms); per round: %@",
    percentile(viaServer, 0.5) - percentile(handlerAlone, 0.5), overheads.map { String(format: "%.3f", $0) }.joined(separator: " ")))
say(String(
    format: "   of which the function field adds to a request (p50 minus the floor and the handler): %.3f ms",
    percentile(viaServer, 0.5) - percentile(floor, 0.5) - percentile(handlerAlone, 0.5)))
