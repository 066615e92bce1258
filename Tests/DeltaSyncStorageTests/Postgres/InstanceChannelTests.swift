import DeltaSyncPostgresTestSupport
import DeltaSyncStorage
import Testing

@testable import DeltaSyncPostgres

/// The payloads of PostgreSQL's instance channel: several messages per notification.
@Suite struct ChannelPayloadTests {
    func roundTrip(_ messages: [String], limit: Int = PostgresInstanceChannel.inlineLimit) -> [ChannelPayload] {
        var packer = PayloadPacker(origin: "o1")
        packer.limit = limit
        for (offset, message) in messages.enumerated() { packer.add(message, number: 10 + offset) }
        return packer.finish().map { ChannelPayload($0)! }
    }

    static func texts(_ payload: ChannelPayload) -> [String] {
        guard case .inline(let texts) = payload.body else { return [] }
        return texts
    }

    @Test("consecutive messages share a payload and come back whole, in order, numbered from the first")
    func packs() {
        let messages = ["{\"a\":1}", "", "héllo wörld ✓", "with spaces and , commas", "{\"m\":\"onCreatePost\"}"]
        let payloads = roundTrip(messages)
        #expect(payloads == [ChannelPayload(origin: "o1", first: 10, body: .inline(messages))])
        #expect(payloads.first?.count == 5)
    }

    @Test("a payload holds messages up to the limit; the next starts a payload numbered after them")
    func splitsAtTheLimit() {
        let messages = (0..<10).map { String(repeating: "x", count: 92) + "\($0)" }  // 93 bytes + 8 each
        let payloads = roundTrip(messages, limit: 310)
        #expect(payloads.map(\.first) == [10, 13, 16, 19])
        #expect(payloads.map(\.count) == [3, 3, 3, 1])
        #expect(payloads.flatMap(Self.texts) == messages)
        // Every payload stays under NOTIFY's limit at the real limit, a full one too.
        var packer = PayloadPacker(origin: String(UInt64.max, radix: 36))
        for n in 0..<1_000 { packer.add(String(repeating: "é", count: n % 50), number: Int.max - 2_000 + n) }
        #expect(packer.finish().allSatisfy { $0.utf8.count < 8_000 })
    }

    @Test("a stored message and a gap in the numbers each end a payload")
    func storedAndGaps() {
        var packer = PayloadPacker(origin: "o1")
        packer.add("a", number: 1)
        packer.add("b", number: 2)
        packer.addStored(id: 99, number: 3)
        packer.add("c", number: 4)
        packer.add("d", number: 6)  // 5 was not sent
        #expect(packer.finish() == ["o1 1 m 1,1 ab", "o1 3 r 99", "o1 4 i c", "o1 6 i d"])
    }

    @Test("a payload in none of the forms is refused, not misread", arguments: [
        "", "o1", "o1 x i text", "o1 1 q text", "o1 1 r notanumber", "o1 1 m 1,2 abcd", "o1 1 m 1,x ab", "o1 1 m 2 ab",
        "o1 1 m ab", " 1 i text",
    ])
    func refusesOthers(payload: String) {
        #expect(ChannelPayload(payload) == nil)
    }
}

