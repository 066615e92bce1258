import DeltaSyncClient
import Foundation
import Observation
import Testing

/// What a SwiftUI view bound to a `LiveQuery` would show, and how often it would be redrawn.
@MainActor
@Suite("LiveQuery: an @Observable query for SwiftUI", .timeLimit(.minutes(1)))
struct LiveQueryTests {
    @Test("the first results are there when liveQuery returns, with no await in between")
    func firstResultsAtOnce() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", rating: 5))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Two", rating: 1))
        try await store.save(Post(id: "p3", blogID: "b1", title: "Three", rating: 4))
        let posts = store.liveQuery(Post.self, where: Post.keys.rating >= 3, sort: [.descending(Post.keys.rating)])
        #expect(posts.items.map(\.id) == ["p1", "p3"])
        #expect(!posts.isSynced)
        #expect(posts.error == nil)
    }

    @Test("a save that changes the results redraws a view once, with the new results")
    func saveRedrawsOnce() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", rating: 5))
        let posts = store.liveQuery(Post.self, where: Post.keys.rating >= 3, sort: [.ascending(Post.keys.id)])
        let redraws = Redraws { _ = posts.items }

        try await store.save(Post(id: "p2", blogID: "b1", title: "Two", rating: 4))
        await redraws.wait(for: 1)
        #expect(posts.items.map(\.id) == ["p1", "p2"])
        // The next change is the second redraw: the save above made one, not two.
        try await store.delete(Post.self, withId: "p1")
        await redraws.wait(for: 2)
        #expect(redraws.count == 2)
        #expect(posts.items.map(\.id) == ["p2"])
    }

    @Test("a save that leaves the results as they were does not redraw")
    func unrelatedSaveDoesNotRedraw() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", rating: 5))
        let posts = store.liveQuery(Post.self, where: Post.keys.rating >= 3)
        let redraws = Redraws { _ = posts.items; _ = posts.isSynced }

        try await store.save(Blog(id: "b1", name: "Another model"))
        try await store.save(Post(id: "low", blogID: "b1", title: "Not matching", rating: 1))
        try await store.save(Post(id: "p1", blogID: "b1", title: "One", rating: 5))  // saved again unchanged
        // Updates arrive in commit order: had any of the three redrawn, this would be the second.
        try await store.save(Post(id: "p1", blogID: "b1", title: "One, edited", rating: 5))
        await redraws.wait(for: 1)
        #expect(posts.items.map(\.title) == ["One, edited"])
        #expect(redraws.count == 1)
    }

    @Test("remote changes update the query as local ones do, and finishing the sync sets isSynced alone")
    func remoteChangesAndSyncState() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        let posts = store.liveQuery(Post.self, sort: [.ascending(Post.keys.id)])
        let itemRedraws = Redraws { _ = posts.items }
        let syncRedraws = Redraws { _ = posts.isSynced }
        var record = Post(id: "r1", blogID: "b1", title: "From the backend").item
        record["_version"] = 1
        record["_lastChangedAt"] = 1_700_000_000_000
        _ = try await store.applyRemote("Post", records: [record])
        await itemRedraws.wait(for: 1)
        #expect(posts.items.map(\.title) == ["From the backend"])

        store.store.modelSynced("Post")
        await syncRedraws.wait(for: 1)
        #expect(posts.isSynced)
        #expect(itemRedraws.count == 1, "a view that reads only items is not redrawn when isSynced changes")
    }

    @Test("changing the filter or order shows the new results at once and follows the new query only")
    func changeFollowsTheNewQuery() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        try await store.save(Post(id: "p1", blogID: "b1", title: "Swift on the server", rating: 5))
        try await store.save(Post(id: "p2", blogID: "b1", title: "Gardening", rating: 2))
        try await store.save(Post(id: "p3", blogID: "b1", title: "Swift and SQLite", rating: 3))
        let posts = store.liveQuery(Post.self, sort: [.ascending(Post.keys.id)])

        #expect(Self.redraws(posts) { posts.change(where: Post.keys.title.contains("Swift")) })
        #expect(posts.items.map(\.id) == ["p1", "p3"], "the new results are there when change returns")
        #expect(posts.predicate == Post.keys.title.contains("Swift"))
        // The same items in the same order, and the same query again, do not redraw.
        #expect(!Self.redraws(posts) { posts.change(sort: [.descending(Post.keys.rating)]) })
        #expect(posts.sort == [.descending(Post.keys.rating)])
        #expect(Self.redraws(posts) { posts.change(sort: [.ascending(Post.keys.rating)]) })
        #expect(posts.items.map(\.id) == ["p3", "p1"])
        #expect(!Self.redraws(posts) { posts.change(where: Post.keys.title.contains("Swift"), sort: [.ascending(Post.keys.rating)]) })

        // A save only the old query matched leaves the results alone; one the new query matches
        // shows, and is the first redraw: updates arrive in commit order.
        let redraws = Redraws { _ = posts.items }
        try await store.save(Post(id: "p4", blogID: "b1", title: "Gardening again", rating: 1))
        try await store.save(Post(id: "p5", blogID: "b1", title: "Swift concurrency", rating: 4))
        await redraws.wait(for: 1)
        #expect(posts.items.map(\.id) == ["p3", "p5", "p1"])
        #expect(redraws.count == 1)
    }

    /// Whether `change` told a view that reads `items` to redraw (observers are told as the
    /// property is set, on this thread).
    static func redraws(_ posts: LiveQuery<Post>, _ change: () -> Void) -> Bool {
        let told = ToldFlag()
        withObservationTracking { _ = posts.items } onChange: { told.set() }
        change()
        return told.isSet
    }

    @Test("releasing the query stops its updates and unsubscribes it from the store")
    func releaseStops() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        var posts: LiveQuery<Post>? = store.liveQuery(Post.self)
        weak let released = posts
        #expect(store.store.hasObservers)
        posts = nil
        #expect(released == nil, "its own task does not keep it alive")
        let deadline = ContinuousClock.now + .seconds(10)
        while store.store.hasObservers, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(!store.store.hasObservers)
        try await store.save(Post(id: "p1", blogID: "b1", title: "Saved after"))
        #expect(try await store.query(Post.self).count == 1)
    }

    @Test("a query the store cannot run shows no results and says why")
    func failedQuery() async throws {
        let store = try DataStore(models: DeltaSyncModels.self)
        let posts = store.liveQuery(Post.self, sort: [QuerySortDescriptor(field: "noSuchField", order: .ascending)])
        #expect(posts.items.isEmpty)
        #expect(posts.error?.description.contains("noSuchField") == true)
    }
}

/// The times SwiftUI would redraw a view whose body runs `body`: Observation's change
/// callbacks, tracked again after each (as SwiftUI does when it redraws).
@MainActor
final class Redraws {
    private(set) var count = 0
    private let body: @MainActor () -> Void
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ body: @escaping @MainActor () -> Void) {
        self.body = body
        track()
    }

    private func track() {
        withObservationTracking { body() } onChange: { Task { @MainActor in self.redraw() } }
    }

    private func redraw() {
        count += 1
        track()
        let resumed = waiting
        waiting = []
        for continuation in resumed { continuation.resume() }
    }

    /// Returns once the view was redrawn `count` times in all.
    func wait(for count: Int) async {
        while self.count < count { await withCheckedContinuation { waiting.append($0) } }
    }
}

/// Set by an observation's `onChange`, which runs on the thread that made the change.
final class ToldFlag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
