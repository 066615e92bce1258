// Realtime benchmarks (issue #4), against the release `deltasync` binary in its own process:
//   1. mutation-to-event latency with 1,000 subscribers on 100 connections, beside the
//      mutation's own HTTP round trip measured the same way with no subscribers;
//   2. the server's resident memory holding 10,000 idle subscribed connections, beside its
//      resident memory with none;
//   3. (issue #20) mutation-to-event latency with owner-filtered subscriptions: 1,000
//      subscribers of 100 owners (one connection per owner, user pools tokens), each mutation
//      reaching only its owner's 10, beside the mutation's round trip with no subscribers.
//
//   4. (issue #23) with `--postgres URL`, instead of the above: several processes on one
//      PostgreSQL store (SharedInstances.swift).
//
//   swift build -c release --product deltasync && swift run -c release RealtimeBenchmark [mutations] [idle-connections]
//   RealtimeBenchmark [mutations] [idle-connections] --subscribers 1000x10   (connections x subscriptions each for 1.;
//   issue #42 asks 10,000 subscribers on 1,000 connections: p50 < 5 ms, p99 < 25 ms)
//   RealtimeBenchmark [mutations] [creates] [connections] [rounds] --postgres postgres://USER@HOST:PORT/DB
import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let mutationCount = arguments.first ?? 300
let idleConnections = arguments.dropFirst().first ?? 10_000
let apiKey = "da2-realtimebenchmark"
/// The latency run's subscribers: connections, and subscriptions on each (`--subscribers 100x10`).
let subscriberShape: (connections: Int, perConnection: Int) = {
    guard let flag = CommandLine.arguments.firstIndex(of: "--subscribers"), flag + 1 < CommandLine.arguments.count else { return (100, 10) }
    let parts = CommandLine.arguments[flag + 1].split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { fatalError("--subscribers takes CONNECTIONSxPER, e.g. 1000x10") }
    return (parts[0], parts[1])
}()

/// Unbuffered, so a run that is stopped still shows what it measured.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func row(_ name: String, _ value: String) { say(name.padding(toLength: 70, withPad: " ", startingAt: 0) + value) }

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

// MARK: - The server process

/// `deltasync serve` from the same build folder as this benchmark, on a free port: in memory,
/// or on the PostgreSQL store at `database` (a `postgres://` URL).
final class ServerProcess: Sendable {
    let process: Process
    let port: Int