/// Two members of one channel on one PostgreSQL schema, as two server processes are.
@Suite struct InstanceChannelTests {
    @Test("a burst of messages, long ones among them, reaches the other member whole, in order, each once; a member never hears its own")
    func burst() async throws {
        let schema = PostgresCluster.uniqueSchema()
        try await PostgresCluster.withStore([Fixtures.post], schema: schema) { first in
            try await PostgresCluster.withStore([Fixtures.post], schema: schema) { second in
                let sender = first.instanceChannel(named: "events")
                let receiver = second.instanceChannel(named: "events")
                let (heard, heardContinuation) = AsyncStream.makeStream(of: String.self)
                let (own, ownContinuation) = AsyncStream.makeStream(of: String.self)
                let running = [
                    Task { await sender.run { ownContinuation.yield($0) } },
                    Task { await receiver.run { heardContinuation.yield($0) } },
                ]
                #expect(await sender.waitUntilReceiving(limit: .seconds(10)))
                #expect(await receiver.waitUntilReceiving(limit: .seconds(10)))
                let messages = (0..<600).map { n in
                    n % 150 == 7 ? String(repeating: "ü", count: 6_000) + "\(n)" : #"{"n":\#(n),"text":"événement \#(n)"}"#
                }
                // A guard, not a wait: had a message been lost, the loop below would end here.
                let guardTask = Task {
                    try await Task.sleep(for: .seconds(60))
                    heardContinuation.finish()
                }
                for message in messages { sender.send(message) }
                var received: [String] = []
                for await message in heard {
                    received.append(message)
                    if received.count == messages.count { break }
                }
                guardTask.cancel()
                #expect(received == messages)
                // The receiver's own message comes back to the sender; the sender's own never did.
                receiver.send("from the receiver")
                var ownIterator = own.makeAsyncIterator()
                #expect(await ownIterator.next() == "from the receiver")
                running.forEach { $0.cancel() }
                for task in running { await task.value }
            }
        }
    }

    /// A server asks whether the channel receives as it starts, and may be stopped at once: the
    /// question must be answered however the start ends, or the server's shutdown waits on it.
    @Test("a wait is answered when its task is cancelled, when the channel stops, and at its limit", .timeLimit(.minutes(1)))
    func waitsEnd() async throws {
        try await PostgresCluster.withStore([Fixtures.post]) { store in
            let channel = store.instanceChannel(named: "events")
            // Never run: nothing will receive. Cancelled before and while it waits.
            let cancelledFirst = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await channel.waitUntilReceiving(limit: .seconds(600))
            }
            #expect(await cancelledFirst.value == false)
            let cancelledLater = Task { await channel.waitUntilReceiving(limit: .seconds(600)) }
            cancelledLater.cancel()
            #expect(await cancelledLater.value == false)
            #expect(await channel.waitUntilReceiving(limit: .milliseconds(50)) == false)
            // Run, received, stopped: a later wait is answered at once.
            let running = Task { await channel.run { _ in } }
            #expect(await channel.waitUntilReceiving(limit: .seconds(600)))
            running.cancel()
            await running.value
            #expect(await channel.waitUntilReceiving(limit: .seconds(600)) == false)
        }
    }

    /// A server stopped while its events are being sent: the listener closes its connection, on
    /// which the sender sends. A send that started on it after it closed was never answered
    /// (postgres-nio drops it), and the server's shutdown waited for it for ever.
    @Test("a channel stopped while it sends stops: no send waits on the connection the listener closed")
    func stopsWhileSending() async throws {
        try await PostgresCluster.withStore([Fixtures.post]) { store in
            for round in 0..<40 {
                let channel = store.instanceChannel(named: "events")
                let (ended, endedContinuation) = AsyncStream.makeStream(of: Bool.self)
                let running = Task {
                    await channel.run { _ in }
                    endedContinuation.yield(true)
                }
                #expect(await channel.waitUntilReceiving(limit: .seconds(10)))
                let sending = Task {
                    var n = 0
                    while !Task.isCancelled {
                        channel.send(#"{"round":\#(round),"n":\#(n)}"#)
                        n += 1
                        await Task.yield()
                    }
                }
                try await Task.sleep(for: .milliseconds(round % 5 * 3))
                running.cancel()
                // Not awaited: a hung run would hang the test too; the guard answers instead.
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(20))
                    endedContinuation.yield(false)
                }
                var iterator = ended.makeAsyncIterator()
                let stopped = await iterator.next() ?? false
                watchdog.cancel()
                sending.cancel()
                await sending.value
                #expect(stopped, "round \(round): the channel's run did not return within 20 s of its cancellation")
                guard stopped else { return }
            }
        }
    }
}
