import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// The spec's matrix (appsync-auth.md §5) over HTTP: owner A (`alice`), owner B (`bob`), an
/// Admin group member (`carol`), an API key and no credentials, against
/// `@auth(rules: [{allow: owner}, {allow: groups, groups: ["Admin"]}, {allow: public, operations: [read]}])`
/// with user pools as the default mode and API key as an additional one.
@Suite struct OwnerRuleTests {
    static let schema = """
        type Todo @model @auth(rules: [
            { allow: owner },
            { allow: groups, groups: ["Admin"] },
            { allow: public, provider: apiKey, operations: [read] }
        ]) {
          id: ID!
          content: String
          # Declared, so callers may name an owner on create (an implicit one is server-set only).
          owner: String
        }
        """

    struct Callers {
        let server: DeltaSyncTestServer
        let alice: String
        let bob: String
        let carol: String

        func ask(_ token: String?, _ query: String, _ variables: JSONValue = [:]) async throws -> JSONValue {
            guard let token else { return try await server.graphQL(query, variables: variables) }
            return try await server.graphQL(query, variables: variables, token: token)
        }

        func create(_ token: String, id: String, owner: String? = nil) async throws -> JSONValue {
            var input: [String: JSONValue] = ["id": .string(id), "content": .string("todo \(id)")]
            if let owner { input["owner"] = .string(owner) }
            return try await ask(
                token, "mutation($i: CreateTodoInput!) { createTodo(input: $i) { id owner _version } }", ["i": .object(input)])
        }

        func ids(_ token: String?, _ field: String = "listTodos") async throws -> [String] {
            let answer = try await ask(token, "{ \(field) { items { id owner } } }")
            return (answer["data"][field]["items"].arrayValue ?? []).compactMap { $0["id"].stringValue }.sorted()
        }
    }

    /// Query plans (`x-deltasync-explain`) need the fixture API's key.
    static let adminKey = "dsa-ownerruletests"

