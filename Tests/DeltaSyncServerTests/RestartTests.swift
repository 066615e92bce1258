import DeltaSyncCore
import Foundation
import Testing

@Suite struct RestartTests {
    @Test func dataSurvivesARestartedServer() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nested/db.sqlite").path

        try await TestServer(storage: .file(file)).withClient { client in
            _ = try await client.expectData(
                "createPost",
                "mutation { createPost(input: {id: \"p1\", blogID: \"b1\", title: \"Kept\", tags: [\"x\"]}) { id } }")
            _ = try await client.expectData(
                "updatePost", "mutation { updatePost(input: {id: \"p1\", rating: 7, _version: 1}) { id } }")
        }
        try await TestServer(storage: .file(file)).withClient { client in
            let post = try await client.expectData("getPost", #"{ getPost(id: "p1") { title rating tags _version } }"#)
            #expect(post == ["title": "Kept", "rating": 7, "tags": ["x"], "_version": 2])
        }
    }
}
