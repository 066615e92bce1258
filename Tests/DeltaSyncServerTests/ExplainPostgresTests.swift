import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import Foundation
import Testing

/// `x-deltasync-explain: 1` puts what the database did beside DeltaSync's own plan fields:
/// `plans[i].database` = `{engine, access, index, rowsRead, plan}`, on PostgreSQL and SQLite.
///
/// PostgreSQL picks an index or a sequential scan by cost, from its statistics, and the report
/// is what it picked: the posts are many (2,000, 20 per blog) with fresh statistics, so a
/// selective sync reads its index; the blogs are few, so a base sync reads their table whole.
@Suite struct ExplainPostgresTests {
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case postgresql, sqlite
        var testDescription: String { rawValue }
    }

    static let syncPosts = """
        query($lastSync: AWSTimestamp, $f: ModelPostFilterInput) {
          syncPosts(lastSync: $lastSync, filter: $f) { items { id title _version _deleted _lastChangedAt } nextToken startedAt }
        }
        """
    /// When the seeded posts changed: `changedAt + i` for post `i`, ten minutes ago (inside the
    /// 30-minute delta window).
    static let changedAt = Int(Date().timeIntervalSince1970 * 1000) - 600_000

    /// A server on a fresh store of `engine` holding 3 blogs and 2,000 posts (blog `b<i % 100>`,
    /// published `i` minutes after 2024-01-01, one delta each).
    static func withServer(_ engine: Engine, _ body: @escaping @Sendable (TestServer.Client) async throws -> Void) async throws {
        let project = try ExampleSchema.blogProject()
        let post = try #require(project.schema.models.first { $0.name == "Post" })
        let blog = try #require(project.schema.models.first { $0.name == "Blog" })
        func run(_ store: any ItemStore) async throws {
            try await store.write { tx in
                for i in 0..<3 {
                    try tx.put(blog, Self.item(["id": .string("b\(i)"), "name": "Blog", "__typename": "Blog"], changedAt: Self.changedAt))
                }
                for i in 0..<2000 {
                    let item = Self.item(
                        [
                            "id": .string(String(format: "p%04d", i)), "blogID": .string("b\(i % 100)"), "title": "Post",
                            "status": "DRAFT", "__typename": "Post",
                            "publishedAt": .string(String(format: "2024-01-%02dT%02d:%02d:00.000Z", 1 + i / 1440, (i / 60) % 24, i % 60)),
                        ], changedAt: Self.changedAt + i)
                    try tx.put(post, item)
                    try tx.appendDelta(post, item: item, changedAt: Self.changedAt + i)
                }
            }
            try await (store as? PostgresItemStore)?.analyze()
            try await TestServer(storage: .store(store), project: project).withClient(body)
        }
        switch engine {
        case .postgresql: try await PostgresCluster.withStore(project.schema, pool: 2) { try await run($0) }
        case .sqlite: try await run(SQLiteItemStore(location: .inMemory, schema: project.schema))
        }
    }

    static func item(_ fields: Item, changedAt: Int) -> Item {
        var item = fields
        item["_version"] = 1
        item["_lastChangedAt"] = .int(changedAt)
        item["createdAt"] = "2024-01-01T00:00:00.000Z"
        item["updatedAt"] = "2024-01-01T00:00:00.000Z"
        return item
    }

    static func plan(_ reply: GraphQLReply) throws -> JSONValue {
        #expect(reply.errors.isEmpty, "\(reply.json.jsonText)")
        return reply.json["extensions"]["deltasync"]["plans"][0]
    }

    @Test("a selective sync by index: the database read byBlog, only the page's rows", arguments: Engine.allCases)
    func selectiveSync(engine: Engine) async throws {
        try await Self.withServer(engine) { client in
            let reply = try await client.explained(
                Self.syncPosts, ["f": ["and": [["blogID": ["eq": "b1"]], ["publishedAt": ["ge": "2024-01-02"]]]]])
            #expect(reply.data["syncPosts"]["items"].arrayValue?.count == 5)
            let plan = try Self.plan(reply)
            // DeltaSync's own fields, unchanged.
            #expect(plan["source"] == "base")
            #expect(plan["access"] == "query")
            #expect(plan["index"] == "byBlog")
            #expect(plan["scanned"] == 5)
            let database = plan["database"]
            #expect(database["engine"] == .string(engine.rawValue))
            #expect(database["access"] == "index", "\(database.jsonText)")
            #expect(database["index"] == "byBlog", "\(database.jsonText)")
            #expect(database["plan"].stringValue?.contains("Post.byBlog") == true, "\(database.jsonText)")
            switch engine {
            case .postgresql: #expect(database["rowsRead"] == 5, "the key condition bounds the range read: \(database.jsonText)")
            case .sqlite: #expect(database["rowsRead"] == .null)
            }
        }
    }

    @Test("a base sync of a small table: the database read it whole", arguments: Engine.allCases)
    func baseScan(engine: Engine) async throws {
        try await Self.withServer(engine) { client in
            let reply = try await client.explained("{ syncBlogs { items { id name _version _lastChangedAt } startedAt } }")
            #expect(reply.data["syncBlogs"]["items"].arrayValue?.count == 3)
            let plan = try Self.plan(reply)
            #expect(plan["source"] == "base")
            #expect(plan["access"] == "scan")
            #expect(plan["scanned"] == 3)
            let database = plan["database"]
            #expect(database["access"] == "scan", "\(database.jsonText)")
            #expect(database["index"] == .null)
            switch engine {
            case .postgresql:
                #expect(database["rowsRead"] == 3, "\(database.jsonText)")
                #expect(database["plan"].stringValue?.contains("Seq Scan on Blog") == true, "\(database.jsonText)")
            case .sqlite:
                #expect(database["plan"].stringValue?.hasPrefix("SCAN Blog") == true, "\(database.jsonText)")
            }
        }
    }

    @Test("a delta sync: the database read the delta log's changedAt index", arguments: Engine.allCases)
    func deltaSync(engine: Engine) async throws {
        try await Self.withServer(engine) { client in
            let reply = try await client.explained(Self.syncPosts, ["lastSync": .int(Self.changedAt + 1994)])
            #expect(reply.data["syncPosts"]["items"].arrayValue?.count == 5)
            let plan = try Self.plan(reply)
            #expect(plan["source"] == "delta")
            #expect(plan["index"] == "changedAt")
            #expect(plan["scanned"] == 5)
            let database = plan["database"]
            #expect(database["engine"] == .string(engine.rawValue))
            #expect(database["access"] == "index", "\(database.jsonText)")
            #expect(database["index"] == "changedAt", "\(database.jsonText)")
            if engine == .postgresql { #expect(database["rowsRead"] == 5, "\(database.jsonText)") }

            let plain = try await client.graphQL(Self.syncPosts, ["lastSync": .int(Self.changedAt + 1994)])
            #expect(plain.json["extensions"] == .null, "nothing explained unless asked for")
        }
    }
}
