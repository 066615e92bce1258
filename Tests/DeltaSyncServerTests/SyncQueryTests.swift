import DeltaSyncCore
import DeltaSyncServer
import Testing

@Suite struct SyncQueryTests {
    static let syncPosts = """
        query($lastSync: AWSTimestamp, $t: String, $limit: Int, $f: ModelPostFilterInput) {
          syncPosts(lastSync: $lastSync, nextToken: $t, limit: $limit, filter: $f) {
            items { id title _version _deleted _lastChangedAt } nextToken startedAt
          }
        }
        """
    static let create = "mutation($i: CreatePostInput!) { createPost(input: $i) { id _version } }"
    static let update = "mutation($i: UpdatePostInput!) { updatePost(input: $i) { id _version } }"

    /// Pages through a sync to the end; returns the items and the (fixed) startedAt.
    static func syncAll(
        _ client: TestServer.Client, lastSync: JSONValue = nil, limit: Int = 100, filter: JSONValue = nil,
        beforeEachPage: (Int) async throws -> Void = { _ in }
    ) async throws -> (items: [JSONValue], startedAt: Int) {
        var items: [JSONValue] = []
        var token: JSONValue = nil
        var startedAt: Int?
        var page = 0
        repeat {
            try await beforeEachPage(page)
            let data = try await client.expectData(
                "syncPosts", syncPosts, ["lastSync": lastSync, "t": token, "limit": .int(limit), "f": filter])
            let pageStartedAt = try #require(data["startedAt"].intValue)
            #expect(startedAt == nil || startedAt == pageStartedAt, "startedAt is fixed for a whole pagination")
            startedAt = pageStartedAt
            items += data["items"].arrayValue ?? []
            token = data["nextToken"]
            page += 1
        } while token != .null
        return (items, startedAt!)
    }

    @Test func deltaSyncReturnsOnlyChangesAfterLastSync() async throws {
        let clock = ManualClock()
        try await TestServer(configure: { $0.clock = { clock.now } }).withClient { client in
            for n in 1...5 {
                _ = try await client.expectData("createPost", Self.create, ["i": ["id": .string("p\(n)"), "blogID": "b", "title": "t"]])
            }
            let base = try await Self.syncAll(client, lastSync: 0)
            #expect(base.items.count == 5)

            clock.advance(by: 60)
            _ = try await client.expectData("updatePost", Self.update, ["i": ["id": "p2", "title": "new", "_version": 1]])
            _ = try await client.expectData(
                "deletePost", "mutation { deletePost(input: {id: \"p4\", _version: 1}) { id } }")
            let delta = try await Self.syncAll(client, lastSync: .int(base.startedAt))
            #expect(delta.items.map { $0["id"] } == ["p2", "p4"], "changes in change order")
            #expect(delta.items[0]["title"] == "new")
            #expect(delta.items[1]["_deleted"] == true, "tombstones reach delta syncs")
            #expect(delta.startedAt > base.startedAt)

            let nothing = try await Self.syncAll(client, lastSync: .int(delta.startedAt))
            #expect(nothing.items.isEmpty)
        }
    }

    @Test func lastSyncOlderThanTheDeltaTTLGetsABaseSync() async throws {
        let clock = ManualClock()
        try await TestServer(configure: {
            $0.clock = { clock.now }
            $0.deltaTTL = .seconds(30)
        }).withClient { client in
            for n in 1...3 {
                _ = try await client.expectData("createPost", Self.create, ["i": ["id": .string("p\(n)"), "blogID": "b", "title": "t"]])
            }
            let base = try await Self.syncAll(client)
            clock.advance(by: 30)
            _ = try await client.expectData("updatePost", Self.update, ["i": ["id": "p1", "title": "x", "_version": 1]])

            // Exactly at the boundary (now - TTL == lastSync) the delta table still answers.
            clock.set(milliseconds: base.startedAt + 30_000)
            let atBoundary = try await client.explained(Self.syncPosts, ["lastSync": .int(base.startedAt)])
            #expect(atBoundary.data["syncPosts"]["items"].arrayValue?.count == 1)
            #expect(atBoundary.json["extensions"]["deltasync"]["plans"][0]["source"] == "delta")

            clock.set(milliseconds: base.startedAt + 30_001)
            let past = try await client.explained(Self.syncPosts, ["lastSync": .int(base.startedAt)])
            #expect(past.data["syncPosts"]["items"].arrayValue?.count == 3, "a silent full base sync")
            #expect(past.json["extensions"]["deltasync"]["plans"][0]["source"] == "base")
        }
    }

