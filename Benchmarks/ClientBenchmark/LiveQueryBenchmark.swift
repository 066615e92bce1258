import DeltaSyncClient
import Foundation
import Observation

/// How long after a save a SwiftUI view bound to a query sees the new results: from the start of
/// `save` until a `LiveQuery`'s `items` changed on the main actor, against the same from
/// `observeQuery`'s next snapshot reaching the main actor (the baseline: the snapshot machinery
/// the live query follows, without its comparison and its property update), and from the same
/// query run again in full (what each update cost before snapshots reused unchanged rows).
///
/// The query shows the 1,000 posts of one blog among 5,000, through the `byBlog` `@index`,
/// sorted by title; every save renames one of them, so every save changes the results. Rounds
/// alternate the two, each with only its own observer alive.
enum LiveQueryBenchmark {
    static let visible = 1_000
    static let predicate = Post.keys.blogID == "shown"
    static let sort: [QuerySortDescriptor] = [.ascending(Post.keys.title)]

    /// The store, with `visible` posts in the shown blog and four times as many elsewhere.
    static func store(in folder: URL) async throws -> DataStore {
        let store = try DataStore(models: DeltaSyncModels.self, location: .file(folder.appendingPathComponent("live.sqlite")))
        var records: [Item] = []
        for n in 0..<visible * 5 {
            var post = Post(id: "live-\(n)", blogID: n % 5 == 0 ? "shown" : "other-\(n % 5)", title: "Post \(n)", rating: n % 5).item
            post["_version"] = 1
            post["_lastChangedAt"] = .int(1_700_000_000_000 + n)
            records.append(post)
        }
        _ = try await store.applyRemote("Post", records: records)
        return store
    }

    /// A save that renames one shown post.
    static func rename(_ n: Int, in store: DataStore) async throws {
        let id = (n * 5) % (visible * 5)
        try await store.save(Post(id: "live-\(id)", blogID: "shown", title: "Post \(id) renamed \(n)", rating: id % 5))
    }

    /// Milliseconds from each save's start until the live query's `items` changed.
    @MainActor
    static func liveUpdates(_ store: DataStore, saves: Range<Int>) async throws -> [Double] {
        let live = store.liveQuery(Post.self, where: predicate, sort: sort)
        precondition(live.items.count == visible, "the live query shows \(live.items.count) posts")
        var times: [Double] = []
        for n in saves {
            let (changed, signal) = AsyncStream.makeStream(of: Void.self)
            withObservationTracking { _ = live.items } onChange: { signal.yield() }
            let start = ContinuousClock.now
            try await rename(n, in: store)
            for await _ in changed { break }
            times.append(milliseconds(ContinuousClock.now - start))
        }
        return times
    }

    /// Milliseconds from each save's start until the same query, run again in full by
    /// `DataStore.query`, returned: what every update cost before the snapshots reused the
    /// models of unchanged rows.
    @MainActor
    static func requeries(_ store: DataStore, saves: Range<Int>) async throws -> [Double] {
        var times: [Double] = []
        for n in saves {
            let start = ContinuousClock.now
            try await rename(n, in: store)
            let posts = try await store.query(Post.self, where: predicate, sort: sort)
            precondition(posts.count == visible)
            times.append(milliseconds(ContinuousClock.now - start))
        }
        return times
    }

    /// Milliseconds from each save's start until `observeQuery`'s next snapshot.
    @MainActor
    static func snapshotUpdates(_ store: DataStore, saves: Range<Int>) async throws -> [Double] {
        var snapshots = store.observeQuery(for: Post.self, where: predicate, sort: sort).makeAsyncIterator()
        let first = try await snapshots.next()
        precondition(first?.items.count == visible, "the snapshot shows \(first?.items.count ?? 0) posts")
        var times: [Double] = []
        for n in saves {
            let start = ContinuousClock.now
            try await rename(n, in: store)
            _ = try await snapshots.next()
            times.append(milliseconds(ContinuousClock.now - start))
        }
        return times
    }
}
