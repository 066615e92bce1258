// Resolver model benchmark (issue #37).
//
// 1. Engine throughput: renders per second of a 100-line template in the shape of Amplify's
//    `updateX` request (`UpdateTemplate`), beside the same run's parses of its output with the
//    server's JSON parser (target: at least 20,000 renders/s).
// 2. A template resolver's overhead over the generated one for a `getX`: a query answered by a
//    unit resolver (VTL `GetItem` over the DynamoDB data source) against the generated `getNote`
//    on the same item, over HTTP one request at a time, in alternating rounds; the overhead is
//    the difference of the p50s (target: under 0.2 ms).
// 3. An APPSYNC_JS resolver's overhead over the generated one for the same `getX` (issue #38): a
//    unit resolver whose code's `request` is `ddb.get` and whose `response` returns ctx.result,
//    run in a warm node worker, in the same alternating rounds (target: under 1 ms); and
//    beside it, one handler call to a warm worker alone (AppSyncJSRuntime.evaluate), of which
//    such a resolver makes two.
//
//   swift run -c release ResolverBenchmark [renders] [requests-per-round] [--engine-only]
import AsyncHTTPClient
import BenchmarkSupport
import DeltaSyncCore
import DeltaSyncJSRuntime
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncVTL
import Foundation
import Logging
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let renders = arguments.first ?? 20_000
let requestsPerRound = arguments.dropFirst().first ?? 2_000
let rounds = 5
let folder = BenchmarkSupport.scratchFolder("resolverbench")
defer { try? FileManager.default.removeItem(at: folder) }

/// Unbuffered, so a run that is stopped still shows what it measured.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
func row(_ name: String, _ value: String) { say(name.padding(toLength: 58, withPad: " ", startingAt: 0) + value) }
func percentile(_ values: [Double], _ p: Double) -> Double { values.sorted()[min(values.count - 1, Int(Double(values.count) * p))] }
func milliseconds(_ duration: Duration) -> Double { Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15 }

struct BenchmarkFailure: Error, CustomStringConvertible { let description: String }

// MARK: - 1. Engine throughput

let template = try VTLTemplate(UpdateTemplate.text, name: "Mutation.updatePost.req.vtl")
let templateArguments: JSONValue = [
    "input": ["id": "p1", "title": "Hello", "body": "A body", "rating": 4, "tags": ["a", "b"], "status": "PUBLISHED", "views": .null, "_version": 3],
    "condition": ["title": ["beginsWith": "He"]],
]
let context = ["arguments": templateArguments, "args": templateArguments, "stash": [:] as JSONValue, "identity": .null]
var output = ""
var renderTimes: [Double] = []
var parseTimes: [Double] = []
for _ in 0..<rounds {
    let started = ContinuousClock.now
    for _ in 0..<(renders / rounds) {
        let ctx = VTLValue(json: .object(context))
        output = try template.render(["ctx": ctx, "context": ctx]).output
    }
    renderTimes.append(milliseconds(ContinuousClock.now - started))
    let parsing = ContinuousClock.now
    for _ in 0..<(renders / rounds) { _ = try JSONValue(parsing: output) }
    parseTimes.append(milliseconds(ContinuousClock.now - parsing))
}
guard let rendered = try? JSONValue(parsing: output), rendered["operation"] == "UpdateItem",
    rendered["update"]["expression"].stringValue?.hasPrefix("SET ") == true, rendered["_version"] == 3
else { throw BenchmarkFailure(description: "the template rendered something else: \(output)") }
let perRound = Double(renders / rounds)
let renderRate = perRound / (percentile(renderTimes, 0.5) / 1000)
let parseRate = perRound / (percentile(parseTimes, 0.5) / 1000)
say("engine: \(renders) renders of a \(UpdateTemplate.text.split(separator: "\n").count)-line template, \(rounds) rounds (median round)")
row("  renders/s (target >= 20,000)", String(format: "%.0f", renderRate))
row("  baseline: JSON parses of the output/s", String(format: "%.0f (render = %.1fx a parse)", parseRate, parseRate / renderRate))

// MARK: - 2. A template getX against the generated one

if CommandLine.arguments.contains("--engine-only") { exit(0) }

let schema = """
    type Note @model { id: ID! text: String }
    type Query { templateNote(id: ID!): Note jsNote(id: ID!): Note }
    """
