import DeltaSyncSchema
import Foundation
import Testing

/// Loading schema files and `transform.conf.json` from an Amplify API folder.
struct ProjectTests {
    /// A fresh temporary folder holding `files` (relative path to contents).
    private func folder(_ files: [String: String]) throws -> String {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("deltasync-schema-\(UUID().uuidString)", isDirectory: true)
        for (path, contents) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root.path
    }

    private func loadError(_ directory: String) -> SchemaError? {
        do {
            _ = try AmplifyProject.load(projectDirectory: directory)
            return nil
        } catch {
            return error
        }
    }

    @Test func authModesFromCLIInputs() throws {
        let directory = try folder([
            "schema.graphql": "type Todo @model @auth(rules: [{ allow: owner }]) { id: ID! }",
            "cli-inputs.json": """
                {"version": 1, "serviceConfiguration": {"apiName": "todo", "serviceName": "AppSync",
                 "defaultAuthType": {"mode": "AMAZON_COGNITO_USER_POOLS", "cognitoUserPoolId": "authtodo"},
                 "additionalAuthTypes": [{"mode": "API_KEY", "expirationTime": 7}, {"mode": "AWS_IAM"}]}}
                """,
        ])
        let project = try AmplifyProject.load(projectDirectory: directory)
        #expect(project.authModes == APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey, .iam]))

        let unknown = try folder([
            "schema.graphql": "type Todo @model { id: ID! }",
            "cli-inputs.json": #"{"serviceConfiguration": {"defaultAuthType": {"mode": "MAGIC"}}}"#,
        ])
        #expect(loadError(unknown)?.message.contains("'MAGIC'") == true)
        #expect(try AmplifyProject.load(projectDirectory: try folder(["schema.graphql": "type T @model { id: ID! }"])).authModes == nil)

        // Older projects: parameters.json names a user pool and an API key.
        let older = try folder([
            "schema.graphql": "type T @model { id: ID! }",
            "parameters.json": #"{"AppSyncApiName": "t", "AuthCognitoUserPoolId": {"Fn::GetAtt": ["authT", "Outputs.UserPoolId"]}, "CreateAPIKey": 1}"#,
        ])
        #expect(try AmplifyProject.load(projectDirectory: older).authModes == APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey]))
    }

    @Test func blogProjectWithTransformConfiguration() throws {
        let directory = try folder([
            "schema.graphql": try Fixture.text("blog.graphql"),
            "transform.conf.json": try Fixture.text("blog-transform.conf.json"),
        ])
        let project = try AmplifyProject.load(projectDirectory: directory)
        #expect(project.schemaFiles == [directory + "/schema.graphql"])
        #expect(project.schema.model(named: "Post") != nil)
        #expect(project.sync == SyncConfiguration(projectHandler: .automerge, modelHandlers: ["Reaction": .optimisticConcurrency]))
        #expect(project.sync.handler(for: "Post") == .automerge)
        #expect(project.sync.handler(for: "Reaction") == .optimisticConcurrency)
    }

    @Test func schemaFolderIsReadInNameOrder() throws {
        let directory = try folder([
            "schema/b-post.graphql": "type Post @model { id: ID! status: Status }",
            "schema/a-enums.graphql": "enum Status { OPEN }",
            "schema/notes.txt": "not a schema",
            "transform.conf.json": #"{"ResolverConfig": {"project": {"ConflictHandler": "OPTIMISTIC_CONCURRENCY", "ConflictDetection": "VERSION"}, "models": {"Post": {"ConflictHandler": "LAMBDA"}}}}"#,
        ])
        let project = try AmplifyProject.load(projectDirectory: directory)
        #expect(project.schemaFiles == [directory + "/schema/a-enums.graphql", directory + "/schema/b-post.graphql"])
        #expect(project.sync.projectHandler == .optimisticConcurrency)
        #expect(project.sync.handler(for: "Post") == .lambda)
    }

    @Test func withoutTransformConfigurationAutomergeApplies() throws {
        let directory = try folder(["schema.graphql": "type Post @model { id: ID! }"])
        let project = try AmplifyProject.load(projectDirectory: directory)
        #expect(project.sync == SyncConfiguration())
        #expect(project.sync.handler(for: "Post") == .automerge)
    }

    @Test func singleSchemaFile() throws {
        let directory = try folder(["blog.graphql": try Fixture.text("blog.graphql")])
        let project = try AmplifyProject.load(schemaFile: directory + "/blog.graphql")
        #expect(project.schemaFiles == [directory + "/blog.graphql"])
        #expect(project.schema.models.count == 6)
        #expect(project.sync == SyncConfiguration())
    }

