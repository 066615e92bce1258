import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSchema
import DeltaSyncServer
import Testing

/// A server restarted on its PostgreSQL schema with a changed Amplify schema: the new model,
/// field and index are there, and nothing stored before is lost.
@Suite struct SchemaChangeTests {
    static let before = "type Note @model { id: ID! title: String! }"
    static let after = """
        type Note @model {
          id: ID!
          title: String!
          topic: String @index(name: "byTopic", queryField: "notesByTopic")
        }
        type Tag @model { id: ID! name: String! }
        """

    static func project(_ source: String) throws -> AmplifyProject {
        try AmplifyProject(schema: AmplifySchema.parse(source: source), schemaFiles: [])
    }

    @Test func aRestartWithANewModelFieldAndIndexKeepsEveryItemAndDelta() async throws {
        let settings = try await PostgresCluster.settings(pool: 2)
        let first = try await PostgresItemStore.connect(settings: settings, schema: try Self.project(Self.before).schema)
        let startedAt = try await TestServer(storage: .store(first), project: try Self.project(Self.before)).withClient { client in
            _ = try await client.expectData("createNote", #"mutation { createNote(input: {id: "n1", title: "Kept"}) { id } }"#)
            _ = try await client.expectData("updateNote", #"mutation { updateNote(input: {id: "n1", title: "Kept, edited", _version: 1}) { id } }"#)
            return try await client.expectData("syncNotes", "{ syncNotes { startedAt } }")["startedAt"].intValue ?? 0
        }
        await first.shutdown()

        let second = try await PostgresItemStore.connect(settings: settings, schema: try Self.project(Self.after).schema)
        try await TestServer(storage: .store(second), project: try Self.project(Self.after)).withClient { client in
            let kept = try await client.expectData("getNote", #"{ getNote(id: "n1") { title topic _version } }"#)
            #expect(kept == ["title": "Kept, edited", "topic": nil, "_version": 2])
            _ = try await client.expectData("createNote", #"mutation { createNote(input: {id: "n2", title: "New", topic: "pg"}) { id } }"#)
            _ = try await client.expectData("createTag", #"mutation { createTag(input: {id: "t1", name: "tag"}) { id } }"#)
            let byTopic = try await client.expectData("notesByTopic", #"{ notesByTopic(topic: "pg") { items { id } } }"#)
            #expect(byTopic["items"] == [["id": "n2"]])
            // The delta log from before the restart goes on: a device that synced then gets only what changed since.
            let delta = try await client.expectData(
                "syncNotes", "query($t: AWSTimestamp) { syncNotes(lastSync: $t) { items { id } } }", ["t": .int(startedAt)])
            #expect(delta["items"] == [["id": "n2"]])
            #expect(try await client.expectData("syncTags", "{ syncTags { items { id } } }")["items"] == [["id": "t1"]])
        }
        await second.shutdown()
    }
}
