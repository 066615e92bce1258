import Testing

@testable import DeltaSyncGraphQL

/// The one timer behind every request's time limit (`DeadlineWatch`) and the race it serves
/// (`Deadline.race`).
@Suite struct DeadlineWatchTests {
    @Test("an entry runs once its limit passes; one removed before never runs")
    func expiresUnlessRemoved() async throws {
        let watch = DeadlineWatch()
        let (expired, continuation) = AsyncStream.makeStream(of: String.self)
        let removed = watch.add(after: .milliseconds(20)) { continuation.yield("removed") }
        _ = watch.add(after: .milliseconds(40)) { continuation.yield("kept") }
        watch.remove(removed)
        var events = expired.makeAsyncIterator()
        // Entries expire in the order of their limits: had the removed one run, it would be first.
        #expect(await events.next() == "kept")
        #expect(watch.count == 0)
    }

    @Test("an entry with an earlier limit than the one the watch sleeps for expires at its own")
    func earlierEntryWakesTheWatch() async throws {
        let watch = DeadlineWatch()
        let (expired, continuation) = AsyncStream.makeStream(of: String.self)
        let late = watch.add(after: .seconds(60)) { continuation.yield("late") }
        _ = watch.add(after: .milliseconds(20)) { continuation.yield("early") }
        var events = expired.makeAsyncIterator()
        #expect(await events.next() == "early")
        #expect(watch.count == 1)
        watch.remove(late)
        #expect(watch.count == 0)
    }

    @Test("many entries, most removed in time: exactly the others run, each once")
    func manyEntries() async throws {
        let watch = DeadlineWatch()
        let (expired, continuation) = AsyncStream.makeStream(of: Int.self)
        var kept: Set<Int> = []
        for n in 0..<200 {
            let entry = watch.add(after: .milliseconds(10 + n % 7)) { continuation.yield(n) }
            if n % 10 == 0 { kept.insert(n) } else { watch.remove(entry) }
        }
        var seen: [Int] = []
        for await n in expired {
            seen.append(n)
            if seen.count == kept.count { break }
        }
        #expect(Set(seen) == kept && seen.count == kept.count)
        #expect(watch.count == 0)
    }

    @Test("a race answers with the work's value in time, and with nil at the limit while the work is cancelled")
    func race() async throws {
        #expect(await Deadline.race(after: .seconds(30)) { 42 } == 42)
        let (cancelled, continuation) = AsyncStream.makeStream(of: Bool.self)
        let answer = await Deadline.race(after: .milliseconds(50)) { () -> Int in
            try? await Task.sleep(for: .seconds(60))
            continuation.yield(Task.isCancelled)
            return 1
        }
        #expect(answer == nil)
        var events = cancelled.makeAsyncIterator()
        #expect(await events.next() == true, "the work was cancelled, so it ended long before 60 s")
    }
}
