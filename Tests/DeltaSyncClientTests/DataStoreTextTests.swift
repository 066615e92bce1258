import DeltaSyncClient
import Foundation
import Testing

@Suite("DataStore: text the local store must keep exactly")
struct DataStoreTextTests {
    let store: DataStore

    init() throws {
        store = try DataStore(models: DeltaSyncModels.self)
    }

    @Test("an id or index value with a NUL is refused: it would name the item before the NUL")
    func nulInKeyIsRefused() async throws {
        try await store.save(Post(id: "victim", blogID: "b1", title: "Mine"))
        await #expect(throws: DataStoreError.self) {
            try await store.save(Post(id: "victim\u{0}anything", blogID: "b1", title: "X"))
        }
        await #expect(throws: DataStoreError.self) {
            try await store.save(Post(id: "p2", blogID: "b1\u{0}x", title: "X"))
        }
        #expect(try await store.query(Post.self, byId: "victim")?.title == "Mine")
        #expect(try await store.query(Post.self).map(\.id) == ["victim"])
        #expect(try await store.pendingMutations().count == 1, "nothing refused reached the outbox")
    }

    @Test("text with a NUL in other fields is stored and queried byte for byte")
    func nulInTextRoundTrips() async throws {
        for (id, title) in [("p1", "a\u{0}b"), ("p2", "a"), ("p3", "a\u{0}")] {
            try await store.save(Post(id: id, blogID: "b1", title: title))
        }
        #expect(try await store.query(Post.self, byId: "p1")?.title == "a\u{0}b")
        #expect(try await store.query(Post.self, where: Post.keys.title == "a\u{0}b").map(\.id) == ["p1"])
        let prefixed = try await store.query(Post.self, where: Post.keys.title.beginsWith("a\u{0}")).map(\.id)
        #expect(Set(prefixed) == ["p1", "p3"])
    }
}