    static func withCallers(_ body: (Callers) async throws -> Void) async throws {
        try await DeltaSyncTestServer.withServer(schema: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey])
            $0.adminKey = Self.adminKey
        }) { server in
            let callers = Callers(
                server: server,
                alice: try await server.token(username: "alice", sub: "a1"),
                bob: try await server.token(username: "bob", sub: "b1"),
                carol: try await server.token(username: "carol", sub: "c1", groups: ["Admin"]))
            try await body(callers)
        }
    }

    static func unauthorized(_ answer: JSONValue, _ field: String, on type: String) -> Bool {
        answer["errors"][0]["errorType"] == "Unauthorized"
            && answer["errors"][0]["message"] == .string("Not Authorized to access \(field) on type \(type)")
    }

    @Test func createFillsTheOwnerAndReturnsTheUsername() async throws {
        try await Self.withCallers { callers in
            let created = try await callers.create(callers.alice, id: "t1")
            #expect(created["errors"].isNull)
            #expect(created["data"]["createTodo"]["owner"] == "alice")
            // Any claim form of the caller is accepted as the owner; another user's is not.
            #expect(try await callers.create(callers.alice, id: "t2", owner: "a1")["errors"].isNull)
            #expect(try await callers.create(callers.alice, id: "t3", owner: "alice")["errors"].isNull)
            let forBob = try await callers.create(callers.alice, id: "t4", owner: "bob")
            #expect(Self.unauthorized(forBob, "createTodo", on: "Mutation"))
            #expect(forBob["data"]["createTodo"].isNull)
            // An Admin may create for someone else; the owner given is kept.
            let byAdmin = try await callers.create(callers.carol, id: "t5", owner: "bob")
            #expect(byAdmin["data"]["createTodo"]["owner"] == "bob")
            // The API key may only read: the mutation does not admit the mode.
            let byKey = try await callers.ask(
                nil, "mutation { createTodo(input: {id: \"k\", content: \"x\"}) { id } }")
            #expect(Self.unauthorized(byKey, "createTodo", on: "Mutation"))
        }
    }

    @Test func readsAreNarrowedToTheCallersItems() async throws {
        try await Self.withCallers { callers in
            _ = try await callers.create(callers.alice, id: "a-1")
            _ = try await callers.create(callers.alice, id: "a-2")
            _ = try await callers.create(callers.bob, id: "b-1")
            #expect(try await callers.ids(callers.alice) == ["a-1", "a-2"])
            #expect(try await callers.ids(callers.bob) == ["b-1"])
            #expect(try await callers.ids(callers.carol) == ["a-1", "a-2", "b-1"])
            #expect(try await callers.ids(nil) == ["a-1", "a-2", "b-1"])
            #expect(try await callers.ids(callers.alice, "syncTodos") == ["a-1", "a-2"])
            #expect(try await callers.ids(callers.bob, "syncTodos") == ["b-1"])
            // Bob's base sync reads his item through the owner index, not the whole table.
            let explained = try await DeltaSyncTestServer.graphQL(
                "{ syncTodos { items { id } } }", url: callers.server.graphQLURL,
                headers: ["authorization": callers.bob, "x-deltasync-explain": "1", "x-deltasync-admin-key": Self.adminKey])
            let plan = explained["extensions"]["deltasync"]["plans"][0]
            #expect(plan["index"] == "owner:owner")
            #expect(plan["scanned"] == 1)

            let get = "query($id: ID!) { getTodo(id: $id) { id owner } }"
            #expect(try await callers.ask(callers.alice, get, ["id": "a-1"])["data"]["getTodo"]["owner"] == "alice")
            let bobReads = try await callers.ask(callers.bob, get, ["id": "a-1"])
            #expect(Self.unauthorized(bobReads, "getTodo", on: "Query"))
            #expect(bobReads["data"]["getTodo"].isNull)
            #expect(try await callers.ask(callers.carol, get, ["id": "a-1"])["data"]["getTodo"]["id"] == "a-1")
            #expect(try await callers.ask(nil, get, ["id": "a-1"])["data"]["getTodo"]["id"] == "a-1")
            // A missing item is null without an error, for owners too.
            let missing = try await callers.ask(callers.bob, get, ["id": "nope"])
            #expect(missing["data"]["getTodo"].isNull)
            #expect(missing["errors"].isNull)
        }
    }

    @Test func updatesAndDeletesCheckTheStoredOwner() async throws {
        try await Self.withCallers { callers in
            _ = try await callers.create(callers.alice, id: "t1")
            let update = "mutation($i: UpdateTodoInput!) { updateTodo(input: $i) { id content owner _version } }"
            let delete = "mutation($i: DeleteTodoInput!) { deleteTodo(input: $i) { id _deleted _version } }"
            let bobUpdates = try await callers.ask(
                callers.bob, update, ["i": ["id": "t1", "content": "mine now", "owner": "bob", "_version": 1]])
            #expect(Self.unauthorized(bobUpdates, "updateTodo", on: "Mutation"))
            let bobDeletes = try await callers.ask(callers.bob, delete, ["i": ["id": "t1", "_version": 1]])
            #expect(Self.unauthorized(bobDeletes, "deleteTodo", on: "Mutation"))
            let keyDeletes = try await callers.ask(nil, delete, ["i": ["id": "t1", "_version": 1]])
            #expect(Self.unauthorized(keyDeletes, "deleteTodo", on: "Mutation"))

            let aliceUpdates = try await callers.ask(
                callers.alice, update, ["i": ["id": "t1", "content": "edited", "_version": 1]])
            #expect(aliceUpdates["data"]["updateTodo"]["content"] == "edited")
            #expect(aliceUpdates["data"]["updateTodo"]["owner"] == "alice")
            let adminDeletes = try await callers.ask(callers.carol, delete, ["i": ["id": "t1", "_version": 2]])
            #expect(adminDeletes["data"]["deleteTodo"]["_deleted"] == true)
            // The owner's delta sync still returns their tombstone; Bob's returns nothing.
            let delta = "query($s: AWSTimestamp) { syncTodos(lastSync: $s) { items { id _deleted } } }"
            let since: JSONValue = .int(Int(Date().timeIntervalSince1970 * 1000) - 60_000)
            let aliceDelta = try await callers.ask(callers.alice, delta, ["s": since])
            let aliceItems = aliceDelta["data"]["syncTodos"]["items"].arrayValue ?? []
            #expect(aliceItems.contains { $0["id"] == "t1" && $0["_deleted"] == true })
            let bobDelta = try await callers.ask(callers.bob, delta, ["s": since])
            #expect(bobDelta["data"]["syncTodos"]["items"] == [])
        }
    }

    /// Without a declared owner field the owner is the server's to set, as on AppSync: the
    /// generated inputs have no `owner`, so naming one is a validation error, on create and on
    /// update alike, and nobody can hand an item to someone else.
    @Test func anImplicitOwnerIsSetByTheServerOnly() async throws {
        let schema = "type Note @model @auth(rules: [{ allow: owner }]) { id: ID! text: String }"
        try await DeltaSyncTestServer.withServer(schema: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .userPools)
        }) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            let create = "mutation($i: CreateNoteInput!) { createNote(input: $i) { id owner _version } }"
            let naming = try await server.graphQL(create, variables: ["i": ["id": "n1", "owner": "bob"]], token: alice)
            #expect(naming["data"].isNull || naming["data"]["createNote"].isNull)
            #expect(naming["errors"][0]["message"].stringValue?.contains("owner") == true, "the error names the field")
            let created = try await server.graphQL(create, variables: ["i": ["id": "n1", "text": "mine"]], token: alice)
            #expect(created["data"]["createNote"]["owner"] == "alice")
            let update = "mutation($i: UpdateNoteInput!) { updateNote(input: $i) { id owner } }"
            let handing = try await server.graphQL(
                update, variables: ["i": ["id": "n1", "owner": "bob", "_version": 1]], token: alice)
            #expect(handing["errors"][0]["message"].stringValue?.contains("owner") == true)
            let stored = try await server.graphQL("{ getNote(id: \"n1\") { owner _version } }", token: alice)
            #expect(stored["data"]["getNote"] == ["owner": "alice", "_version": 1])
        }
    }
}
