import Foundation

/// Answers remembered until their own expiry, at most ``capacity`` of them: when full, the
/// expired ones are dropped, else the least recently used one. A flood of new keys therefore
/// pushes out only what nobody asked for lately, never everything at once.
///
/// Used for verified tokens (``TokenAuthenticator``) and a Lambda authorizer's grants
/// (``LambdaAuthorizer``); callers hold it under their own lock.
///
/// ```swift
/// var cache = ExpiringCache<String, Identity>(capacity: 10_000)
/// cache.insert(identity, for: token, until: expiry, now: now)
/// cache.value(for: token, now: now)   // the identity until `expiry`, then nil
/// ```
package struct ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// An entry in the recency list: `newer`/`older` are indexes into ``nodes`` (-1 for none).
    private struct Node: Sendable {
        var key: Key
        var value: Value
        var until: Date
        var newer: Int
        var older: Int
    }

    /// The most entries kept.
    package let capacity: Int
    private var nodes: [Node] = []
    private var index: [Key: Int] = [:]
    private var unused: [Int] = []
    private var newest = -1
    private var oldest = -1
    /// No entry expires before this: a full cache looks for expired entries only after it.
    private var earliestExpiry = Date.distantFuture

    package init(capacity: Int) {
        precondition(capacity > 0, "an ExpiringCache holds at least one entry")
        self.capacity = capacity
    }

    /// How many entries are held, expired ones not yet dropped included.
    package var count: Int { index.count }

    /// The value for `key` if it has not expired at `now` (it becomes the most recently used);
    /// an expired one is dropped.
    package mutating func value(for key: Key, now: Date) -> Value? {
        guard let position = index[key] else { return nil }
        guard now < nodes[position].until else {
            remove(position)
            return nil
        }
        unlink(position)
        pushNewest(position)
        return nodes[position].value
    }

    /// Remembers `value` for `key` until `until`, replacing what `key` held. Nothing is kept
    /// when `until` is not after `now`.
    package mutating func insert(_ value: Value, for key: Key, until: Date, now: Date) {
        if let position = index[key] { remove(position) }
        guard until > now else { return }
        if index.count >= capacity { makeRoom(now: now) }
        let node = Node(key: key, value: value, until: until, newer: -1, older: -1)
        let position: Int
        if let reused = unused.popLast() {
            nodes[reused] = node
            position = reused
        } else {
            nodes.append(node)
            position = nodes.count - 1
        }
        index[key] = position
        pushNewest(position)
        earliestExpiry = min(earliestExpiry, until)
    }

    /// Forgets `key`.
    package mutating func removeValue(for key: Key) {
        if let position = index[key] { remove(position) }
    }

    /// Drops the expired entries, or when none has expired, the least recently used one.
    private mutating func makeRoom(now: Date) {
        if now >= earliestExpiry {
            var earliest = Date.distantFuture
            for position in Array(index.values) {
                if nodes[position].until <= now {
                    remove(position)
                } else {
                    earliest = min(earliest, nodes[position].until)
                }
            }
            earliestExpiry = earliest
        }
        if index.count >= capacity, oldest >= 0 { remove(oldest) }
    }

    private mutating func remove(_ position: Int) {
        unlink(position)
        index[nodes[position].key] = nil
        unused.append(position)
    }

    private mutating func unlink(_ position: Int) {
        let (newer, older) = (nodes[position].newer, nodes[position].older)
        if newer >= 0 { nodes[newer].older = older } else { newest = older }
        if older >= 0 { nodes[older].newer = newer } else { oldest = newer }
        nodes[position].newer = -1
        nodes[position].older = -1
    }

    private mutating func pushNewest(_ position: Int) {
        nodes[position].older = newest
        nodes[position].newer = -1
        if newest >= 0 { nodes[newest].newer = position }
        newest = position
        if oldest < 0 { oldest = position }
    }
}
