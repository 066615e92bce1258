import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import Testing

@Suite struct ConflictTests {
    /// A model with the field kinds Automerge treats differently.
    static let playerSchema = """
        type Stats { ppg: Float apg: Float rpg: Float }
        type Player @model {
          id: ID!
          name: String
          interests: [String]
          points: [Int]
          stats: Stats
          nickname: String
        }
        """

    static func players(_ handler: ConflictHandlerKind) throws -> AmplifyProject {
        AmplifyProject(
            schema: try AmplifySchema.parse(source: playerSchema, file: "players.graphql"),
            sync: SyncConfiguration(projectHandler: handler), schemaFiles: ["players.graphql"])
    }

    static let update = """
        mutation($i: UpdatePlayerInput!) {
          updatePlayer(input: $i) { id name interests points stats { ppg apg rpg } nickname _version }
        }
        """
    static let delete = "mutation($i: DeletePlayerInput!) { deletePlayer(input: $i) { id _version _deleted } }"

    /// Creates player p1 and updates it to `_version` 6, like the AppSync documentation's example.
    static func seedVersion6(_ client: TestServer.Client) async throws {
        _ = try await client.expectData(
            "createPlayer", "mutation($i: CreatePlayerInput!) { createPlayer(input: $i) { id } }",
            ["i": ["id": "p1", "name": "Nadia", "interests": ["basketball"], "points": [24]]])
        let steps: [JSONValue] = [
            ["interests": ["basketball", "lacrosse"]], ["points": [24, 30]], ["interests": ["basketball", "lacrosse", "dance"]],
            ["points": [24, 30, 27]], ["stats": ["ppg": 25.7, "apg": 6.4]],
        ]
        for (n, step) in steps.enumerated() {
            var input = step.objectValue!
            input["id"] = "p1"
            input["_version"] = .int(n + 1)
            _ = try await client.expectData("updatePlayer", update, ["i": .object(input)])
        }
    }

    @Test func optimisticConcurrencyRejectsAStaleUpdate() async throws {
        try await TestServer(project: try Self.players(.optimisticConcurrency)).withClient { client in
            try await Self.seedVersion6(client)
            let reply = try await client.graphQL(Self.update, ["i": ["id": "p1", "name": "Stale", "_version": 5]])
            #expect(reply.data["updatePlayer"] == .null)
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            #expect(reply.firstError["data"]["_version"] == 6)
            #expect(reply.firstError["data"]["name"] == "Nadia")
            let keys = Set(reply.firstError["data"].objectValue?.keys.map { $0 } ?? [])
            #expect(keys == ["id", "name", "interests", "points", "stats", "nickname", "_version"], "only the selected fields")
        }
    }

    @Test func automergeFollowsTheDocumentedExample() async throws {
        try await TestServer(project: try Self.players(.automerge)).withClient { client in
            try await Self.seedVersion6(client)
            let merged = try await client.expectData(
                "updatePlayer", Self.update,
                ["i": ["id": "p1", "name": "Stale name", "nickname": "Nad", "points": [30, 35],
                       "stats": ["ppg": 30.0, "rpg": 8.1], "_version": 5]])
            #expect(merged["_version"] == 7, "the merge is stored with a bumped version")
            #expect(merged["points"] == [24, 30, 27, 30, 35], "lists append, duplicates kept")
            #expect(merged["name"] == "Nadia", "the server's scalar wins")
            #expect(merged["nickname"] == "Nad", "a field null on the server takes the incoming value")
            #expect(merged["stats"] == ["ppg": 25.7, "apg": 6.4, "rpg": 8.1], "maps merge field by field")
            #expect(merged["interests"] == ["basketball", "lacrosse", "dance"], "fields not sent are kept")
        }
    }

    @Test func automergeRejectsAStaleDelete() async throws {
        try await TestServer(project: try Self.players(.automerge)).withClient { client in
            try await Self.seedVersion6(client)
            let reply = try await client.graphQL(Self.delete, ["i": ["id": "p1", "_version": 3]])
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            let current = try await client.expectData("deletePlayer", Self.delete, ["i": ["id": "p1", "_version": 6]])
            #expect(current["_deleted"] == true)
        }
    }

