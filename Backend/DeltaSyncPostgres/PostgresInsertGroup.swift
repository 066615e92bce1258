import DequeModule
import NIOConcurrencyHelpers

/// Group commit for creates: requests that arrive while the database is busy with earlier ones
/// share one call, instead of queueing for a connection each.
///
/// At most ``calls`` calls run at once. A request that finds one free makes a call at once, with
/// whatever rows are waiting besides its own; otherwise it waits, and the next call to finish
/// hands the turn to the oldest waiting request, which takes the rows waiting by then. So a lone
/// request waits for nothing, and under load each call carries the rows that arrived during the
/// previous one: the database pays its per-call costs (a round trip, a transaction, a commit, a
/// lease from the pool, the lock and the floor read) once per group instead of once per create.
///
/// ```swift
/// let group = PostgresInsertGroup<Int, Int>(calls: 2, rowsPerCall: 64)
/// let doubled = try await group.submit(21) { rows in rows.map { $0 * 2 } }  // 42
/// ```
///
/// Every row of a call shares its outcome's fate: when `call` throws, every request in the call
/// gets the error. `call` must return one outcome per row, in order.
package final class PostgresInsertGroup<Row: Sendable, Outcome: Sendable>: Sendable {
    /// How many calls run at once.
    package let calls: Int
    /// The most rows one call carries.
    package let rowsPerCall: Int

    private enum Turn: Sendable {
        case done(Result<Outcome, any Error>)
        case lead
    }

    private struct Waiter: Sendable {
        let row: Row
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var running = 0
        var waiting = Deque<Waiter>()
    }

    private let state = NIOLockedValueBox(State())

    /// - Parameters:
    ///   - calls: how many calls run at once (at least 1).
    ///   - rowsPerCall: the most rows one call carries (at least 1).
    package init(calls: Int, rowsPerCall: Int) {
        self.calls = max(1, calls)
        self.rowsPerCall = max(1, rowsPerCall)
    }

    /// How many requests wait for a call now.
    package var waitingCount: Int { state.withLockedValue { $0.waiting.count } }
    /// How many calls run now.
    package var runningCount: Int { state.withLockedValue { $0.running } }

    /// `row`'s outcome, from a call of `call` with `row` among the rows it is given. A call
    /// that is not this request's own runs another request's `call`: pass the same function
    /// from every request.
    package func submit(_ row: Row, call: @Sendable ([Row]) async throws -> [Outcome]) async throws -> Outcome {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let leads = state.withLockedValue { state -> Bool in
                guard state.running < calls else {
                    state.waiting.append(Waiter(row: row, continuation: continuation))
                    return false
                }
                state.running += 1
                return true
            }
            if leads { continuation.resume(returning: .lead) }
        }
        switch turn {
        case .done(let result): return try result.get()
        case .lead: return try await lead(row, call: call)
        }
    }

    /// One call for `own` and the rows waiting now; then the turn passes to the oldest request
    /// still waiting, or the call's place is given back.
    private func lead(_ own: Row, call: @Sendable ([Row]) async throws -> [Outcome]) async throws -> Outcome {
        let riders = state.withLockedValue { state -> [Waiter] in
            let count = min(state.waiting.count, rowsPerCall - 1)
            defer { state.waiting.removeFirst(count) }
            return Array(state.waiting.prefix(count))
        }
        let outcomes: Result<[Outcome], any Error>
        do {
            let rows = [own] + riders.map(\.row)
            let answered = try await call(rows)
            guard answered.count == rows.count else {
                throw GroupCallMismatch(rows: rows.count, outcomes: answered.count)
            }
            outcomes = .success(answered)
        } catch {
            outcomes = .failure(error)
        }
        let next = state.withLockedValue { state -> Waiter? in
            if let next = state.waiting.popFirst() { return next }
            state.running -= 1
            return nil
        }
        next?.continuation.resume(returning: .lead)
        for (offset, rider) in riders.enumerated() {
            rider.continuation.resume(returning: .done(outcomes.map { $0[offset + 1] }))
        }
        return try outcomes.get()[0]
    }
}

/// A group call answered with another number of outcomes than it was given rows: a defect of
/// the call, reported to every request of it.
package struct GroupCallMismatch: Error, CustomStringConvertible {
    package let rows: Int
    package let outcomes: Int
    package var description: String { "a grouped insert of \(rows) rows answered \(outcomes) outcomes" }
}