    @Test func schemaErrorsNameTheFileInTheFolder() throws {
        let directory = try folder(["schema/post.graphql": "type Post @model {\n  id: ID!\n  blog: Blgo\n}"])
        let error = try #require(loadError(directory))
        #expect(error.file == directory + "/schema/post.graphql")
        #expect(error.line == 3 && error.column == 9)
    }

    @Test func badTransformConfiguration() throws {
        let schema = "type Post @model { id: ID! }"
        let badJSON = try #require(loadError(try folder(["schema.graphql": schema, "transform.conf.json": "{ nope"])))
        #expect(badJSON.file.hasSuffix("transform.conf.json"))
        #expect(badJSON.message.contains("not valid JSON"))

        let unknownHandler = try #require(loadError(try folder([
            "schema.graphql": schema,
            "transform.conf.json": #"{"ResolverConfig": {"project": {"ConflictHandler": "LAST_WRITER_WINS"}}}"#,
        ])))
        #expect(unknownHandler.file.hasSuffix("transform.conf.json"))
        #expect(unknownHandler.message.contains("LAST_WRITER_WINS"))

        let unknownModel = try #require(loadError(try folder([
            "schema.graphql": schema,
            "transform.conf.json": #"{"ResolverConfig": {"models": {"Pots": {"ConflictHandler": "AUTOMERGE"}}}}"#,
        ])))
        #expect(unknownModel.message.contains("Pots"))

        let unknownDetection = try #require(loadError(try folder([
            "schema.graphql": schema,
            "transform.conf.json": #"{"ResolverConfig": {"project": {"ConflictHandler": "AUTOMERGE", "ConflictDetection": "MAYBE"}}}"#,
        ])))
        #expect(unknownDetection.message.contains("MAYBE") && unknownDetection.message.contains("VERSION or NONE"))
        let notAnObject = try #require(loadError(try folder(["schema.graphql": schema, "transform.conf.json": #"{"ResolverConfig": 3}"#])))
        #expect(notAnObject.message.contains("ResolverConfig must be an object"))
    }

    /// Amplify's rule: a Gen 1 API is versioned exactly when transform.conf.json has a
    /// ResolverConfig with a `project` or `models` entry.
    @Test func conflictDetectionFollowsTheResolverConfig() throws {
        let schema = "type Post @model { id: ID! }"
        func load(_ configuration: String?) throws -> AmplifyProject {
            var files = ["schema.graphql": schema]
            files["transform.conf.json"] = configuration
            return try AmplifyProject.load(projectDirectory: try folder(files))
        }
        let bare = try load(nil)
        #expect(bare.conflictDetection == .none)
        #expect(bare.schema.model(named: "Post")?.operations.sync == nil)
        #expect(bare.conflictDetectionSource.contains("no transform.conf.json"))
        #expect(try load(#"{"Version": 5, "ElasticsearchWarning": true}"#).conflictDetection == .none)
        #expect(try load(#"{"Version": 5, "ResolverConfig": {}}"#).conflictDetection == .none)
        let versioned = try load(#"{"ResolverConfig": {"project": {"ConflictHandler": "AUTOMERGE", "ConflictDetection": "VERSION"}}}"#)
        #expect(versioned.conflictDetection == .version)
        #expect(versioned.schema.model(named: "Post")?.operations.sync == "syncPosts")
        #expect(versioned.conflictDetectionSource.contains("ResolverConfig"))
        #expect(try load(#"{"ResolverConfig": {"models": {"Post": {"ConflictHandler": "AUTOMERGE", "ConflictDetection": "VERSION"}}}}"#).conflictDetection == .version)

        // ConflictDetection NONE in an entry keeps the versioned shape and stops checking versions.
        let unchecked = try load(#"{"ResolverConfig": {"project": {"ConflictHandler": "AUTOMERGE", "ConflictDetection": "NONE"}}}"#)
        #expect(unchecked.conflictDetection == .version)
        #expect(unchecked.sync.handler(for: "Post") == .lastWriterWins)

        // A schema file alone is served versioned; --conflict-detection decides over both.
        let plain = versioned.servingConflictDetection(.none, because: "--conflict-detection none")
        #expect(plain.conflictDetection == .none && plain.schema.model(named: "Post")?.operations.sync == nil)
        #expect(plain.conflictDetectionSource == "--conflict-detection none")
    }

    @Test func missingOrAmbiguousSchema() throws {
        let empty = try #require(loadError(try folder([:])))
        #expect(empty.message.contains("no schema.graphql"))
        let both = try #require(loadError(try folder([
            "schema.graphql": "type A @model { id: ID! }", "schema/b.graphql": "type B @model { id: ID! }",
        ])))
        #expect(both.message.contains("both"))
        #expect(throws: SchemaError.self) { try AmplifyProject.load(schemaFile: "/nonexistent/schema.graphql") }
    }
}