    @Test func aChangeCommittedWhilePagingIsInTheNextDelta() async throws {
        try await TestServer().withClient { client in
            for n in 0..<30 {
                _ = try await client.expectData(
                    "createPost", Self.create, ["i": ["id": .string(String(format: "p%02d", n)), "blogID": "b", "title": "t"]])
            }
            var written: [String] = []
            let base = try await Self.syncAll(client, limit: 7) { page in
                // Between pages: change an item already paged past, and one not reached yet.
                guard page == 2 else { return }
                _ = try await client.expectData("updatePost", Self.update, ["i": ["id": "p01", "title": "late", "_version": 1]])
                _ = try await client.expectData("updatePost", Self.update, ["i": ["id": "p29", "title": "late", "_version": 1]])
                _ = try await client.expectData("createPost", Self.create, ["i": ["id": "p99", "blogID": "b", "title": "late"]])
                written = ["p01", "p29", "p99"]
            }
            #expect(Set(base.items.compactMap { $0["id"].stringValue }).isSuperset(of: (0..<30).map { String(format: "p%02d", $0) }))
            let delta = try await Self.syncAll(client, lastSync: .int(base.startedAt))
            #expect(Set(delta.items.compactMap { $0["id"].stringValue }) == Set(written))
            #expect(delta.items.allSatisfy { $0["title"] == "late" })
        }
    }

    @Test func limitDefaultsTo100AndIsCappedAt1000() async throws {
        try await TestServer().withClient { client in
            for n in 0..<101 {
                _ = try await client.expectData(
                    "createPost", Self.create, ["i": ["id": .string("p\(n)"), "blogID": "b", "title": "t"]])
            }
            let first = try await client.expectData("syncPosts", "{ syncPosts { items { id } nextToken } }")
            #expect(first["items"].arrayValue?.count == 100)
            #expect(first["nextToken"] != .null)
            let capped = try await client.expectData("syncPosts", "{ syncPosts(limit: 5000) { items { id } nextToken } }")
            #expect(capped["items"].arrayValue?.count == 101)
        }
    }

    @Test func forgedSyncTokenIsRefused() async throws {
        try await TestServer().withClient { client in
            for n in 0..<3 {
                _ = try await client.expectData(
                    "createPost", Self.create, ["i": ["id": .string("p\(n)"), "blogID": "b", "title": "t"]])
            }
            let page = try await client.expectData("syncPosts", "{ syncPosts(limit: 1) { nextToken } }")
            var token = Array(try #require(page["nextToken"].stringValue))
            token[token.count / 3] = token[token.count / 3] == "A" ? "B" : "A"
            let reply = try await client.graphQL(Self.syncPosts, ["t": .string(String(token))])
            #expect(reply.data["syncPosts"] == .null)
            #expect(reply.firstError["errorType"] == "InvalidArgumentException")
            #expect(reply.firstError["message"].stringValue?.contains("nextToken") == true)
        }
    }

    @Test func selectiveSyncQueriesTheIndexOnlyForAnAndFilter() async throws {
        try await TestServer().withClient { client in
            for n in 0..<20 {
                _ = try await client.expectData(
                    "createPost", Self.create,
                    ["i": ["id": .string("p\(n)"), "blogID": .string(n < 5 ? "b1" : "b2"), "title": "t",
                           "publishedAt": .string("2024-01-\(10 + n)T00:00:00.000Z")]])
            }
            let viaIndex = try await client.explained(
                Self.syncPosts,
                ["f": ["and": [["blogID": ["eq": "b1"]], ["publishedAt": ["ge": "2024-01-12"]]]]])
            #expect(Set(viaIndex.data["syncPosts"]["items"].arrayValue!.compactMap { $0["id"].stringValue }) == ["p2", "p3", "p4"])
            let plan = viaIndex.json["extensions"]["deltasync"]["plans"][0]
            #expect(plan["access"] == "query")
            #expect(plan["index"] == "byBlog")
            #expect(plan["source"] == "base")
            #expect(plan["scanned"] == 3, "the sort key condition narrowed the range read")
            #expect(plan["path"] == ["syncPosts"])

            let scanned = try await client.explained(Self.syncPosts, ["f": ["blogID": ["eq": "b1"]]])
            #expect(scanned.data["syncPosts"]["items"].arrayValue?.count == 5)
            #expect(scanned.json["extensions"]["deltasync"]["plans"][0]["access"] == "scan")
            #expect(scanned.json["extensions"]["deltasync"]["plans"][0]["scanned"] == 20)

            let plain = try await client.graphQL(Self.syncPosts, ["f": ["blogID": ["eq": "b1"]]])
            #expect(plain.json["extensions"] == .null, "no plans unless asked for")
        }
    }

    @Test func expiredTombstonesArePurged() async throws {
        let clock = ManualClock()
        let test = try await TestServer(configure: {
            $0.clock = { clock.now }
            $0.tombstoneTTL = .seconds(3600)
        })
        try await test.withClient { client in
            _ = try await client.expectData("createPost", Self.create, ["i": ["id": "gone", "blogID": "b", "title": "t"]])
            _ = try await client.expectData("createPost", Self.create, ["i": ["id": "kept", "blogID": "b", "title": "t"]])
            _ = try await client.expectData("deletePost", "mutation { deletePost(input: {id: \"gone\", _version: 1}) { id } }")
            clock.advance(by: 3599)
            await test.server.purgeExpired()
            #expect(try await client.expectData("getPost", #"{ getPost(id: "gone") { _deleted } }"#) == ["_deleted": true])
            clock.advance(by: 2)
            await test.server.purgeExpired()
            #expect(try await client.expectData("getPost", #"{ getPost(id: "gone") { _deleted } }"#) == .null)
            #expect(try await client.expectData("getPost", #"{ getPost(id: "kept") { id } }"#) == ["id": "kept"])
        }
    }
}
