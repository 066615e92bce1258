import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTestSupport
import DeltaSyncTesting
import Foundation
import Testing

/// Several devices make random changes to a few shared posts while their networks come and go;
/// once every device is back online and has sent its outbox, each one holds exactly what the
/// server holds.
///
/// CI runs one fixed seed per conflict handler. For many seeds (one at a time, each run needs
/// the machine to itself to keep its timing realistic):
/// `DELTASYNC_CONVERGENCE_SEEDS=200 swift test --filter ConvergenceTests` (seeds 1...200), or a
/// comma-separated list to replay particular ones.
@Suite("Randomized convergence", .serialized)
struct ConvergenceTests {
    static let seeds: [UInt64] = {
        guard let value = ProcessInfo.processInfo.environment["DELTASYNC_CONVERGENCE_SEEDS"] else { return [20_261_123] }
        if !value.contains(","), let count = UInt64(value) { return Array(1...max(count, 1)) }
        return value.split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
    }()

    static let handlers: [ConflictHandlerKind] = [.automerge, .optimisticConcurrency]
    static let deviceCount = 3
    static let steps = 80
    /// Few ids, so devices keep touching the same posts.
    static let ids = (1...8).map { "post-\($0)" }

    @Test("devices changing shared posts while going offline and online end up equal to the server", arguments: handlers, seeds)
    func devicesConverge(handler: ConflictHandlerKind, seed: UInt64) async throws {
        try await SyncServer.run({ $0.conflictHandler = handler }) { server in
            try await Self.converge([server], handler: handler, seed: seed)
        }
    }

    /// The same on two `deltasync serve` processes sharing one PostgreSQL database, as behind a
    /// load balancer: each device syncs with one of them, so conflicts and events cross between
    /// the instances.
    @Test("devices on two instances of one PostgreSQL database end up equal to the server", arguments: handlers, seeds)
    func devicesOnTwoInstancesConverge(handler: ConflictHandlerKind, seed: UInt64) async throws {
        let flag = handler == .automerge ? "automerge" : "optimistic"
        try await SyncServer.runProcesses(count: 2, arguments: ["--conflict-handler", flag]) { servers in
            try await Self.converge(servers, handler: handler, seed: seed)
        }
    }

    /// Device `n` syncs with `servers[n % servers.count]`.
    static func converge(_ servers: [SyncServer], handler: ConflictHandlerKind, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let server = servers[0]
        do {
            var links: [NetworkLink] = []
            var devices: [DataStore] = []
            var logs: [EventLog] = []
            for n in 0..<Self.deviceCount {
                let server = servers[n % servers.count]
                let link = try await NetworkLink(to: server.port)
                let device = try server.device(through: link)
                links.append(link)
                devices.append(device)
                logs.append(EventLog(device))
            }
            for device in devices { try await device.start() }
            var online = [Bool](repeating: true, count: Self.deviceCount)

            for step in 0..<Self.steps {
                let n = Int.random(in: 0..<Self.deviceCount, using: &random)
                let device = devices[n]
                let id = Self.ids.randomElement(using: &random)!
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<12:
                    online[n].toggle()
                    if online[n] { links[n].goOnline() } else { links[n].goOffline() }
                case 12..<40:
                    try await device.save(Post(id: id, blogID: "b1", title: "created by \(n) at \(step)", rating: step % 5))
                case 40..<70:
                    guard var post = try await device.query(Post.self, byId: id) else { continue }
                    if Bool.random(using: &random) { post.title = "edited by \(n) at \(step)" } else { post.rating = step }
                    try await device.save(post)
                case 70..<85:
                    try await device.delete(Post.self, withId: id)
                default:
                    if online[n] { try await logs[n].waitForEmptyOutbox(of: device) }
                }
            }

            for link in links { link.goOnline() }
            // Sending one outbox can make another device's conflict; go round until all are empty.
            var pending = true
            while pending {
                for (device, log) in zip(devices, logs) { try await log.waitForEmptyOutbox(of: device) }
                pending = false
                for device in devices where try await !device.pendingMutations().isEmpty { pending = true }
            }

            let expected = try await server.items("listPosts", selection: "id title rating").map(Self.summary).sorted()
            for (n, (device, log)) in zip(devices, logs).enumerated() {
                while true {
                    let received = log.occurrences(Self.received)
                    let local = try await device.query(Post.self).map { Self.summary($0.item) }.sorted()
                    if local == expected { break }
                    do {
                        try await log.wait(for: "device \(n) to converge", occurrences: received + 1, timeout: .seconds(20), Self.received)
                    } catch {
                        let differing = Set(local).symmetricDifference(expected).map { String($0.prefix { $0 != " " }) }
                        let history = log.events.filter { event in differing.contains { "\(event)".contains("\"\($0)\"") } }
                        Issue.record("seed \(seed), \(handler): device \(n) holds \(local), the server \(expected); its events for those: \(history)")
                        throw error
                    }
                }
            }
            for link in links { await link.close() }
        }
    }

    static let received: EventLog.Match = { if case .syncReceived = $0 { true } else { false } }

    static func summary(_ item: Item) -> String {
        "\(item["id"]?.stringValue ?? "?") \(item["title"]?.stringValue ?? "-") \(item["rating"]?.intValue.map(String.init) ?? "-")"
    }
}
