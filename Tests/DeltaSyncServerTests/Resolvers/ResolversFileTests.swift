import DeltaSyncCore
import DeltaSyncResolverFiles
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// `resolvers.json` beside a schema file (a Gen 2 project's `a.handler.custom` handlers): a
/// JavaScript resolver over NONE, one over a model's table named as `a.ref('Note')` names it, a
/// pipeline of handlers without code of its own, and mistakes reported with the file.
@Suite struct ResolversFileTests {
    static let schema = """
        type Note @model @auth(rules: [{allow: public}]) { id: ID! text: String! }
        type Query {
          echo(msg: String!): String
          note(id: ID!): Note
          shouted(id: ID!): String
        }
        """

    /// A folder with the schema, `resolvers.json` and the code files.
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolvers-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("resolvers"), withIntermediateDirectories: true)
        for (name, text) in files.merging(["schema.graphql": schema], uniquingKeysWith: { first, _ in first }) {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func handlersOfResolversJSONResolveTheirFields() async throws {
        let folder = try Self.folder([
            "resolvers.json": """
                {
                  "Query.echo": { "entry": "./resolvers/echo.js", "dataSource": "NONE" },
                  "Query.note": { "entry": "resolvers/getNote.js", "dataSource": "Note" },
                  "Query.shouted": { "pipeline": [
                    { "entry": "resolvers/getNote.js", "dataSource": "NoteTable" },
                    { "entry": "resolvers/shout.js", "dataSource": "NONE" }
                  ] }
                }
                """,
            "resolvers/echo.js": "export const request = (ctx) => ({ payload: ctx.args.msg + '!' });\nexport const response = (ctx) => ctx.result;\n",
            "resolvers/getNote.js": """
                import * as ddb from '@aws-appsync/utils/dynamodb';
                export function request(ctx) { return ddb.get({ key: { id: ctx.args.id } }); }
                export function response(ctx) { return ctx.result; }
                """,
            "resolvers/shout.js": """
                export function request(ctx) { return { payload: ctx.prev.result.text.toUpperCase() }; }
                export function response(ctx) { return ctx.result; }
                """,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let schemaFile = folder.appendingPathComponent("schema.graphql").path
        let project = try AmplifyProject.load(schemaFile: schemaFile)
        let files = try #require(try ResolversFile.load(schemaFile: schemaFile, schema: project.schema))
        #expect(files.resolvers.map { "\($0.type).\($0.field)" } == ["Query.echo", "Query.note", "Query.shouted"])
        try await DeltaSyncTestServer.withServer(project: project) { configuration in
            configuration.resolvers = files.resolvers
            configuration.dataSources = files.dataSources
        } _: { server in
            #expect(try await server.graphQL(#"{ echo(msg: "hi") }"#)["data"]["echo"] == "hi!")
            _ = try await server.graphQL(#"mutation { createNote(input: {id: "n1", text: "quiet"}) { id } }"#)
            #expect(try await server.graphQL(#"{ note(id: "n1") { id text } }"#)["data"]["note"] == ["id": "n1", "text": "quiet"])
            let shouted = try await server.graphQL(#"{ shouted(id: "n1") }"#)
            #expect(shouted["errors"].isNull)
            #expect(shouted["data"]["shouted"] == "QUIET")
        }
    }

    @Test func mistakesNameTheFileAndTheField() throws {
        func problem(_ json: String) throws -> String? {
            let folder = try Self.folder(["resolvers.json": json, "resolvers/echo.js": "export const request = () => ({});\nexport const response = () => null;\n"])
            defer { try? FileManager.default.removeItem(at: folder) }
            let schemaFile = folder.appendingPathComponent("schema.graphql").path
            do {
                _ = try ResolversFile.load(schemaFile: schemaFile, schema: try AmplifyProject.load(schemaFile: schemaFile).schema)
                return nil
            } catch let error as ResolverFileError {
                return error.description
            }
        }
        #expect(try problem(#"{"echo": {"entry": "resolvers/echo.js", "dataSource": "NONE"}}"#) == "resolvers.json: error: echo is not a field: write Type.field (Query.echo)")
        #expect(try problem(#"{"Query.echo": {"entry": "resolvers/missing.js", "dataSource": "NONE"}}"#)?.contains("the entry resolvers/missing.js does not exist") == true)
        #expect(try problem(#"{"Query.echo": {"entry": "resolvers/echo.js", "dataSource": "Elsewhere"}}"#)?.contains("the data source Elsewhere is neither NONE, a model, nor one of dataSources") == true)
        #expect(try problem(#"{"dataSources": {"Api": {"http": "https://api.example.com"}}, "Query.echo": {"entry": "resolvers/echo.js", "dataSource": "Api"}}"#) == nil)
    }
}