    @Test func lambdaClosureDecides() async throws {
        let seen = NIOLockedValueBox<[LambdaConflictRequest]>([])
        let project = try Self.players(.lambda)
        try await TestServer(project: project, configure: {
            $0.lambdaConflictHandler = { request in
                seen.withLockedValue { $0.append(request) }
                switch request.newItem["name"].stringValue {
                case "resolve": return .resolve(["name": "resolved by lambda", "id": "ignored", "_version": 99])
                case "reject": return .reject
                default: return .remove
                }
            }
        }).withClient { client in
            try await Self.seedVersion6(client)
            let resolved = try await client.expectData("updatePlayer", Self.update, ["i": ["id": "p1", "name": "resolve", "_version": 2]])
            #expect(resolved["name"] == "resolved by lambda")
            #expect(resolved["id"] == "p1", "the key is the server's")
            #expect(resolved["_version"] == 7)
            #expect(resolved["interests"] == .null, "RESOLVE replaces the item's fields")

            let rejected = try await client.graphQL(Self.update, ["i": ["id": "p1", "name": "reject", "_version": 2]])
            #expect(rejected.firstError["errorType"] == "ConflictUnhandled")
            #expect(rejected.firstError["data"]["_version"] == 7)

            let wrongAnswer = try await client.graphQL(Self.update, ["i": ["id": "p1", "name": "remove", "_version": 2]])
            #expect(wrongAnswer.firstError["errorType"] == "ConflictError", "REMOVE does not apply to an update")

            let removed = try await client.expectData("deletePlayer", Self.delete, ["i": ["id": "p1", "_version": 1]])
            #expect(removed["_deleted"] == true)

            let request = try #require(seen.withLockedValue { $0.first })
            #expect(request.existingItem["_version"] == 6)
            #expect(request.newItem["name"] == "resolve")
            #expect(request.arguments["input"]["_version"] == 2)
            #expect(request.resolver["field"] == "updatePlayer")
            #expect(request.resolver["parentType"] == "Mutation")
            #expect(request.identity == .null)
        }
    }

