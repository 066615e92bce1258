import DeltaSyncClient
import Foundation
import Testing

/// `ModelStore` is what an app's own code depends on: a real `DataStore` behind it, or a fake in
/// the app's unit tests.
@Suite("ModelStore: the store behind a protocol apps replace in their tests")
struct ModelStoreTests {
    /// What an app's view model might do with whatever store it is given.
    static func publish(_ id: String, in store: any ModelStore) async throws -> Post? {
        guard var post = try await store.query(Post.self, byId: id) else { return nil }
        post.status = .published
        return try await store.save(post, where: nil)
    }

    /// A fake that keeps posts in a dictionary, as an app's test would write it.
    final class FakeStore: ModelStore, @unchecked Sendable {
        var posts: [String: Post] = [:]
        var saved: [String] = []
        func save<M: Model>(_ model: M, where condition: QueryPredicate?) async throws(DataStoreError) -> M {
            if let post = model as? Post {
                posts[post.id] = post
                saved.append(post.id)
            }
            return model
        }
        func query<M: Model>(_ type: M.Type, where predicate: QueryPredicate, sort: [QuerySortDescriptor], paginate: QueryPaginationInput?) async throws(DataStoreError) -> [M] {
            posts.values.compactMap { $0 as? M }
        }
        func query<M: Model>(_ type: M.Type, byId id: String) async throws(DataStoreError) -> M? { posts[id] as? M }
        func delete<M: Model>(_ model: M, where condition: QueryPredicate?) async throws(DataStoreError) {}
        func delete<M: Model>(_ type: M.Type, withId id: String, where condition: QueryPredicate?) async throws(DataStoreError) { posts[id] = nil }
        func start() async throws(DataStoreError) -> [ModelSyncedEvent] { [] }
        func stop() async {}
        func resume() {}
        func clear() async throws(DataStoreError) { posts = [:] }
    }

    @Test("the same code runs on a real store and on an app's fake")
    func realAndFake() async throws {
        let real = try DataStore(models: DeltaSyncModels.self, location: .inMemory, configuration: DataStoreConfiguration())
        _ = try await real.save(Post(id: "p1", blogID: "b1", title: "Draft"))
        #expect(try await Self.publish("p1", in: real)?.status == .published)
        #expect(try await real.query(Post.self, byId: "p1")?.status == .published)
        #expect(try await Self.publish("missing", in: real) == nil)

        let fake = FakeStore()
        fake.posts["p1"] = Post(id: "p1", blogID: "b1", title: "Draft")
        #expect(try await Self.publish("p1", in: fake)?.status == .published)
        #expect(fake.saved == ["p1"])
    }
}
