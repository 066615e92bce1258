import DeltaSyncServer
import Testing

/// A server lets go of its store when the last reference to it goes, after it has executed
/// requests: a test suite that starts a server per test, or a scenario that restarts one, would
/// otherwise keep every store, with its database, connections and threads, to the end of the
/// process. (Executed schemas kept their types, resolvers and store in a cycle.)
@Suite struct ServerLifetimeTests {
    final class WeakStore: @unchecked Sendable {
        weak var store: AnyObject?
    }

    @Test("after queries and mutations with nested relations, over HTTP and in process, the store is released with the server")
    func storeReleasedAfterServing() async throws {
        let released = WeakStore()
        do {
            let test = try await TestServer()
            released.store = test.server.itemStore as AnyObject
            try await test.withClient { client in
                _ = try await client.expectData(
                    "createPost", #"mutation { createPost(input: {id: "p1", blogID: "b1", title: "Kept?"}) { id blog { id } } }"#)
                _ = try await client.expectData("listPosts", "{ listPosts { items { id comments { items { id } } } } }")
            }
            _ = await test.server.execute(OperationRequest(query: "{ syncPosts { items { id } startedAt } }"), as: .apiKey)
        }
        #expect(released.store == nil, "the store outlived its server")
    }

    /// The introspection types (`__Type`, ...) belong to the GraphQL library, shared by every
    /// schema: a released server must leave them whole for the others.
    @Test("a released server leaves another server's schema whole, introspection included")
    func releasingOneLeavesAnother() async throws {
        let kept = try await TestServer()
        do {
            let released = try await TestServer()
            try await released.withClient { client in
                _ = try await client.expectData("__type", #"{ __type(name: "Post") { fields { name } } }"#)
            }
        }
        try await kept.withClient { client in
            let type = try await client.expectData("__type", #"{ __type(name: "Post") { fields { name } } }"#)
            let names = (type["fields"].arrayValue ?? []).compactMap { $0["name"].stringValue }
            #expect(names.contains("title") && names.contains("blog"), "\(names)")
            _ = try await client.expectData("listPosts", "{ listPosts { items { id title } } }")
        }
    }
}
