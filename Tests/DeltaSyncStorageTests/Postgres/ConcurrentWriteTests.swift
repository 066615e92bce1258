import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation
import NIOConcurrencyHelpers
import Testing

/// Writes of different items on one PostgreSQL schema run at once, and a sync's stamp waits for
/// every write in flight: the two halves of "Why `startedAt` is safe on PostgreSQL".
@Suite struct ConcurrentWriteTests {
    let post = Fixtures.post

    /// A write of `id` that stops inside its transaction (lock held, item stamped) until
    /// `release` is signalled; `entered` says it got there.
    static func heldWrite(
        _ store: PostgresItemStore, _ model: ModelSchema, id: String, entered: AsyncStream<Int>.Continuation, release: DispatchSemaphore
    ) -> Task<Int, any Error> {
        Task {
            try await store.write { tx in
                _ = try tx.get(model, key: ["id": .string(id)])
                let stamp = try tx.stampChange(now: 0)
                let item: Item = ["id": .string(id), "_version": 1, "_lastChangedAt": .int(stamp)]
                try tx.put(model, item)
                try tx.appendDelta(model, item: item, changedAt: stamp)
                entered.yield(stamp)
                release.wait()
                return stamp
            }
        }
    }

    /// Waits until some session waits for an advisory lock (a lock request not yet granted).
    static func untilALockIsAwaited(_ store: PostgresItemStore) async throws {
        for _ in 0..<400 {
            let waiting = try await store.waitingAdvisoryLocks()
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        Issue.record("no session ever waited for an advisory lock")
    }

    @Test("a write of another item runs while a write holds its item")
    func otherItemsRunAtOnce() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            try await PostgresCluster.withStore([post], schema: schema) { second in
                let (entered, enteredContinuation) = AsyncStream.makeStream(of: Int.self)
                let release = DispatchSemaphore(value: 0)
                let held = Self.heldWrite(first, post, id: "held", entered: enteredContinuation, release: release)
                var iterator = entered.makeAsyncIterator()
                _ = await iterator.next()
                // The other store writes another item and commits while the first still holds.
                try await second.put(post, [["id": "other", "_version": 1]])
                #expect(try await second.get(post, ["id": "other"])?["_version"] == 1)
                #expect(try await second.get(post, ["id": "held"]) == nil, "not committed yet")
                release.signal()
                _ = try await held.value
                #expect(try await second.get(post, ["id": "held"])?["_version"] == 1)
            }
        }
    }

    @Test("a sync's stamp waits for the write in flight, and the next write stamps above it")
    func syncStampWaitsForWrites() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            try await PostgresCluster.withStore([post], schema: schema) { second in
                let (entered, enteredContinuation) = AsyncStream.makeStream(of: Int.self)
                let release = DispatchSemaphore(value: 0)
                let order = NIOLockedValueBox<[String]>([])
                let held = Self.heldWrite(first, post, id: "inflight", entered: enteredContinuation, release: release)
                var iterator = entered.makeAsyncIterator()
                let writeStamp = await iterator.next() ?? 0
                let sync = Task {
                    let startedAt = try await second.stampSync(now: 0)
                    order.withLockedValue { $0.append("sync") }
                    // What the sync's first page would read: the write in flight is there.
                    let seen = try await second.get(post, ["id": "inflight"])
                    return (startedAt, seen)
                }
                try await Self.untilALockIsAwaited(second)
                order.withLockedValue { $0.append("write") }
                release.signal()
                _ = try await held.value
                let (startedAt, seen) = try await sync.value
                #expect(order.withLockedValue { $0 } == ["write", "sync"], "the stamp came after the write committed")
                #expect(seen?["_lastChangedAt"] == .int(writeStamp))
                // A write after the sync stamps above its startedAt, from either store.
                let later = try await first.write { tx in try tx.stampChange(now: 0) }
                #expect(later > startedAt)
            }
        }
    }

    @Test("an insert that starts while a sync's stamp holds the lock stamps above that stamp")
    func insertWaitsForTheSyncStamp() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            try await PostgresCluster.withStore([post], schema: schema) { second in
                let (entered, enteredContinuation) = AsyncStream.makeStream(of: Int.self)
                let release = DispatchSemaphore(value: 0)
                // A sync of the other process, an hour ahead of this one's clock, stopped after
                // its stamp and before its commit.
                let now = Int(Date().timeIntervalSince1970 * 1000)
                let sync = Task {
                    try await second.writeAlone { tx in
                        let stamp = try tx.stampChange(now: now + 3_600_000)
                        enteredContinuation.yield(stamp)
                        release.wait()
                        return stamp
                    }
                }
                var iterator = entered.makeAsyncIterator()
                let startedAt = await iterator.next() ?? 0
                // The insert's statement starts now, before the stamp commits: it must not
                // read the floor from its own snapshot.
                let insert = Task {
                    try await first.insert(post, key: ["id": "new"], now: now) { changedAt in
                        ["id": "new", "_version": 1, "_lastChangedAt": .int(changedAt)]
                    }
                }
                try await Self.untilALockIsAwaited(first)
                release.signal()
                #expect(try await sync.value == startedAt)
                let created = try await insert.value
                #expect(try #require(created?["_lastChangedAt"]?.intValue) > startedAt)
                let page = try await first.read { tx in try tx.deltas(post, DeltaQuery(since: startedAt)) }
                #expect(page.items.map { $0["id"] } == ["new"], "the next delta sync returns it")
            }
        }
    }

    @Test("inserts of one key from two processes at once: one stores it, the other gets nil")
    func oneInsertWinsAKey() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([post], schema: schema) { first in
            try await PostgresCluster.withStore([post], schema: schema) { second in
                let rounds = 40
                for round in 0..<rounds {
                    let id = "k\(round)"
                    async let a = first.insert(post, key: ["id": .string(id)], now: 0) { t in
                        ["id": .string(id), "title": "first", "_version": 1, "_lastChangedAt": .int(t)]
                    }
                    async let b = second.insert(post, key: ["id": .string(id)], now: 0) { t in
                        ["id": .string(id), "title": "second", "_version": 1, "_lastChangedAt": .int(t)]
                    }
                    let results = [try await a, try await b].compactMap { $0 }
                    #expect(results.count == 1)
                    #expect(try await first.get(post, ["id": .string(id)])?["title"] == results.first?["title"])
                }
                let deltas = try await first.read { tx in try tx.deltaCount(of: post) }
                #expect(deltas == rounds, "one delta row per stored item")
            }
        }
    }

    @Test("80 creates at once on one process, two of each key (a call can carry both): each key stored once, with one delta row")
    func groupedInserts() async throws {
        try await PostgresCluster.withStore([post], schema: PostgresCluster.uniqueSchema()) { store in
            let keys = 40
            // Each key twice, so that a call can carry both creates of one key.
            let results = try await withThrowingTaskGroup(of: (String, Item?).self) { tasks in
                for n in 0..<(2 * keys) {
                    let id = "k\(n % keys)"
                    tasks.addTask {
                        (id, try await store.insert(post, key: ["id": .string(id)], now: 0) { t in
                            ["id": .string(id), "title": .string("create \(n)"), "_version": 1, "_lastChangedAt": .int(t)]
                        })
                    }
                }
                return try await tasks.reduce(into: [String: [Item]]()) { stored, result in
                    if let item = result.1 { stored[result.0, default: []].append(item) }
                }
            }
            #expect(results.count == keys, "every key stored")
            #expect(results.values.allSatisfy { $0.count == 1 }, "by one create only")
            for (id, items) in results {
                #expect(try await store.get(post, ["id": .string(id)]) == items.first)
            }
            let deltas = try await store.deltaPages(post, DeltaQuery(since: 0)).flatMap(\.items)
            #expect(deltas.count == keys, "one delta row per stored item")
            #expect(Set(deltas.compactMap { $0["title"]?.stringValue }) == Set(results.values.compactMap { $0.first?["title"]?.stringValue }))
        }
    }
}
