import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Testing

/// The spec's variants (appsync-auth.md §5) and field-level rules, each against its own schema:
/// a private grant short-circuits owner filtering, an operation list without `sync` leaves
/// sync refused, owner lists, legacy owner values, tokens without the claim, and fields with
/// rules of their own.
@Suite struct AuthRuleVariantTests {
    static func withUsers(
        _ schema: String, _ body: (DeltaSyncTestServer, _ alice: String, _ bob: String) async throws -> Void
    ) async throws {
        try await DeltaSyncTestServer.withServer(schema: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey])
        }) { server in
            try await body(server, try await server.token(username: "alice", sub: "a1"), try await server.token(username: "bob", sub: "b1"))
        }
    }

    static func ids(_ answer: JSONValue, _ field: String) -> [String] {
        (answer["data"][field]["items"].arrayValue ?? []).compactMap { $0["id"].stringValue }.sorted()
    }

    @Test func aPrivateReadGrantShowsEveryRow() async throws {
        try await Self.withUsers("""
            type Doc @model @auth(rules: [{ allow: owner }, { allow: private, operations: [read] }]) { id: ID! }
            """) { server, alice, bob in
            _ = try await server.graphQL("mutation { createDoc(input: {id: \"d1\"}) { id } }", token: alice)
            let synced = try await server.graphQL("{ syncDocs { items { id } } }", token: bob)
            #expect(Self.ids(synced, "syncDocs") == ["d1"])
            let update = try await server.graphQL("mutation { updateDoc(input: {id: \"d1\", _version: 1}) { id } }", token: bob)
            #expect(update["errors"][0]["message"] == "Not Authorized to access updateDoc on type Mutation")
        }
    }

    @Test func operationsWithoutSyncLeaveSyncRefused() async throws {
        try await Self.withUsers("""
            type Doc @model @auth(rules: [{ allow: owner, operations: [get, list, create] }]) { id: ID! }
            """) { server, alice, _ in
            let synced = try await server.graphQL("{ syncDocs { items { id } } }", token: alice)
            #expect(synced["errors"][0]["errorType"] == "Unauthorized")
            #expect(synced["errors"][0]["message"] == "Not Authorized to access syncDocs on type Query")
            #expect(try await server.graphQL("{ listDocs { items { id } } }", token: alice)["errors"].isNull)
        }
    }

    @Test func ownerListsMatchAnyListedOwnerAndTakeNoSubscriptionArgument() async throws {
        try await Self.withUsers("""
            type Doc @model @auth(rules: [{ allow: owner, ownerField: "editors", identityClaim: "username" }]) {
              id: ID!
              editors: [String]
            }
            """) { server, alice, bob in
            let created = try await server.graphQL(
                "mutation { createDoc(input: {id: \"d1\"}) { id editors } }", token: alice)
            #expect(created["data"]["createDoc"]["editors"] == ["alice"])
            _ = try await server.graphQL(
                "mutation { createDoc(input: {id: \"d2\", editors: [\"bob\", \"alice\"]}) { id } }", token: alice)
            #expect(Self.ids(try await server.graphQL("{ listDocs { items { id } } }", token: bob), "listDocs") == ["d2"])
            #expect(Self.ids(try await server.graphQL("{ listDocs { items { id } } }", token: alice), "listDocs") == ["d1", "d2"])
            let sdl = try await server.graphQL("{ __type(name: \"Subscription\") { fields { name args { name } } } }", token: alice)
            let arguments = (sdl["data"]["__type"]["fields"][0]["args"].arrayValue ?? []).compactMap { $0["name"].stringValue }
            #expect(arguments == ["filter"])
        }
    }

    @Test func legacyOwnerValuesAndTokensWithoutTheClaim() async throws {
        try await Self.withUsers("type Doc @model @auth(rules: [{ allow: owner }]) { id: ID! owner: String }") { server, alice, _ in
            // An item written as "alice" (before the sub::username claim) is still Alice's.
            _ = try await server.graphQL("mutation { createDoc(input: {id: \"legacy\", owner: \"alice\"}) { id } }", token: alice)
            #expect(Self.ids(try await server.graphQL("{ listDocs { items { id } } }", token: alice), "listDocs") == ["legacy"])
            // A token with neither sub nor username cannot be anyone's owner.
            let nobody = try await server.token(username: "", sub: "", claims: ["sub": .null, "cognito:username": .null])
            let listed = try await server.graphQL("{ listDocs { items { id } } }", token: nobody)
            #expect(listed["errors"][0]["message"] == "Not Authorized to access listDocs on type Query")
        }
    }

    @Test func fieldRulesGuardReadsAndWrites() async throws {
        try await Self.withUsers("""
            type Profile @model @auth(rules: [{ allow: owner }, { allow: private, operations: [read] }]) {
              id: ID!
              name: String
              salary: Int @auth(rules: [{ allow: owner }])
              owner: String @auth(rules: [{ allow: owner, operations: [read, delete] }, { allow: private, operations: [read] }])
            }
            """) { server, alice, bob in
            let created = try await server.graphQL(
                "mutation { createProfile(input: {id: \"p1\", name: \"Alice\", salary: 10}) { id owner salary } }", token: alice)
            #expect(created["errors"].isNull)
            #expect(created["data"]["createProfile"]["owner"] == "alice")
            // Bob reads the profile but not the salary: null with AppSync's field error.
            let read = try await server.graphQL("{ getProfile(id: \"p1\") { id name salary } }", token: bob)
            #expect(read["data"]["getProfile"]["name"] == "Alice")
            #expect(read["data"]["getProfile"]["salary"].isNull)
            #expect(read["errors"][0]["message"] == "Not Authorized to access salary on type Profile")
            // Alice may not hand the profile to Bob: the owner field's own rules lack update.
            let reassigned = try await server.graphQL(
                "mutation { updateProfile(input: {id: \"p1\", owner: \"bob\", _version: 1}) { id } }", token: alice)
            #expect(reassigned["errors"][0]["errorType"] == "Unauthorized")
            #expect(reassigned["errors"][0]["message"] == "Unauthorized on [owner]")
            let renamed = try await server.graphQL(
                "mutation { updateProfile(input: {id: \"p1\", name: \"Al\", _version: 1}) { id name } }", token: alice)
            #expect(renamed["data"]["updateProfile"]["name"] == "Al")
        }
    }

    @Test func dynamicGroupsAndACustomIdentityClaim() async throws {
        try await Self.withUsers("""
            type Board @model @auth(rules: [
              { allow: groups, groupsField: "teams" },
              { allow: owner, ownerField: "author", identityClaim: "sub" }
            ]) {
              id: ID!
              teams: [String]
              author: String
            }
            """) { server, alice, bob in
            let red = try await server.token(username: "carol", sub: "c1", groups: ["red"])
            _ = try await server.graphQL(
                "mutation { createBoard(input: {id: \"b1\", teams: [\"red\", \"blue\"]}) { id author } }", token: alice)
            let created = try await server.graphQL("{ getBoard(id: \"b1\") { id author } }", token: alice)
            #expect(created["data"]["getBoard"]["author"] == "a1", "the claim named, sub, is stored as is")
            // Carol is in a team the board lists; Bob is in none and is not its author.
            #expect(try await server.graphQL("{ getBoard(id: \"b1\") { id } }", token: red)["data"]["getBoard"]["id"] == "b1")
            #expect(Self.ids(try await server.graphQL("{ listBoards { items { id } } }", token: red), "listBoards") == ["b1"])
            let bobReads = try await server.graphQL("{ getBoard(id: \"b1\") { id } }", token: bob)
            #expect(bobReads["errors"][0]["message"] == "Not Authorized to access getBoard on type Query")
            #expect(Self.ids(try await server.graphQL("{ listBoards { items { id } } }", token: bob), "listBoards") == [])
        }
    }

    @Test func modeDirectivesWrittenInTheSchemaDecideWhichModesMayTouchATypeOrField() async throws {
        try await DeltaSyncTestServer.withServer(schema: """
            type Memo @model @aws_api_key @aws_cognito_user_pools {
              id: ID!
              text: String
              secret: String @aws_cognito_user_pools
            }
            """, configure: { $0.authModes = APIAuthModes(defaultMode: .apiKey, additionalModes: [.userPools]) }) { server in
            let alice = try await server.token(username: "alice")
            let created = try await server.graphQL("mutation { createMemo(input: {id: \"m1\", text: \"hi\", secret: \"s\"}) { id } }")
            #expect(created["errors"].isNull)
            // The type's directives admit both modes to its fields, the field's own replace them.
            let byKey = try await server.graphQL("{ getMemo(id: \"m1\") { id text secret } }")
            #expect(byKey["data"]["getMemo"]["text"] == "hi")
            #expect(byKey["data"]["getMemo"]["secret"].isNull)
            #expect(byKey["errors"][0]["message"] == "Not Authorized to access secret on type Memo")
            // Root fields keep their own: undirected, the default mode alone, as on AppSync.
            let byUser = try await server.graphQL("{ getMemo(id: \"m1\") { id secret } }", token: alice)
            #expect(byUser["errors"][0]["message"] == "Not Authorized to access getMemo on type Query")
        }
    }
}