    @Test func failingLambdaIsAConflictErrorAndWritesNothing() async throws {
        struct Unreachable: Error {}
        try await TestServer(project: try Self.players(.lambda), configure: {
            $0.lambdaConflictHandler = { _ in throw Unreachable() }
        }).withClient { client in
            try await Self.seedVersion6(client)
            let reply = try await client.graphQL(Self.update, ["i": ["id": "p1", "name": "x", "_version": 2]])
            #expect(reply.firstError["errorType"] == "ConflictError")
            let stored = try await client.expectData("getPlayer", #"{ getPlayer(id: "p1") { name _version } }"#)
            #expect(stored == ["name": "Nadia", "_version": 6])
        }
    }

    @Test func lambdaOverHTTPResolvesAndMalformedAnswersFail() async throws {
        // A stand-in for an existing Lambda function behind a small local HTTP wrapper.
        let router = Router()
        router.post("/conflict") { request, _ -> Response in
            let payload = try JSONValue(parsing: String(buffer: try await request.body.collect(upTo: 1 << 20)))
            let answer: String
            switch payload["newItem"]["name"].stringValue {
            case "merge": answer = #"{"action":"RESOLVE","item":{"name":"from http","nickname":"\#(payload["existingItem"]["name"].stringValue ?? "")"}}"#
            case "garbage": answer = "not json"
            default: answer = #"{"action":"MAYBE"}"#
            }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        let lambda = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await lambda.test(.live) { lambdaClient in
            let url = "http://127.0.0.1:\(lambdaClient.port!)/conflict"
            try await TestServer(project: try Self.players(.lambda), configure: {
                $0.lambdaConflictHandler = LambdaConflictHandlers.http(url: url)
            }).withClient { client in
                try await Self.seedVersion6(client)
                let resolved = try await client.expectData(
                    "updatePlayer", Self.update, ["i": ["id": "p1", "name": "merge", "_version": 4]])
                #expect(resolved["name"] == "from http")
                #expect(resolved["nickname"] == "Nadia")
                for bad in ["garbage", "unknown"] {
                    let reply = try await client.graphQL(Self.update, ["i": ["id": "p1", "name": .string(bad), "_version": 1]])
                    #expect(reply.firstError["errorType"] == "ConflictError")
                }
            }
        }
        let unreachable = LambdaConflictHandlers.http(url: "http://127.0.0.1:1/nothing-listens-here")
        try await TestServer(project: try Self.players(.lambda), configure: { $0.lambdaConflictHandler = unreachable })
            .withClient { client in
                try await Self.seedVersion6(client)
                let reply = try await client.graphQL(Self.update, ["i": ["id": "p1", "name": "x", "_version": 1]])
                #expect(reply.firstError["errorType"] == "ConflictError")
            }
    }

    /// Found by a simulation: a handler that resolved with an item missing a required field
    /// failed the mutation, and the conflict log had no trace of it.
    @Test("a Lambda answer that cannot be stored fails the mutation and is in the conflict log")
    func anUnstorableResolutionIsLogged() async throws {
        let project = AmplifyProject(
            schema: try AmplifySchema.parse(source: "type Todo @model { id: ID! name: String! }", file: "todos.graphql"),
            sync: SyncConfiguration(projectHandler: .lambda), schemaFiles: ["todos.graphql"])
        try await TestServer(project: project, configure: { $0.lambdaConflictHandler = { _ in .resolve(["name": .null]) } }).withClient { client in
            let update = "mutation($i: UpdateTodoInput!) { updateTodo(input: $i) { id name _version } }"
            _ = try await client.expectData("createTodo", #"mutation { createTodo(input: {id: "t1", name: "milk"}) { id } }"#)
            _ = try await client.expectData("updateTodo", update, ["i": ["id": "t1", "name": "oat milk", "_version": 1]])
            let stale = try await client.graphQL(update, ["i": ["id": "t1", "name": "soy milk", "_version": 1]])
            #expect(stale.data["updateTodo"].isNull)
            #expect(!stale.errors.isEmpty)
            let logged = try await client.admin(.get, "/admin/conflicts?model=Todo").json["conflicts"]
            #expect(logged[0]["outcome"].stringValue?.hasPrefix("error: ") == true, "\(logged)")
            #expect(logged[0]["handler"] == "LAMBDA")
        }
    }

    @Test func conflictsAreRecordedAndReadableThroughTheAdminEndpoint() async throws {
        try await TestServer(project: try Self.players(.automerge)).withClient { client in
            try await Self.seedVersion6(client)
            _ = try await client.expectData("updatePlayer", Self.update, ["i": ["id": "p1", "points": [1], "_version": 2]])
            _ = try await client.graphQL(Self.delete, ["i": ["id": "p1", "_version": 3]])
            let reply = try await client.admin(.get, "/admin/conflicts?model=Player")
            #expect(reply.status == .ok)
            let conflicts = try #require(reply.json["conflicts"].arrayValue)
            #expect(conflicts.count == 2)
            #expect(conflicts[0]["mutation"] == "deletePlayer")
            #expect(conflicts[0]["outcome"] == "rejected")
            #expect(conflicts[0]["storedVersion"] == 7)
            #expect(conflicts[1]["outcome"] == "merged")
            #expect(conflicts[1]["incomingVersion"] == 2)
            #expect(conflicts[1]["resultVersion"] == 7)
            #expect(conflicts[1]["handler"] == "AUTOMERGE")
            #expect(conflicts[1]["key"] == ["id": "p1"])
            let none = try await client.admin(.get, "/admin/conflicts?model=Other")
            #expect(none.json["conflicts"] == [])
        }
    }

    /// Tagged `.timing`: on two busy cores a writer's turn at the item can outlast the
    /// server's execution time limit; the suites run it apart from the parallel run.
    @Test(.tags(.timing)) func concurrentWritersToOneItemNeverReuseAVersion() async throws {
        try await TestServer(project: try Self.players(.optimisticConcurrency)).withClient { client in
            _ = try await client.expectData(
                "createPlayer", "mutation { createPlayer(input: {id: \"p1\", name: \"n\"}) { id } }")
            // 40 writers each retry until their update lands; every version 2...41 is taken once.
            let versions = try await withThrowingTaskGroup(of: Int.self) { group in
                for writer in 0..<40 {
                    group.addTask {
                        var version = 1
                        while true {
                            let reply = try await client.graphQL(
                                Self.update, ["i": ["id": "p1", "nickname": .string("w\(writer)"), "_version": .int(version)]])
                            if let written = reply.data["updatePlayer"]["_version"].intValue { return written }
                            guard reply.firstError["errorType"] == "ConflictUnhandled",
                                let current = reply.firstError["data"]["_version"].intValue
                            else { throw TestFailure("unexpected reply \(reply.json.jsonText)") }
                            version = current
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(versions.sorted() == Array(2...41))
        }
    }
}