    init(schema: String = BenchmarkSupport.exampleSchemaFile, database: String? = nil, extraArguments: [String] = []) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("deltasync")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            fatalError("Build the server first: swift build -c release --product deltasync")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--schema", schema, "--port", "0", "--api-key", apiKey, "--log-level", "error",
        ] + (database.map { ["--database", $0] } ?? ["--in-memory"]) + extraArguments
            // More serve flags for comparisons, e.g. DELTASYNC_BENCH_SERVE_ARGS=--no-metrics.
            + (ProcessInfo.processInfo.environment["DELTASYNC_BENCH_SERVE_ARGS"]?.split(separator: " ").map(String.init) ?? [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The server prints its URL once the socket is bound.
        var seen = ""
        var port: Int?
        let handle = output.fileHandleForReading
        while port == nil {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { fatalError("deltasync exited: \(seen)") }
            seen += String(decoding: chunk, as: UTF8.self)
            if let range = seen.range(of: #"http://127\.0\.0\.1:(\d+)/graphql"#, options: .regularExpression) {
                port = Int(seen[range].split(separator: ":").last!.split(separator: "/").first!)
            }
        }
        self.process = process
        self.port = port!
    }

    /// Resident memory, from /proc.
    var residentBytes: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

// MARK: - Clients

/// Counts deliveries and wakes the waiter when the expected number arrived.
final class Deliveries: Sendable {
    private struct State {
        var expected = 0
        var times: [ContinuousClock.Instant] = []
        var waiter: CheckedContinuation<[ContinuousClock.Instant], Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Records `count` events that arrived `at` one instant (one read from the socket).
    func record(_ count: Int, at arrival: ContinuousClock.Instant) {
        let done: (CheckedContinuation<[ContinuousClock.Instant], Never>, [ContinuousClock.Instant])? = state.withLockedValue { state in
            state.times.append(contentsOf: repeatElement(arrival, count: count))
            guard state.times.count >= state.expected, let waiter = state.waiter else { return nil }
            state.waiter = nil
            let times = state.times
            state.times = []
            return (waiter, times)
        }
        if let (waiter, times) = done { waiter.resume(returning: times) }
    }

    /// Runs `trigger` and returns the arrival times of `count` deliveries.
    func await(_ count: Int, trigger: () async throws -> Void) async throws -> [ContinuousClock.Instant] {
        state.withLockedValue {
            $0.expected = count
            $0.times = []
        }
        async let arrivals = withCheckedContinuation { continuation in
            let already: [ContinuousClock.Instant]? = state.withLockedValue { state in
                if state.times.count == state.expected {
                    let times = state.times
                    state.times = []
                    return times
                }
                state.waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
        try await trigger()
        return await arrivals
    }
}

/// Waits until `count` calls of the returned closure happened.
func readiness(_ count: Int) -> (AsyncStream<Void>, @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    let seen = NIOLockedValueBox(0)
    return (stream, {
        let total = seen.withLockedValue { value -> Int in
            value += 1
            return value
        }
        if total == count { continuation.finish() }
    })
}

func createPost(port: Int, n: Int, client: HTTPClient = .shared) async throws {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/graphql")
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "x-api-key", value: apiKey)
    // One document with variables, as DataStore clients send it.
    request.body = .bytes(ByteBuffer(string: #"{"query":"mutation CreatePost($input: CreatePostInput!) { createPost(input: $input) { id title rating _version _lastChangedAt } }","variables":{"input":{"id":"p\#(n)","blogID":"b1","title":"Post \#(n)","rating":3}}}"#))
    let response = try await client.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .ok, !String(buffer: body).contains("errors") else { fatalError("mutation failed: \(String(buffer: body))") }
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

// Issue #23: `--postgres URL` (or DELTASYNC_POSTGRES_URL) measures processes sharing a
// PostgreSQL store instead.
if let databaseURL = SharedInstances.databaseURL {
    try await SharedInstances.run(databaseURL: databaseURL, numbers: arguments)
    exit(0)
}

// MARK: - 1. Latency

let server = try ServerProcess()
// The baseline: the same mutation's HTTP round trip before anyone subscribes.
var baseline: [Double] = []
for n in 0..<mutationCount {
    let sent = ContinuousClock.now
    try await createPost(port: server.port, n: 2_000_000 + n)
    baseline.append(milliseconds(ContinuousClock.now - sent))
}
baseline.sort()
let deliveries = Deliveries()
let (connectionCount, perConnection) = subscriberShape
let (ready, markReady) = readiness(connectionCount)
var clients: [any Channel] = []
for _ in 0..<connectionCount {
    clients.append(try await Subscriber.connect(
        port: server.port, subscriptions: perConnection, apiKey: apiKey, ready: markReady, received: { deliveries.record($0, at: $1) }))
}
for await _ in ready {}

var roundTrips: [Double] = []
var latencies: [Double] = []
var firsts: [Double] = []
for n in 0..<20 {  // warm-up: every event of a mutation arrives before the next one is sent
    _ = try await deliveries.await(connectionCount * perConnection) { try await createPost(port: server.port, n: 1_000_000 + n) }
}
for n in 0..<mutationCount {
    var sent = ContinuousClock.now
    var answered = ContinuousClock.now
    let arrivals = try await deliveries.await(connectionCount * perConnection) {
        sent = ContinuousClock.now
        try await createPost(port: server.port, n: n)
        answered = ContinuousClock.now
    }
    roundTrips.append(milliseconds(answered - sent))
    latencies += arrivals.map { milliseconds($0 - sent) }
    firsts.append(arrivals.map { milliseconds($0 - sent) }.min() ?? 0)
}
for client in clients { try await client.close().get() }
latencies.sort()
roundTrips.sort()
firsts.sort()
say("1. Mutation-to-event latency, \(connectionCount * perConnection) subscribers on \(connectionCount) connections, \(mutationCount) mutations")
row("   mutation HTTP round trip, no subscribers (baseline)", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(baseline, 0.5), percentile(baseline, 0.99)))
row("   mutation HTTP round trip, with the subscribers", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(roundTrips, 0.5), percentile(roundTrips, 0.99)))
row("   mutation sent -> first of its events received", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(firsts, 0.5), percentile(firsts, 0.99)))
row("   mutation sent -> event received, all deliveries", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(latencies, 0.5), percentile(latencies, 0.99)))
say(subscriberShape == (100, 10) ? "   target: p50 <= 2 ms, p99 <= 10 ms" : "   target (issue #42, 1000x10): p50 < 5 ms, p99 < 25 ms")
server.stop()

// MARK: - 3. Owner-filtered subscriptions

let ownerFolder = BenchmarkSupport.scratchFolder("realtime-owners")
defer { try? FileManager.default.removeItem(at: ownerFolder) }
let ownerSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("owners.graphql").path
let ownerServer = try ServerProcess(
    schema: ownerSchema,
    extraArguments: ["--auth-mode", "userPools", "--additional-auth-mode", "apiKey", "--data-dir", ownerFolder.path])
let ownerCount = 100
/// Each owner's subscriptions, on one connection: the owners' run keeps its own shape.
let ownerSubscriptions = 10

/// `deltasync token --username <name>` with the server's data folder.
func token(_ username: String) throws -> String {
    let process = Process()
    process.executableURL = ownerServer.process.executableURL
    process.arguments = ["token", "--username", username, "--expires", "1d", "--data-dir", ownerFolder.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
}

let tokens = try (0..<ownerCount).map { try token("user\($0)") }

func createTodo(n: Int) async throws {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(ownerServer.port)/graphql")
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/json")
    request.headers.add(name: "authorization", value: tokens[n % ownerCount])
    request.body = .bytes(ByteBuffer(string: #"{"query":"mutation CreateTodo($input: CreateTodoInput!) { createTodo(input: $input) { id content owner _version _lastChangedAt } }","variables":{"input":{"id":"t\#(n)","content":"Todo \#(n)"}}}"#))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    let body = try await response.body.collect(upTo: 1 << 20)
    guard response.status == .ok, !String(buffer: body).contains("errors") else { fatalError("mutation failed: \(String(buffer: body))") }
}

var ownerBaseline: [Double] = []
for n in 0..<mutationCount {
    let sent = ContinuousClock.now
    try await createTodo(n: 2_000_000 + n)
    ownerBaseline.append(milliseconds(ContinuousClock.now - sent))
}
ownerBaseline.sort()
let ownerDeliveries = Deliveries()
let (ownersReady, markOwnerReady) = readiness(ownerCount)
var ownerClients: [any Channel] = []
for owner in 0..<ownerCount {
    ownerClients.append(try await Subscriber.connect(
        port: ownerServer.port, subscriptions: ownerSubscriptions, authorization: ["Authorization": tokens[owner]],
        query: "subscription { onCreateTodo { id content owner _version _lastChangedAt } }", ready: markOwnerReady,
        received: { ownerDeliveries.record($0, at: $1) }))
}
for await _ in ownersReady {}
for n in 0..<20 {  // warm-up
    _ = try await ownerDeliveries.await(ownerSubscriptions) { try await createTodo(n: 1_000_000 + n) }
}
var ownerLatencies: [Double] = []
var ownerRoundTrips: [Double] = []
for n in 0..<mutationCount {
    var sent = ContinuousClock.now
    var answered = ContinuousClock.now
    let arrivals = try await ownerDeliveries.await(ownerSubscriptions) {
        sent = ContinuousClock.now
        try await createTodo(n: n)
        answered = ContinuousClock.now
    }
    ownerRoundTrips.append(milliseconds(answered - sent))
    ownerLatencies += arrivals.map { milliseconds($0 - sent) }
}
for client in ownerClients { try await client.close().get() }
ownerLatencies.sort()
ownerRoundTrips.sort()
say("3. Owner-filtered subscriptions: \(ownerCount * ownerSubscriptions) subscribers of \(ownerCount) owners, \(mutationCount) mutations, each for its owner's \(ownerSubscriptions)")
row("   mutation HTTP round trip, no subscribers (baseline)", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(ownerBaseline, 0.5), percentile(ownerBaseline, 0.99)))
row("   mutation HTTP round trip, with the subscribers", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(ownerRoundTrips, 0.5), percentile(ownerRoundTrips, 0.99)))
row("   mutation sent -> event received, all deliveries", String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(ownerLatencies, 0.5), percentile(ownerLatencies, 0.99)))
say("   target: p50 <= 2 ms, p99 <= 10 ms")
ownerServer.stop()

// MARK: - 2. Memory of idle connections

// `RealtimeBenchmark N 0` measures latency only.
guard idleConnections > 0 else { exit(0) }
let idleServer = try ServerProcess()
let before = idleServer.residentBytes
let (idleReady, markIdleReady) = readiness(idleConnections)
var idle: [any Channel] = []
for start in stride(from: 0, to: idleConnections, by: 500) {
    // Connect in waves so the listen backlog is never the limit.
    let (wave, markWave) = readiness(min(500, idleConnections - start))
    for _ in start..<min(start + 500, idleConnections) {
        idle.append(try await Subscriber.connect(
            port: idleServer.port, subscriptions: 1, apiKey: apiKey, ready: { markIdleReady(); markWave() }, received: { _, _ in }))
    }
    for await _ in wave {}
}
for await _ in idleReady {}
let after = idleServer.residentBytes
say("2. Idle connections (each acknowledged, with one subscription)")
row("   server resident memory with no connections (baseline)", String(format: "%8.1f MB", Double(before) / 1e6))
row("   server resident memory with \(idleConnections) connections", String(format: "%8.1f MB", Double(after) / 1e6))
row("   per connection", String(format: "%8.1f KB", Double(after - before) / Double(idleConnections) / 1e3))
say("   target: under 500 MB resident")
for channel in idle { try? await channel.close().get() }
idleServer.stop()
