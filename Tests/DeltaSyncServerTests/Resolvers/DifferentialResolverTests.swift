import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTestSupport
import Foundation
import Testing

/// Templates against the generated resolvers: two servers on the same schema (an owner rule
/// and an `Admin` group rule, conflict detection on), one answering `createTodo`,
/// `updateTodo`, `deleteTodo`, `getTodo`, `listTodos` and `todosByStatus` with VTL templates
/// written as Amplify writes them (``AmplifyStyleTemplates``) over the DynamoDB data source,
/// the other with DeltaSync's own resolvers. The same seeded operations, from an owner, another
/// user and an admin, with stale versions, conditions, deletes and reads of others' items,
/// get the same data and errors from both; afterwards both stores hold the same items,
/// versions, tombstones and delta log, as a DataStore's sync reads them.
@Suite struct DifferentialResolverTests {
    static let schema = """
        type Todo @model @auth(rules: [{allow: owner}, {allow: groups, groups: ["Admin"]}]) {
          id: ID!
          title: String!
          status: String! @index(name: "byStatus", sortKeyFields: ["priority"], queryField: "todosByStatus")
          priority: Int
          tags: [String]
          owner: String
        }
        """

    static let selection = "id title status priority tags _version _deleted"
    static let ids = ["t1", "t2", "t3", "t4", "t5"]
    static let callers: [TestCaller] = [.owner, .other, .member]

    @Test(arguments: [11 as UInt64, 12, 13])
    func templatesAnswerAsTheGeneratedResolvers(seed: UInt64) async throws {
        let now = Date()
        let common: @Sendable (inout ServerConfiguration) -> Void = { configuration in
            configuration.clock = { now }
            configuration.conflictHandler = .optimisticConcurrency
        }
        try await AuthorizationFixture.withServer(schema: Self.schema, configure: common) { generated in
            try await AuthorizationFixture.withServer(schema: Self.schema, configure: { configuration in
                common(&configuration)
                configuration.resolvers = AmplifyStyleTemplates.resolvers
                configuration.dataSources = AmplifyStyleTemplates.dataSources
            }) { templated in
                var random = SeededRandom(seed: seed)
                var versions: [String: Int] = [:]
                // What the run went through, so that passing means something: outcomes by field.
                var outcomes: Set<String> = []
                for step in 0..<80 {
                    let (caller, query, variables) = Self.operation(&random, versions: versions)
                    let expected = Self.comparable(try await generated.ask(caller, query, variables))
                    let answered = Self.comparable(try await templated.ask(caller, query, variables))
                    #expect(answered == expected, "seed \(seed) step \(step): \(caller) \(query) \(variables.jsonText)")
                    for (field, value) in expected["data"].objectValue ?? [:] {
                        let error = expected["errors"][0]["errorType"].stringValue
                        outcomes.insert("\(field):\(error ?? (value.isNull ? "null" : "value"))")
                    }
                    if case .object(let data) = expected["data"] {
                        for value in data.values where value["id"].stringValue != nil {
                            versions[value["id"].stringValue!] = value["_version"].intValue
                        }
                    }
                }
                for wanted in [
                    "createTodo:value", "updateTodo:value", "deleteTodo:value", "getTodo:value", "listTodos:value", "todosByStatus:value",
                    "createTodo:ConditionalCheckFailedException", "updateTodo:ConflictUnhandled", "updateTodo:Unauthorized",
                ] {
                    #expect(outcomes.contains(wanted), "seed \(seed) never saw \(wanted): \(outcomes.sorted())")
                }
                // What a DataStore's base sync reads: items, versions, tombstones; and its delta
                // sync from the start: the delta log.
                let sync = "query { syncTodos(limit: 1000) { items { \(Self.selection) owner _lastChangedAt } } }"
                let delta = "query($t: AWSTimestamp) { syncTodos(limit: 1000, lastSync: $t) { items { id _version _deleted _lastChangedAt } } }"
                let since = JSONValue.int(Int(now.timeIntervalSince1970 * 1000) - 1)
                let reads: [(String, JSONValue)] = [(sync, [:]), (delta, ["t": since])]
                for (query, variables) in reads {
                    let expected = try await generated.ask(.member, query, variables)
                    #expect(expected["errors"].isNull)
                    #expect(try await templated.ask(.member, query, variables) == expected, "seed \(seed): \(query)")
                }
            }
        }
    }

    /// A random operation from a random caller on a small set of ids, so that creates collide,
    /// updates meet stale versions and others' items, and deletes leave tombstones.
    static func operation(_ random: inout SeededRandom, versions: [String: Int]) -> (TestCaller, String, JSONValue) {
        let caller = callers.randomElement(using: &random)!
        let id = JSONValue.string(ids.randomElement(using: &random)!)
        let status = JSONValue.string(["open", "done"].randomElement(using: &random)!)
        // The version the client knows, sometimes stale.
        let known = versions[id.stringValue!] ?? 1
        let version = JSONValue.int(Int.random(in: 0..<4, using: &random) == 0 ? max(known - 1, 0) : known)
        let condition: JSONValue = Int.random(in: 0..<4, using: &random) == 0 ? ["priority": ["gt": 2]] : .null
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1:
            var input: Item = ["id": id, "title": .string("title \(Int.random(in: 0..<100, using: &random))"), "status": status]
            if Bool.random(using: &random) { input["priority"] = .int(Int.random(in: 0..<6, using: &random)) }
            if Bool.random(using: &random) { input["tags"] = ["a", "b"] }
            return (caller, "mutation($i: CreateTodoInput!, $c: ModelTodoConditionInput) { createTodo(input: $i, condition: $c) { \(selection) } }",
                    ["i": .object(input), "c": condition])
        case 2, 3:
            var input: Item = ["id": id, "_version": version]
            if Bool.random(using: &random) { input["title"] = .string("edited \(Int.random(in: 0..<100, using: &random))") }
            if Bool.random(using: &random) { input["priority"] = Bool.random(using: &random) ? .int(Int.random(in: 0..<6, using: &random)) : .null }
            if Bool.random(using: &random) { input["status"] = status }
            return (caller, "mutation($i: UpdateTodoInput!, $c: ModelTodoConditionInput) { updateTodo(input: $i, condition: $c) { \(selection) } }",
                    ["i": .object(input), "c": condition])
        case 4:
            return (caller, "mutation($i: DeleteTodoInput!, $c: ModelTodoConditionInput) { deleteTodo(input: $i, condition: $c) { \(selection) } }",
                    ["i": ["id": id, "_version": version], "c": condition])
        case 5:
            return (caller, "query($id: ID!) { getTodo(id: $id) { \(selection) owner } }", ["id": id])
        default:
            if Bool.random(using: &random) {
                return (caller, "query { listTodos { items { \(selection) owner } } }", [:])
            }
            return (caller, "query($s: String!, $d: ModelSortDirection) { todosByStatus(status: $s, sortDirection: $d) { items { \(selection) } } }",
                    ["s": status, "d": Bool.random(using: &random) ? "DESC" : "ASC"])
        }
    }

    /// An answer as the comparison reads it: data, and each error's type, message, data and
    /// path (not its locations, which name the template's lines on one side).
    static func comparable(_ answer: JSONValue) -> JSONValue {
        let errors = (answer["errors"].arrayValue ?? []).map { error -> JSONValue in
            ["errorType": error["errorType"], "message": error["message"], "data": error["data"], "path": error["path"]]
        }
        return ["data": answer["data"], "errors": .array(errors)]
    }
}
