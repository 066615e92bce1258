import DeltaSyncPostgres
import NIOConcurrencyHelpers
import Testing

/// `PostgresInsertGroup`, with calls that stand in for the database: who calls, with which rows,
/// and who gets which outcome.
@Suite struct InsertGroupTests {
    /// A call that records the rows it got and waits until the test lets it finish.
    final class HeldCalls: Sendable {
        let calls = NIOLockedValueBox<[[Int]]>([])
        let (started, startedContinuation) = AsyncStream.makeStream(of: [Int].self)
        let (releases, releaseContinuation) = AsyncStream.makeStream(of: Void.self)

        /// Doubles each row, once released.
        @Sendable func call(_ rows: [Int]) async throws -> [Int] {
            calls.withLockedValue { $0.append(rows) }
            startedContinuation.yield(rows)
            for await _ in releases { break }
            return rows.map { $0 * 2 }
        }

        func release() { releaseContinuation.yield() }
    }

    /// Submits `rows` while a call runs, each once the one before waits, so that they queue in
    /// order; their outcomes by row.
    static func submitInOrder(
        _ rows: ClosedRange<Int>, to group: PostgresInsertGroup<Int, Int>, call: @escaping @Sendable ([Int]) async throws -> [Int]
    ) -> Task<[Int: Int], any Error> {
        Task {
            try await withThrowingTaskGroup(of: (Int, Int).self) { tasks in
                let waiting = group.waitingCount
                for (offset, row) in rows.enumerated() {
                    tasks.addTask { (row, try await group.submit(row, call: call)) }
                    await untilWaiting(group, waiting + offset + 1)
                }
                return try await tasks.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
        }
    }

    /// Waits until `group` holds `count` requests waiting for a call.
    static func untilWaiting(_ group: PostgresInsertGroup<Int, Int>, _ count: Int) async {
        while group.waitingCount < count { await Task.yield() }
    }

    @Test("a lone request makes its own call at once, with its row only")
    func loneRequest() async throws {
        let group = PostgresInsertGroup<Int, Int>(calls: 2, rowsPerCall: 64)
        let calls = NIOLockedValueBox<[[Int]]>([])
        let outcome = try await group.submit(21) { rows in
            calls.withLockedValue { $0.append(rows) }
            return rows.map { $0 * 2 }
        }
        #expect(outcome == 42)
        #expect(calls.withLockedValue { $0 } == [[21]])
    }

    @Test("requests that arrive during a call share the next one, in their order, each with its own outcome")
    func waitingRequestsShareTheNextCall() async throws {
        let group = PostgresInsertGroup<Int, Int>(calls: 1, rowsPerCall: 64)
        let held = HeldCalls()
        var started = held.started.makeAsyncIterator()
        async let first = group.submit(1, call: held.call)
        #expect(await started.next() == [1])
        let later = Self.submitInOrder(2...6, to: group, call: held.call)
        await Self.untilWaiting(group, 5)
        held.release()
        #expect(try await first == 2)
        #expect(await started.next() == [2, 3, 4, 5, 6])
        held.release()
        #expect(try await later.value == [2: 4, 3: 6, 4: 8, 5: 10, 6: 12])
        #expect(held.calls.withLockedValue { $0.count } == 2)
    }

    @Test("a call carries at most rowsPerCall rows; the rest go in the calls after it")
    func rowsPerCall() async throws {
        let group = PostgresInsertGroup<Int, Int>(calls: 1, rowsPerCall: 2)
        let held = HeldCalls()
        var started = held.started.makeAsyncIterator()
        async let first = group.submit(0, call: held.call)
        #expect(await started.next() == [0])
        let later = Self.submitInOrder(1...5, to: group, call: held.call)
        await Self.untilWaiting(group, 5)
        for _ in 0..<4 { held.release() }
        #expect(try await first == 0)
        #expect(try await later.value == [1: 2, 2: 4, 3: 6, 4: 8, 5: 10])
        #expect(held.calls.withLockedValue { $0 } == [[0], [1, 2], [3, 4], [5]])
    }

    struct Refused: Error, Equatable {}

    @Test("when a call fails, every request of it gets the error, and the next call still runs")
    func failedCall() async throws {
        let group = PostgresInsertGroup<Int, Int>(calls: 1, rowsPerCall: 64)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let failing = Task {
            try await group.submit(1) { rows in
                for await _ in gate { break }
                throw Refused()
            }
        }
        await Self.untilRunning(group)
        let riders = (2...3).map { row in
            Task { try await group.submit(row) { _ in throw Refused() } }
        }
        await Self.untilWaiting(group, 2)
        open.yield()
        await #expect(throws: Refused.self) { try await failing.value }
        // The turn passed to request 2, whose own call (with 3) failed too.
        for rider in riders { await #expect(throws: Refused.self) { try await rider.value } }
        #expect(try await group.submit(7) { rows in rows } == 7)
    }

    @Test("a call answering another number of outcomes than rows fails each of its requests")
    func mismatch() async throws {
        let group = PostgresInsertGroup<Int, Int>(calls: 1, rowsPerCall: 64)
        await #expect(throws: GroupCallMismatch.self) { try await group.submit(1) { _ in [] } }
    }

    @Test("many requests at once: never more calls than allowed, and every row gets its own outcome")
    func manyAtOnce() async throws {
        let group = PostgresInsertGroup<Int, Int>(calls: 2, rowsPerCall: 8)
        let running = NIOLockedValueBox((now: 0, most: 0))
        let rowsSeen = NIOLockedValueBox(0)
        let outcomes = try await withThrowingTaskGroup(of: (Int, Int).self) { tasks in
            for row in 0..<500 {
                tasks.addTask {
                    (row, try await group.submit(row) { rows in
                        running.withLockedValue { $0.now += 1; $0.most = max($0.most, $0.now) }
                        rowsSeen.withLockedValue { $0 += rows.count }
                        await Task.yield()
                        running.withLockedValue { $0.now -= 1 }
                        return rows.map { -$0 }
                    })
                }
            }
            return try await tasks.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
        }
        #expect(outcomes.count == 500)
        #expect(outcomes.allSatisfy { $0.value == -$0.key })
        #expect(rowsSeen.withLockedValue { $0 } == 500, "each row in exactly one call")
        #expect(running.withLockedValue { $0.most } <= 2)
        #expect(group.waitingCount == 0 && group.runningCount == 0)
    }

    static func untilRunning(_ group: PostgresInsertGroup<Int, Int>) async {
        while group.runningCount == 0 { await Task.yield() }
    }
}
