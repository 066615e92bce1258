import DeltaSyncCore
import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// `PUT /admin/snapshot` with a SQLite file takes DeltaSync's tables and indexes only: a file
/// that also carries a trigger or a view (which would run inside the store from then on, and
/// survive `/admin/reset`), or a damaged one, is refused and nothing changes.
@Suite(.enabled(if: !TestStore.isPostgres, "database files are SQLite's")) struct SnapshotFileImportTests {
    static let createBlog = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { id name } }"

    /// A snapshot file of `server`, changed with `edit` as any SQLite tool could change it.
    static func exported(_ server: TestServer, edit: @escaping @Sendable (Database) throws -> Void) async throws -> ByteBuffer {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await server.server.fixture.snapshotDatabase().write(to: URL(fileURLWithPath: path))
        let queue = try DatabaseQueue(path: path)
        try await queue.writeWithoutTransaction { db in try edit(db) }
        try queue.close()
        return ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// `PUT /admin/snapshot` with `file` as the body, with the admin key.
    static func put(_ file: ByteBuffer, _ client: TestServer.Client) async throws -> GraphQLReply {
        try await client.client.execute(
            uri: "/admin/snapshot", method: .put,
            headers: [HTTPField.Name("x-deltasync-admin-key")!: TestServer.adminKey, .contentType: "application/vnd.sqlite3"],
            body: file
        ) { response in
            GraphQLReply(status: response.status, headers: response.headers, json: try JSONValue(parsing: String(buffer: response.body)))
        }
    }

    /// The model table of `Blog`, as the store names it.
    static func blogTable(_ db: Database) throws -> String {
        try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND lower(name) = 'blog'") ?? "Blog"
    }

    @Test(arguments: [
        ("trigger", "rename_every_blog"),
        ("view", "every_blog"),
    ])
    func aFileWithATriggerOrViewIsRefusedAndTheStoreStaysAsItWas(kind: String, name: String) async throws {
        let server = try await TestServer()
        try await server.withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "mine"]])
            let file = try await Self.exported(server) { db in
                let table = try Self.blogTable(db)
                if kind == "trigger" {
                    try db.execute(sql: """
                        CREATE TRIGGER \(name) AFTER INSERT ON "\(table)"
                        BEGIN UPDATE "\(table)" SET name = 'rewritten' WHERE id = NEW.id; END
                        """)
                } else {
                    try db.execute(sql: "CREATE VIEW \(name) AS SELECT * FROM \"\(table)\"")
                }
            }
            let before = try await client.admin(.get, "/admin/snapshot").json
            let reply = try await Self.put(file, client)
            #expect(reply.status == .badRequest)
            #expect(reply.firstError["errorType"] == "BadRequest")
            let message = reply.firstError["message"].stringValue ?? ""
            #expect(message.hasPrefix("Snapshot: the file holds \(kind) '\(name)'"), "\(message)")
            #expect(message.contains("DROP \(kind.uppercased())"), "\(message)")
            #expect(try await client.admin(.get, "/admin/snapshot").json["models"] == before["models"])
            // Nothing of the file runs in the store: a reset and a new item keep their values.
            _ = try await client.admin(.post, "/admin/reset", "{}")
            let created = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b2", "name": "new"]])
            #expect(created["name"] == "new")
            let stored = try await client.admin(.get, "/admin/models/Blog/items").json["items"]
            #expect(stored[0]["name"] == "new")
        }
    }

    @Test func aFileWithOnlyDeltaSyncsObjectsStillImports() async throws {
        let server = try await TestServer()
        try await server.withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "kept"]])
            let file = try await Self.exported(server) { _ in }
            _ = try await client.admin(.post, "/admin/reset", "{}")
            let reply = try await Self.put(file, client)
            #expect(reply.status == .ok, "\(reply.json)")
            #expect(reply.json["imported"]["Blog"] == 1)
        }
    }

    @Test func aDamagedFileIsRefusedBeforeAnythingIsCopied() async throws {
        let server = try await TestServer()
        try await server.withClient { client in
            _ = try await client.expectData("createBlog", Self.createBlog, ["i": ["id": "b1", "name": "mine"]])
            var bytes = try await Array(server.server.fixture.snapshotDatabase())
            // The page size is at offset 16 (big-endian; 1 means 65536); page 2 is a b-tree page.
            let size = Int(bytes[16]) << 8 | Int(bytes[17])
            let pageSize = size == 1 ? 65536 : size
            #expect(bytes.count > pageSize * 2)
            bytes[pageSize] = 0x00  // no valid b-tree page type
            bytes.replaceSubrange(pageSize + 1..<pageSize + 12, with: repeatElement(0xFF, count: 11))
            let before = try await client.admin(.get, "/admin/snapshot").json
            let reply = try await Self.put(ByteBuffer(bytes: bytes), client)
            #expect(reply.status == .badRequest)
            let message = reply.firstError["message"].stringValue ?? ""
            #expect(message.hasPrefix("Snapshot: "), "\(message)")
            #expect(message.contains("damaged"), "\(message)")
            #expect(try await client.admin(.get, "/admin/snapshot").json["models"] == before["models"])
        }
    }
}
