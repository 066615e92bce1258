import DeltaSyncAuth
import Foundation
import Testing

/// The memory of verified tokens and authorizer grants: entries end at their own expiry, and a
/// full cache drops expired entries, else the least recently used one, never everything.
@Suite struct ExpiringCacheTests {
    let start = Date(timeIntervalSince1970: 1_900_000_000)

    @Test func anEntryEndsAtItsOwnExpiry() {
        var cache = ExpiringCache<String, Int>(capacity: 4)
        cache.insert(1, for: "a", until: start.addingTimeInterval(10), now: start)
        #expect(cache.value(for: "a", now: start.addingTimeInterval(9.9)) == 1)
        #expect(cache.value(for: "a", now: start.addingTimeInterval(10)) == nil)
        #expect(cache.count == 0)
        cache.insert(2, for: "b", until: start, now: start)
        #expect(cache.count == 0, "an answer already expired is not kept")
    }

    @Test func aFullCacheDropsTheLeastRecentlyUsed() {
        var cache = ExpiringCache<String, Int>(capacity: 3)
        let later = start.addingTimeInterval(3600)
        for (value, key) in ["a", "b", "c"].enumerated() { cache.insert(value, for: key, until: later, now: start) }
        #expect(cache.value(for: "a", now: start) == 0)
        cache.insert(3, for: "d", until: later, now: start)
        #expect(cache.count == 3)
        #expect(cache.value(for: "b", now: start) == nil, "b was used least recently")
        #expect(cache.value(for: "a", now: start) == 0)
        #expect(cache.value(for: "c", now: start) == 2)
        #expect(cache.value(for: "d", now: start) == 3)
        // Many new keys push out the old ones one by one; the last `capacity` stay.
        for index in 0..<100 { cache.insert(index, for: "k\(index)", until: later, now: start) }
        #expect(cache.count == 3)
        #expect(cache.value(for: "k99", now: start) == 99)
        #expect(cache.value(for: "k97", now: start) == 97)
    }

    @Test func aFullCacheDropsExpiredEntriesBeforeLiveOnes() {
        var cache = ExpiringCache<String, Int>(capacity: 2)
        cache.insert(1, for: "short", until: start.addingTimeInterval(10), now: start)
        cache.insert(2, for: "long", until: start.addingTimeInterval(3600), now: start)
        // "short" is the most recently used, but expired by the time room is needed.
        #expect(cache.value(for: "short", now: start) == 1)
        cache.insert(3, for: "new", until: start.addingTimeInterval(3600), now: start.addingTimeInterval(20))
        #expect(cache.value(for: "long", now: start.addingTimeInterval(20)) == 2)
        #expect(cache.value(for: "new", now: start.addingTimeInterval(20)) == 3)
    }
}
