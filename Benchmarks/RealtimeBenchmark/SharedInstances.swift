import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Issue #23: two `deltasync serve` processes, A and B, on one PostgreSQL schema (a new one per
/// run), both the release binary next to this benchmark:
///
/// 1. Mutation-to-event latency across instances: 1,000 subscribers on 100 connections to B,
///    `createPost` sent to A, timed from just before the request to each `data` frame at B.
///    Beside it, in the same run: the same with the subscribers on A (one instance on the
///    PostgreSQL store), and the mutation's HTTP round trip with no subscribers. The two
///    placements alternate in blocks, so both see the same periods of load.
/// 2. Creates per second over HTTP: `connections` keep-alive connections to A alone (B stopped),
///    then the same connections split between A and B; alternating, `rounds` of each. Each
///    round also reports the CPU each process used, in cores, to show what bounds the rate.
///
///     RealtimeBenchmark [mutations] [creates] [connections] [rounds] --postgres postgres://USER@HOST:PORT/DB
///
/// The URL may also come from `DELTASYNC_POSTGRES_URL`; the benchmark adds `schema=` to it. The
/// schema stays in the database afterwards (a throw-away cluster: scripts/postgres-cluster.sh).
enum SharedInstances {
    /// `--postgres URL`, else `DELTASYNC_POSTGRES_URL`; `nil` runs the in-memory benchmarks.
    static var databaseURL: String? {
        let arguments = CommandLine.arguments
        if let flag = arguments.firstIndex(of: "--postgres") {
            guard flag + 1 < arguments.count else { fatalError("--postgres needs a postgres:// URL") }
            return arguments[flag + 1]
        }
        return ProcessInfo.processInfo.environment["DELTASYNC_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Post numbers for ids: the two processes share one table, so no two mutations of a run
    /// may use the same id.
    private static let numbers = NIOLockedValueBox(0)

    private static func nextNumber() -> Int {
        numbers.withLockedValue {
            $0 += 1
            return $0
        }
    }

    /// `numbers`: the command line's numbers, `[mutations, creates, connections, rounds]`.
    static func run(databaseURL: String, numbers: [Int]) async throws {
        let mutations = numbers.first ?? 300
        let creates = numbers.dropFirst().first ?? 5_000
        let connections = numbers.dropFirst(2).first ?? 16
        let rounds = numbers.dropFirst(3).first ?? 3
        guard mutations >= 2, creates >= 1, connections >= 2, rounds >= 1 else {
            fatalError("at least 2 mutations, 1 create, 2 connections (the two-instance rounds split them) and 1 round")
        }
        let schema = "bench_\(Int(Date().timeIntervalSince1970))_\(UInt16.random(in: 0...UInt16.max))"
        let url = databaseURL + (databaseURL.contains("?") ? "&" : "?") + "schema=\(schema)"
        say("Two deltasync processes on one PostgreSQL schema (\(schema))")
        let a = try ServerProcess(database: url)
        var b = try ServerProcess(database: url)
        try await latency(a: a, b: b, mutations: mutations)
        b = try await throughput(a: a, b: b, url: url, creates: creates, connections: connections, rounds: rounds)
        b.stop()
        a.stop()
    }

    // MARK: - 1. Latency across instances

    private struct DeliveryFigures {
        var roundTrips: [Double] = []
        var firsts: [Double] = []
        var latencies: [Double] = []

        func report(_ title: String) {
            let (roundTrips, firsts, latencies) = (self.roundTrips.sorted(), self.firsts.sorted(), self.latencies.sorted())
            say("   \(title)")
            row("      mutation HTTP round trip, with the subscribers", figures(roundTrips))
            row("      mutation sent -> first of its events received", figures(firsts))
            row("      mutation sent -> event received, all deliveries", figures(latencies))
        }
    }

    private static func figures(_ sorted: [Double]) -> String {
        String(format: "p50 %6.2f ms   p99 %6.2f ms", percentile(sorted, 0.5), percentile(sorted, 0.99))
    }

    private static func latency(a: ServerProcess, b: ServerProcess, mutations: Int) async throws {
        // Warm-up: the store's pool opens its connections on the first requests.
        for _ in 0..<20 { try await createPost(port: a.port, n: nextNumber()) }
        var baseline: [Double] = []
        for _ in 0..<mutations {
            let sent = ContinuousClock.now
            try await createPost(port: a.port, n: nextNumber())
            baseline.append(milliseconds(ContinuousClock.now - sent))
        }
        baseline.sort()
        var local = DeliveryFigures()
        var across = DeliveryFigures()
        let blocks = 2
        for block in 0..<blocks {
            let count = mutations / blocks + (block < mutations % blocks ? 1 : 0)
            try await deliveries(subscribersOn: a, mutationsOn: a, count: count, into: &local)
            try await deliveries(subscribersOn: b, mutationsOn: a, count: count, into: &across)
        }
        say("1. Mutation-to-event latency, 1000 subscribers on 100 connections, \(mutations) mutations to A (PostgreSQL store)")
        row("   mutation HTTP round trip to A, no subscribers (baseline)", figures(baseline))
        local.report("subscribers on A, the instance written to (baseline: one instance)")
        across.report("subscribers on B, another instance on the same schema")
        say("   target (subscribers on B, all deliveries): p50 <= 5 ms, p99 <= 20 ms")
    }

    /// `count` mutations to one server with 1,000 subscribers on another (or the same), after
    /// 20 for warm-up; each mutation waits until every event of the one before arrived.
    private static func deliveries(
        subscribersOn subscribed: ServerProcess, mutationsOn written: ServerProcess, count: Int, into figures: inout DeliveryFigures
    ) async throws {
        let deliveries = Deliveries()
        let connectionCount = 100
        let perConnection = 10
        let expected = connectionCount * perConnection
        let (ready, markReady) = readiness(connectionCount)
        var clients: [any Channel] = []
        for _ in 0..<connectionCount {
            clients.append(try await Subscriber.connect(
                port: subscribed.port, subscriptions: perConnection, apiKey: apiKey, ready: markReady,
                received: { deliveries.record($0, at: $1) }))
        }
        for await _ in ready {}
        for _ in 0..<20 {
            _ = try await deliveries.await(expected) { try await createPost(port: written.port, n: nextNumber()) }
        }
        for _ in 0..<count {
            var sent = ContinuousClock.now
            var answered = ContinuousClock.now
            let n = nextNumber()
            let arrivals = try await deliveries.await(expected) {
                sent = ContinuousClock.now
                try await createPost(port: written.port, n: n)
                answered = ContinuousClock.now
            }
            figures.roundTrips.append(milliseconds(answered - sent))
            let times = arrivals.map { milliseconds($0 - sent) }
            figures.latencies += times
            figures.firsts.append(times.min() ?? 0)
        }
        for client in clients { try await client.close().get() }
    }

    // MARK: - 2. Throughput of one and of two instances

    /// Alternates A alone (B stopped) and A with B, `rounds` each; returns B, started again.
    private static func throughput(
        a: ServerProcess, b: ServerProcess, url: String, creates: Int, connections: Int, rounds: Int
    ) async throws -> ServerProcess {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        say("2. Creates over HTTP, \(creates) a round, \(connections) keep-alive connections in all (PostgreSQL store)")
        say("   round".padding(toLength: 40, withPad: " ", startingAt: 0) + "   creates/s   CPU in cores: A     B  client  rest  (machine busy)")
        var b: ServerProcess? = b
        var one: [Double] = []
        var two: [Double] = []
        for _ in 0..<rounds {
            b?.stop()
            b = nil
            let alone = try await createRate(servers: [a], client: client, creates: creates, connections: connections)
            one.append(alone.rate)
            say(alone.line("   one instance (A; B stopped)"))
            let started = try ServerProcess(database: url)
            b = started
            let shared = try await createRate(servers: [a, started], client: client, creates: creates, connections: connections)
            two.append(shared.rate)
            say(shared.line("   two instances (A and B, half each)"))
        }
        let ratios = zip(two, one).map { $0 / $1 }
        say("   two instances / one, per pair of rounds: " + ratios.map { String(format: "%.2fx", $0) }.joined(separator: ", ")
            + String(format: "; all rounds: %.2fx", two.reduce(0, +) / one.reduce(0, +)))
        say("   (writes of different items run at once; with both instances the machine's cores, shared with PostgreSQL, bound the rate: see the busy column)")
        try await client.shutdown()
        return b!
    }

    private struct Round {
        var rate: Double
        var usage: CPUUsage

        func line(_ title: String) -> String {
            title.padding(toLength: 40, withPad: " ", startingAt: 0)
                + String(format: "%10.0f               %5.2f %5.2f %5.2f   %5.2f  (%4.0f%%)",
                         rate, usage.servers[0], usage.servers.count > 1 ? usage.servers[1] : 0.0, usage.client, usage.rest,
                         100 * usage.machine / usage.cores)
        }
    }

    /// `creates` creates, worker `w` of `connections` sending to `servers[w % servers.count]`;
    /// after a warm-up of a tenth as many.
    private static func createRate(servers: [ServerProcess], client: HTTPClient, creates: Int, connections: Int) async throws -> Round {
        func createAll(_ count: Int) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<connections {
                    let port = servers[worker % servers.count].port
                    let share = count / connections + (worker < count % connections ? 1 : 0)
                    group.addTask {
                        for _ in 0..<share { try await createPost(port: port, n: nextNumber(), client: client) }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await createAll(max(connections, creates / 10))
        let start = CPUSnapshot(servers: servers)
        let seconds = try await BenchmarkSupport.seconds { try await createAll(creates) }
        let usage = CPUSnapshot(servers: servers).usage(since: start, seconds: seconds)
        return Round(rate: Double(creates) / seconds, usage: usage)
    }
}

// MARK: - CPU use

/// Cores used over a round: each server, this process (the HTTP client), and the rest of the
/// machine (PostgreSQL, and whatever else runs).
private struct CPUUsage {
    var servers: [Double]
    var client: Double
    var machine: Double
    var cores: Double
    var rest: Double { machine - servers.reduce(0, +) - client }
}

/// CPU seconds so far, from /proc.
private struct CPUSnapshot {
    var servers: [Double]
    var client: Double
    var machineBusy: Double

    private static let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))

    init(servers: [ServerProcess]) {
        self.servers = servers.map { Self.processSeconds("/proc/\($0.process.processIdentifier)/stat") }
        client = Self.processSeconds("/proc/self/stat")
        machineBusy = Self.machineBusySeconds()
    }

    func usage(since start: CPUSnapshot, seconds: Double) -> CPUUsage {
        CPUUsage(
            servers: zip(servers, start.servers).map { ($0 - $1) / seconds },
            client: (client - start.client) / seconds,
            machine: (machineBusy - start.machineBusy) / seconds,
            cores: Double(ProcessInfo.processInfo.activeProcessorCount))
    }

    /// utime + stime: the 14th and 15th fields, counted after the command name's `)`.
    private static func processSeconds(_ path: String) -> Double {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let end = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / ticks
    }

    /// All CPUs' time not idle nor waiting for I/O, from /proc/stat's first line.
    private static func machineBusySeconds() -> Double {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8), let line = text.split(separator: "\n").first else { return 0 }
        // user nice system idle iowait irq softirq steal; guest time is counted in user already.
        let values = Array(line.split(separator: " ").dropFirst().compactMap { Double($0) }.prefix(8))
        guard values.count > 4 else { return 0 }
        return (values.reduce(0, +) - values[3] - values[4]) / ticks
    }
}