var configuration = ServerConfiguration()
configuration.port = 0
configuration.apiKey = "da2-resolverbench"
configuration.storage = .inMemory
configuration.metrics = false
configuration.dataDirectory = folder.path
configuration.dataSources = [DataSourceDefinition(name: "NoteTable", kind: .dynamoDB(table: "Note"))]
configuration.resolvers = [ResolverDefinition(
    type: "Query", field: "templateNote",
    kind: .unit(
        dataSource: "NoteTable",
        request: #"{"version": "2018-05-29", "operation": "GetItem", "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.id)}}"#,
        response: "#if($ctx.error)$util.error($ctx.error.message, $ctx.error.type)#end$util.toJson($ctx.result)")),
    ResolverDefinition(
        type: "Query", field: "jsNote",
        kind: .jsUnit(dataSource: "NoteTable", code: TemplateText(name: "jsNote.js", text: """
            import { util } from '@aws-appsync/utils';
            import * as ddb from '@aws-appsync/utils/dynamodb';
            export function request(ctx) { return ddb.get({ key: { id: ctx.args.id } }); }
            export function response(ctx) {
              if (ctx.error) util.error(ctx.error.message, ctx.error.type);
              return ctx.result;
            }
            """))),
]
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
    request.headers.add(name: "x-api-key", value: "da2-resolverbench")
    request.body = .bytes(ByteBuffer(string: body))
    let started = ContinuousClock.now
    let response = try await client.execute(request, timeout: .seconds(30))
    let reply = String(buffer: try await response.body.collect(upTo: 1 << 20))
    let elapsed = milliseconds(ContinuousClock.now - started)
    guard response.status == .ok, !reply.contains("\"errors\""), reply.contains("n1") else {
        throw BenchmarkFailure(description: "request failed: \(response.status) \(reply.prefix(300))")
    }
    return elapsed
}

_ = try await post(#"{"query": "mutation { createNote(input: {id: \"n1\", text: \"hello\"}) { id } }"}"#)
let generated = #"{"query": "{ getNote(id: \"n1\") { id text } }"}"#
let templated = #"{"query": "{ templateNote(id: \"n1\") { id text } }"}"#
let javaScript = #"{"query": "{ jsNote(id: \"n1\") { id text } }"}"#
for _ in 0..<200 { _ = try await post(generated); _ = try await post(templated); _ = try await post(javaScript) }
var generatedTimes: [Double] = []
var templatedTimes: [Double] = []
var javaScriptTimes: [Double] = []
for round in 0..<rounds * 3 {
    for _ in 0..<requestsPerRound {
        switch round % 3 {
        case 0: generatedTimes.append(try await post(generated))
        case 1: templatedTimes.append(try await post(templated))
        default: javaScriptTimes.append(try await post(javaScript))
        }
    }
}
let generatedP50 = percentile(generatedTimes, 0.5), templatedP50 = percentile(templatedTimes, 0.5), javaScriptP50 = percentile(javaScriptTimes, 0.5)
say("getX over HTTP, one at a time, \(rounds) alternating rounds of \(requestsPerRound) each")
row("  generated getNote p50 / p99 (ms)", String(format: "%.3f / %.3f", generatedP50, percentile(generatedTimes, 0.99)))
row("  template templateNote p50 / p99 (ms)", String(format: "%.3f / %.3f", templatedP50, percentile(templatedTimes, 0.99)))
row("  APPSYNC_JS jsNote p50 / p99 (ms)", String(format: "%.3f / %.3f", javaScriptP50, percentile(javaScriptTimes, 0.99)))
row("  template overhead, p50 difference (target < 0.2 ms)", String(format: "%.3f ms", templatedP50 - generatedP50))
row("  APPSYNC_JS overhead, p50 difference (target < 1 ms)", String(format: "%.3f ms", javaScriptP50 - generatedP50))

// MARK: - 3b. One handler call to a warm worker

let workers = AppSyncJSRuntime(logger: Logger(label: "resolverbench"))
let handlerCode = try JSCode(name: "jsNote.js", text: """
    import * as ddb from '@aws-appsync/utils/dynamodb';
    export function request(ctx) { return ddb.get({ key: { id: ctx.args.id } }); }
    export function response(ctx) { return ctx.result; }
    """)
let handlerContext: JSONValue = [
    "arguments": ["id": "n1"], "source": .null, "identity": .null, "request": ["headers": ["x-api-key": "da2-resolverbench"], "domainName": .null],
    "info": ["fieldName": "jsNote", "parentTypeName": "Query", "variables": [:]], "stash": [:], "prev": ["result": .null], "env": [:],
]
for _ in 0..<500 { _ = try await workers.evaluate(.request, of: handlerCode, context: handlerContext) }
var handlerTimes: [Double] = []
for _ in 0..<requestsPerRound * rounds {
    let started = ContinuousClock.now
    _ = try await workers.evaluate(.request, of: handlerCode, context: handlerContext)
    handlerTimes.append(milliseconds(ContinuousClock.now - started))
}
await workers.shutdown()
row("  one handler call to a warm worker p50 / p99 (ms)", String(format: "%.3f / %.3f", percentile(handlerTimes, 0.5), percentile(handlerTimes, 0.99)))
try await client.shutdown()
await running.stop()
