import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// The fixture API under `/admin/`: its key, data (reset, seed, snapshots), the clock and
/// faults, as a test suite drives them over HTTP.
@Suite struct FixtureAPITests {
    static let syncBlogs = "query($t: AWSTimestamp) { syncBlogs(lastSync: $t) { items { id name _version _deleted _lastChangedAt } startedAt } }"
    static let createBlog = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id name _version _lastChangedAt } }"
    static let updateBlog = "mutation($i: UpdateBlogInput!) { updateBlog(input: $i) { id name _version } }"

    // MARK: - The key

    @Test func everyRouteNeedsTheAdminKeyAndNeverTheAPIKey() async throws {
        try await TestServer().withClient { client in
            for key in [nil, TestServer.apiKey, "dsa-wrong-key-of-another-server"] {
                let reply = try await client.admin(.get, "/admin/status", key: key)
                #expect(reply.status == .unauthorized)
                #expect(reply.firstError["errorType"] == "UnauthorizedException")
            }
            let reset = try await client.admin(.post, "/admin/reset", key: TestServer.apiKey)
            #expect(reset.status == .unauthorized)
            #expect(try await client.admin(.get, "/admin/status").status == .ok)
        }
    }

    @Test func withoutTheFixtureAPIAdminPathsAreNotServed() async throws {
        let server = try await TestServer(configure: { $0.fixtureAPI = false })
        #expect(server.server.adminKey == nil)
        try await server.withClient { client in
            #expect(try await client.admin(.get, "/admin/status").status == .notFound)
            // Faults cannot exist, and mutations run as always.
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["name": "n"]])
        }
    }

    // MARK: - Data

    @Test func seededItemsKeepTheirMetadataAndReachDeltaSyncs() async throws {
        try await TestServer().withClient { client in
            let seeded = try await client.admin(.post, "/admin/seed", """
                {"Blog": [
                  {"id": "b1", "name": "Seeded", "_version": 7, "_lastChangedAt": 1700000000000},
                  {"id": "b2", "name": "Gone", "_deleted": true, "_version": 2, "_lastChangedAt": 1700000001000}
                ]}
                """)
            #expect(seeded.json == ["seeded": ["Blog": 2]])
            let base = try await client.expectData("syncBlogs", Self.syncBlogs)
            let items = try #require(base["items"].arrayValue).sorted { $0["id"].stringValue! < $1["id"].stringValue! }
            #expect(items[0]["_version"] == 7)
            #expect(items[0]["_lastChangedAt"] == 1_700_000_000_000)
            #expect(items[1]["_deleted"] == true)
            // A device that synced before the seeded changes gets them as deltas.
            let delta = try await client.expectData("syncBlogs", Self.syncBlogs, ["t": 1_699_999_999_999])
            #expect(delta["items"].arrayValue?.count == 2)
            // The change clock moved past the seeded times: later changes are later.
            let created = try await client.expectData("createBlog", Self.createBlog, ["i": ["name": "after"]])
            #expect(created["_lastChangedAt"].intValue! > 1_700_000_001_000)
        }
    }

    @Test func aMalformedSeedIsRefusedWholeWithTheLineAndValueAtFault() async throws {
        try await TestServer().withClient { client in
            let cases: [(seed: String, message: String)] = [
                ("{\"Blog\": [\n {\"id\": \"ok\", \"name\": \"fine\"},\n {\"id\": \"b2\",\n  \"name\": 42}\n]}", "Seed line 4, Blog[1].name: expected a String, got 42."),
                ("{\"Blog\": [{\"id\": \"b1\", \"name\": \"n\"}],\n \"Nope\": []}", "Seed line 2, Nope: the schema has no model Nope"),
                ("{\"Blog\": [{\"id\": \"b1\", \"name\": \"n\", \"titel\": \"x\"}]}", "Blog[0].titel: Blog has no stored field 'titel'."),
                ("{\"Blog\": [{\"id\": \"b1\"}]}", "Blog.name is required (a String) and missing."),
                ("{\"Blog\": [{\"id\": \"b1\", \"name\": \"n\", \"website\": \"not a url\"}]}", "Blog[0].website: expected an AWSURL"),
                ("{\"Blog\": [{\"id\": \"b1\", \"name\": \"n\", \"_version\": 0}]}", "Blog[0]._version: expected a whole number from 1, got 0."),
                ("{\"Post\": [{\"id\": \"p\", \"blogID\": \"b\", \"title\": \"t\", \"status\": \"LOST\"}]}", "Post[0].status: expected one of PostStatus's values"),
                ("{\"Blog\": [\n{\"id\": \"b1\", \"name\": \"n\"},,\n]}", "Seed line 2: this is not JSON"),
            ]
            for (seed, message) in cases {
                let reply = try await client.admin(.post, "/admin/seed", seed)
                #expect(reply.status == .badRequest)
                #expect(reply.firstError["errorType"] == "BadRequest")
                let text = reply.firstError["message"].stringValue ?? ""
                #expect(text.contains(message), "\(text)")
            }
            // The good item before the bad one was not written either.
            let base = try await client.expectData("syncBlogs", Self.syncBlogs)
            #expect(base["items"] == [])
        }
    }

    @Test func resetEmptiesOneModelOrEverything() async throws {
        try await TestServer().withClient { client in
            let blog = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "n"]])
            _ = try await client.expectData(
                "createPost", "mutation { createPost(input: {id: \"p1\", blogID: \"b1\", title: \"t\"}) { id } }")
            _ = try await client.graphQL(Self.updateBlog, ["i": ["id": "b1", "name": "stale", "_version": 0]])
            #expect(blog["_version"] == 1)
            let one = try await client.admin(.post, "/admin/reset", #"{"models": ["Blog"]}"#)
            #expect(one.json == ["reset": ["Blog"]])
            var status = try await client.admin(.get, "/admin/status")
            let counts = Dictionary(uniqueKeysWithValues: status.json["models"].arrayValue!.map { ($0["name"].stringValue!, $0) })
            #expect(counts["Blog"]?["items"] == 0)
            #expect(counts["Blog"]?["deltas"] == 0)
            #expect(counts["Post"]?["items"] == 1)
            #expect(try await client.admin(.get, "/admin/conflicts?model=Blog").json["conflicts"] == [])
            // A delta sync from before the reset sees nothing of the reset model.
            #expect(try await client.expectData("syncBlogs", Self.syncBlogs, ["t": 1])["items"] == [])
            _ = try await client.admin(.post, "/admin/reset")
            status = try await client.admin(.get, "/admin/status")
            #expect(status.json["models"].arrayValue!.allSatisfy { $0["items"] == 0 && $0["deltas"] == 0 })
            let unknown = try await client.admin(.post, "/admin/reset", #"{"models": ["Blgo"]}"#)
            #expect(unknown.status == .badRequest)
        }
    }

    @Test func aSnapshotImportsBackExactly() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "one"]])
            _ = try await client.expectData("updateBlog", Self.updateBlog, ["i": ["id": "b1", "name": "two", "_version": 1]])
            _ = try await client.graphQL(Self.updateBlog, ["i": ["id": "b1", "name": "late", "_version": 1]])
            _ = try await client.expectData(
                "deleteBlog", "mutation { deleteBlog(input: {id: \"b1\", _version: 3}) { id } }")
            let exported = try await client.admin(.get, "/admin/snapshot")
            #expect(exported.json["models"]["Blog"]["deltas"].arrayValue?.count == 4)
            #expect(exported.json["conflicts"].arrayValue?.count == 1)
            // Later changes, then the snapshot back: the state is the exported one, exactly.
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b9", "name": "after"]])
            let imported = try await client.admin(.put, "/admin/snapshot", exported.json.jsonText)
            #expect(imported.json == ["imported": ["Blog": 1, "Post": 0, "Comment": 0, "Label": 0, "Reaction": 0, "PostLabel": 0]])
            var again = try await client.admin(.get, "/admin/snapshot").json
            // The change clock never goes back; everything else is as exported.
            #expect(again["changeClock"].intValue! >= exported.json["changeClock"].intValue!)
            again = again.replacing("changeClock", with: exported.json["changeClock"])
            #expect(again == exported.json)
            // A broken snapshot is refused whole and changes nothing.
            var broken = exported.json.jsonText
            broken = broken.replacingOccurrences(of: "\"name\":\"two\"", with: "\"name\":2")
            let refused = try await client.admin(.put, "/admin/snapshot", broken)
            #expect(refused.status == .badRequest)
            #expect(refused.firstError["message"].stringValue?.contains("models.Blog.") == true)
            #expect(try await client.admin(.get, "/admin/snapshot").json["models"] == exported.json["models"])
        }
    }

    @Test(arguments: [false, true])
    func aNamedSnapshotRestoresTheSavedStateWithoutTurningTheChangeClockBack(onFile: Bool) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage: ServerConfiguration.Storage = onFile ? .file(folder.appendingPathComponent("db.sqlite").path) : .inMemory
        try await TestServer(storage: storage).withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "one"]])
            #expect(try await client.admin(.put, "/admin/snapshots/base").json == ["saved": "base"])
            let saved = try await client.admin(.get, "/admin/snapshot").json
            _ = try await client.expectData("updateBlog", Self.updateBlog, ["i": ["id": "b1", "name": "two", "_version": 1]])
            _ = try await client.graphQL(Self.updateBlog, ["i": ["id": "b1", "name": "late", "_version": 1]])
            let later = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b2", "name": "later"]])
            #expect(try await client.admin(.post, "/admin/snapshots/base/restore").json == ["restored": "base"])
            let restored = try await client.admin(.get, "/admin/snapshot").json
            #expect(restored.replacing("changeClock", with: saved["changeClock"]) == saved)
            #expect(restored["changeClock"].intValue! >= later["_lastChangedAt"].intValue!)
            // Changes after the restore are later than every change before it.
            let after = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b3", "name": "after"]])
            #expect(after["_lastChangedAt"].intValue! > later["_lastChangedAt"].intValue!)
            #expect(try await client.admin(.get, "/admin/snapshots").json == ["snapshots": ["base"]])
            #expect(try await client.admin(.post, "/admin/snapshots/nope/restore").status == .badRequest)
            #expect(try await client.admin(.delete, "/admin/snapshots/base").json == ["deleted": "base"])
            #expect(try await client.admin(.delete, "/admin/snapshots/base").status == .notFound)
        }
    }

    @Test(.enabled(if: TestStore.isPostgres, "database files are SQLite's"))
    func aDatabaseSnapshotFileIsRefusedOnPostgreSQLSayingWhatToUse() async throws {
        try await TestServer().withClient { client in
            for method in [HTTPRequest.Method.get, .put] {
                let reply = try await client.client.execute(
                    uri: "/admin/snapshot", method: method,
                    headers: [
                        HTTPField.Name("x-deltasync-admin-key")!: TestServer.adminKey, .accept: "application/vnd.sqlite3",
                        .contentType: "application/vnd.sqlite3",
                    ],
                    body: ByteBuffer(string: "SQLite format 3\u{0}")
                ) { response in
                    GraphQLReply(status: response.status, headers: response.headers, json: try JSONValue(parsing: String(buffer: response.body)))
                }
                #expect(reply.status == .badRequest)
                #expect(reply.firstError["message"].stringValue?.contains("pg_dump") == true)
            }
            // The JSON form works on every store.
            #expect(try await client.admin(.get, "/admin/snapshot").status == .ok)
        }
    }

    @Test(.enabled(if: !TestStore.isPostgres, "database files are SQLite's"))
    func aDatabaseSnapshotFileImportsBackExactlyAndAnotherSchemasIsRefused() async throws {
        let other = try AmplifyProject(schema: AmplifySchema.parse(source: "type Todo @model { id: ID! name: String! }"), schemaFiles: [])
        let foreign = try await TestServer(project: other).server.fixture
        let foreignBytes = try await foreign.snapshotDatabase()
        try await TestServer().withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "one"]])
            _ = try await client.graphQL(Self.updateBlog, ["i": ["id": "b1", "name": "late", "_version": 0]])
            let saved = try await client.admin(.get, "/admin/snapshot").json
            let file = try await client.client.execute(
                uri: "/admin/snapshot", method: .get,
                headers: [HTTPField.Name("x-deltasync-admin-key")!: TestServer.adminKey, .accept: "application/vnd.sqlite3"]
            ) { response in
                #expect(response.headers[.contentType] == "application/vnd.sqlite3")
                return response.body
            }
            #expect(String(buffer: file).hasPrefix("SQLite format 3"))
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b2", "name": "later"]])
            let imported = try await SnapshotFileImportTests.put(file, client)
            #expect(imported.json["imported"]["Blog"] == 1)
            let again = try await client.admin(.get, "/admin/snapshot").json
            #expect(again.replacing("changeClock", with: saved["changeClock"]) == saved)
            for refused in [ByteBuffer(string: "not a database"), ByteBuffer(bytes: foreignBytes)] {
                let reply = try await SnapshotFileImportTests.put(refused, client)
                #expect(reply.status == .badRequest)
                #expect(reply.firstError["message"].stringValue?.hasPrefix("Snapshot: ") == true, "\(reply.json)")
            }
            #expect(try await client.admin(.get, "/admin/snapshot").json["models"] == saved["models"])
        }
    }

    // MARK: - The clock

    @Test func theClockDrivesChangeTimesTTLsAndThePurge() async throws {
        try await TestServer(configure: { $0.deltaTTL = .seconds(30 * 60); $0.tombstoneTTL = .seconds(3600) }).withClient { client in
            let set = try await client.admin(.post, "/admin/clock/set", #"{"to": "2030-01-01T00:00:00.000Z"}"#)
            #expect(set.json["mode"] == "frozen")
            #expect(set.json["now"] == "2030-01-01T00:00:00.000Z")
            let first = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "n"]])
            let second = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b2", "name": "n"]])
            let frozenAt = 1_893_456_000_000
            // Frozen, yet strictly increasing.
            #expect(first["_lastChangedAt"].intValue! >= frozenAt)
            #expect(second["_lastChangedAt"].intValue! > first["_lastChangedAt"].intValue!)
            _ = try await client.expectData("deleteBlog", "mutation { deleteBlog(input: {id: \"b2\", _version: 1}) { id } }")
            // 31 minutes on: a lastSync from before is outside the delta window.
            let advanced = try await client.admin(.post, "/admin/clock/advance", #"{"by": "31m"}"#)
            #expect(advanced.json["nowMilliseconds"] == .int(frozenAt + 31 * 60_000))
            let sync = try await client.expectData("syncBlogs", Self.syncBlogs, ["t": .int(frozenAt)])
            #expect(sync["startedAt"].intValue! >= frozenAt + 31 * 60_000)
            // Past the tombstone TTL, a purge removes the tombstone and the old deltas.
            _ = try await client.admin(.post, "/admin/clock/advance", #"{"by": "2h"}"#)
            let purged = try await client.admin(.post, "/admin/purge")
            #expect(purged.json["tombstones"] == 1)
            #expect(purged.json["deltas"] == 3)
            // Back to a time before: change times keep increasing.
            _ = try await client.admin(.post, "/admin/clock/set", #"{"to": "2020-01-01T00:00:00Z"}"#)
            let third = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b3", "name": "n"]])
            #expect(third["_lastChangedAt"].intValue! > second["_lastChangedAt"].intValue!)
            let real = try await client.admin(.post, "/admin/clock/real")
            #expect(real.json["mode"] == "real")
            #expect(abs(real.json["nowMilliseconds"].intValue! - Int(Date().timeIntervalSince1970 * 1000)) < 60_000)
            let bad = try await client.admin(.post, "/admin/clock/advance", #"{"by": "soon"}"#)
            #expect(bad.status == .badRequest)
        }
    }

    @Test func apiKeysExpireByTheServersClock() async throws {
        let expiring = APIKey("da2-expiring", expires: Date().addingTimeInterval(3600))
        try await TestServer(configure: { $0.apiKeys = [expiring] }).withClient { client in
            let query = "query { listBlogs { items { id } } }"
            #expect(try await client.graphQL(query, apiKey: "da2-expiring").status == .ok)
            _ = try await client.admin(.post, "/admin/clock/advance", #"{"by": "2h"}"#)
            let expired = try await client.graphQL(query, apiKey: "da2-expiring")
            #expect(expired.status == .unauthorized)
        }
    }

    // MARK: - Faults

    @Test func mutationFaultsFailTheNextRunsThenStop() async throws {
        try await TestServer().withClient { client in
            let added = try await client.admin(.post, "/admin/faults", """
                {"type": "mutationError", "field": "createBlog", "count": 2,
                 "errorType": "DynamoDB:ProvisionedThroughputExceededException", "message": "Rate exceeded"}
                """)
            #expect(added.status == .created)
            #expect(added.json["id"] == "f1")
            for _ in 0..<2 {
                let failed = try await client.graphQL(Self.createBlog, ["i": ["name": "n"]])
                #expect(failed.firstError["errorType"] == "DynamoDB:ProvisionedThroughputExceededException")
                #expect(failed.firstError["message"] == "Rate exceeded")
                #expect(failed.data["createBlog"] == .null)
            }
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["name": "n"]])
            #expect(try await client.admin(.get, "/admin/faults").json["faults"] == [])
            // Nothing was written by the failed runs.
            #expect(try await client.expectData("syncBlogs", Self.syncBlogs)["items"].arrayValue?.count == 1)
        }
    }

    @Test func aConflictFaultAnswersConflictUnhandledWithTheStoredItem() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "stored"]])
            _ = try await client.admin(.post, "/admin/faults", #"{"type": "conflict", "field": "updateBlog"}"#)
            let refused = try await client.graphQL(Self.updateBlog, ["i": ["id": "b1", "name": "mine", "_version": 1]])
            #expect(refused.firstError["errorType"] == "ConflictUnhandled")
            #expect(refused.firstError["data"]["name"] == "stored")
            #expect(refused.firstError["data"]["_version"] == 1)
            let conflicts = try await client.admin(.get, "/admin/conflicts").json["conflicts"]
            #expect(conflicts[0]["outcome"] == "rejected")
            // Used up: the same update now lands.
            #expect(try await client.expectData("updateBlog", Self.updateBlog, ["i": ["id": "b1", "name": "mine", "_version": 1]])["_version"] == 2)
        }
    }

    @Test func aDelayFaultHoldsTheNextResponsesThenEnds() async throws {
        try await TestServer().withClient { client in
            _ = try await client.admin(.post, "/admin/faults", #"{"type": "delay", "milliseconds": 300, "count": 1}"#)
            _ = try await client.expectData("listBlogs", "query Held { listBlogs { items { id } } }")
            _ = try await client.expectData("listBlogs", "query Free { listBlogs { items { id } } }")
            let log = try await client.admin(.get, "/admin/requests").json["requests"].arrayValue ?? []
            // A lower bound only: how much longer a loaded machine takes says nothing here.
            #expect(log.first { $0["operation"] == "query Held" }?["durationMilliseconds"].doubleValue ?? 0 >= 300)
            #expect(try await client.admin(.get, "/admin/faults").json["faults"] == [])
        }
    }

    @Test func faultsAreListedAndClearedOneByOneOrAll() async throws {
        try await TestServer().withClient { client in
            _ = try await client.admin(.post, "/admin/faults", #"{"type": "delay", "milliseconds": 1}"#)
            _ = try await client.admin(.post, "/admin/faults", #"{"type": "conflict", "field": "updateBlog", "count": null}"#)
            _ = try await client.admin(.post, "/admin/faults", #"{"type": "refuseConnections", "seconds": 60}"#)
            let listed = try await client.admin(.get, "/admin/faults").json["faults"].arrayValue ?? []
            #expect(listed.map(\.["type"]) == ["delay", "conflict", "refuseConnections"])
            #expect(listed[0]["remaining"] == .null)
            #expect(try await client.admin(.delete, "/admin/faults/f2").json == ["cleared": 1])
            #expect(try await client.admin(.delete, "/admin/faults/f2").status == .notFound)
            #expect(try await client.admin(.delete, "/admin/faults").json == ["cleared": 2])
            for bad in [#"{"type": "explode"}"#, #"{"type": "mutationError", "field": "createBlog"}"#, #"{"type": "delay", "milliseconds": -1}"#, "[]"] {
                let reply = try await client.admin(.post, "/admin/faults", bad)
                #expect(reply.status == .badRequest, "\(bad)")
            }
        }
    }

    @Test func theRequestLogSaysWhatRanWhoSentItAndHowItEnded() async throws {
        try await TestServer().withClient { client in
            _ = try await client.expectData("createBlog", "mutation Make { createBlog(input: {name: \"n\"}) { id } }")
            _ = try await client.graphQL("query { getBlog(id: 1) { nope } }")
            let log = try await client.admin(.get, "/admin/requests?limit=10").json["requests"].arrayValue ?? []
            #expect(log.count == 2)
            #expect(log[1]["operation"] == "mutation Make")
            #expect(log[1]["outcome"] == "ok")
            #expect(log[1]["authMode"] == "API_KEY")
            // A document that does not validate has no operation to name, and its errors no type.
            #expect(log[0]["operation"] == "(invalid document)")
            #expect(log[0]["outcome"] == "error")
            #expect(log[0]["durationMilliseconds"].doubleValue! >= 0)
        }
    }
}

extension JSONValue {
    /// The object with `key` set to `value`.
    func replacing(_ key: String, with value: JSONValue) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object[key] = value
        return .object(object)
    }
}
