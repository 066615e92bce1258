import DeltaSyncCore
import DeltaSyncTestSupport
import GraphQL
import Testing

@testable import DeltaSyncGraphQL
@testable import DeltaSyncRealtime
@testable import DeltaSyncServer

/// Generated mutations with their arguments in variables run without the GraphQL executor;
/// a directive on the mutation field makes the server use the executor, so the two can be
/// compared: every answer, successes and each kind of error, must be the same.
@Suite struct MutationShortcutTests {
    struct Case: Sendable, CustomStringConvertible {
        let description: String
        let operation: String
        let field: String
        let selection: String
        let variables: JSONValue
    }

    static let postSelection = "id title views status tags __typename _version _deleted _lastChangedAt location { lat lon }"

    static func create(_ description: String, _ input: JSONValue) -> Case {
        Case(
            description: description, operation: "mutation M($input: CreatePostInput!)", field: "createPost(input: $input)",
            selection: postSelection, variables: ["input": input])
    }

    static let cases: [Case] = [
        create("a new post", ["id": "n1", "blogID": "b1", "title": "New", "views": 2, "tags": ["x"], "location": ["lat": 1, "lon": 2]]),
        create("a single value for a list", ["id": "n2", "blogID": "b1", "title": "New", "tags": "one"]),
        create("an existing key", ["id": "s1", "blogID": "b1", "title": "Again"]),
        create("an unknown input field", ["id": "n3", "blogID": "b1", "title": "New", "colour": "red"]),
        create("a missing required field", ["id": "n4", "blogID": "b1"]),
        create("a wrongly typed value", ["id": "n5", "blogID": "b1", "title": "New", "rating": "high"]),
        create("an unknown enum value", ["id": "n6", "blogID": "b1", "title": "New", "status": "LOST"]),
        create("an invalid AWSDateTime", ["id": "n7", "blogID": "b1", "title": "New", "publishedAt": "soon"]),
        create("a server-owned field", ["id": "n8", "blogID": "b1", "title": "New", "_lastChangedAt": 5]),
        Case(
            description: "no variables", operation: "mutation M($input: CreatePostInput!)", field: "createPost(input: $input)",
            selection: "id", variables: [:]),
        Case(
            description: "a condition that holds", operation: "mutation M($input: UpdatePostInput!, $condition: ModelPostConditionInput)",
            field: "updatePost(input: $input, condition: $condition)", selection: postSelection,
            variables: ["input": ["id": "s1", "title": "Changed", "_version": 2], "condition": ["title": ["eq": "Seeded, edited"]]]),
        Case(
            description: "a condition that fails", operation: "mutation M($input: UpdatePostInput!, $condition: ModelPostConditionInput)",
            field: "updatePost(input: $input, condition: $condition)", selection: postSelection,
            variables: ["input": ["id": "s1", "title": "Changed", "_version": 2], "condition": ["title": ["eq": "nope"]]]),
        Case(
            description: "a stale update, merged", operation: "mutation M($input: UpdatePostInput!)", field: "updatePost(input: $input)",
            selection: postSelection, variables: ["input": ["id": "s1", "views": 7.5, "_version": 1]]),
        Case(
            description: "a stale delete, rejected with the server's item", operation: "mutation M($input: DeletePostInput!)",
            field: "deletePost(input: $input)", selection: postSelection, variables: ["input": ["id": "s1", "_version": 1]]),
        Case(
            description: "a delete", operation: "mutation M($input: DeletePostInput!)", field: "deletePost(input: $input)",
            selection: postSelection, variables: ["input": ["id": "s1", "_version": 2]]),
        Case(
            description: "a delete of a missing item", operation: "mutation M($input: DeletePostInput!)", field: "deletePost(input: $input)",
            selection: "id", variables: ["input": ["id": "missing", "_version": 1]]),
    ]

    /// The reply to `operation` on a fresh server holding post `s1` at version 2, with the
    /// change times (which differ between runs) masked.
    static func reply(_ test: Case, directive: String) async throws -> JSONValue {
        try await TestServer().withClient { client in
            _ = try await client.expectData(
                "createPost", #"mutation { createPost(input: {id: "s1", blogID: "b1", title: "Seeded"}) { id } }"#)
            _ = try await client.expectData(
                "updatePost", #"mutation { updatePost(input: {id: "s1", title: "Seeded, edited", _version: 1}) { id } }"#)
            let reply = try await client.graphQL(
                "\(test.operation) { result: \(test.field) \(directive) { \(test.selection) } }", test.variables)
            return masked(reply.json)
        }
    }

    static func masked(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var out: [String: JSONValue] = [:]
            for (key, member) in object {
                out[key] = ["_lastChangedAt", "createdAt", "updatedAt"].contains(key) && !member.isNull ? "changed" : masked(member)
            }
            return .object(out)
        case .array(let elements): return .array(elements.map(masked))
        default: return value
        }
    }

    /// Which requests skip the executor: the comparison above is only worth something if the
    /// cases without a directive do.
    @Test(arguments: [
        ("mutation M($i: CreatePostInput!) { createPost(input: $i) { id title } }", true),
        ("mutation M($i: UpdatePostInput!, $c: ModelPostConditionInput) { r: updatePost(input: $i, condition: $c) { ...F } } fragment F on Post { id }", true),
        ("mutation M($i: CreatePostInput!) { createPost(input: $i) @include(if: true) { id } }", false),
        ("mutation M($i: CreatePostInput!) { createPost(input: $i, condition: null) { id } }", false),
        ("mutation M($i: CreatePostInput!) { createPost(input: $i) { id blog { id } } }", false),
        ("mutation M($i: CreatePostInput!) { a: createPost(input: $i) { id } b: createPost(input: $i) { id } }", false),
        ("mutation M($i: CreatePostInput! = {blogID: \"b\", title: \"t\"}) { createPost(input: $i) { id } }", false),
    ])
    func takesDataStoreShapedMutationsOnly(_ query: String, shortcut: Bool) async throws {
        let server = try await TestServer().server
        let document = try parse(source: Source(body: query))
        let operation = try #require(document.definitions.compactMap { $0 as? OperationDefinition }.first)
        let fragments = Dictionary(
            uniqueKeysWithValues: document.definitions.compactMap { $0 as? FragmentDefinition }.map { ($0.name.value, $0) })
        let taken = MutationShortcut(operation, fragments: fragments, schema: server.executor.schema) != nil
        #expect(taken == shortcut)
    }

    @Test(arguments: cases)
    func answersAsTheExecutorDoes(_ test: Case) async throws {
        let shortcut = try await Self.reply(test, directive: "")
        let executor = try await Self.reply(test, directive: "@include(if: true)")
        #expect(shortcut == executor)
        #expect(shortcut["data"] != .null || shortcut["errors"] != .null)
    }

    // MARK: - Seeded inputs

    /// A value for one field of a post's input, one the library accepts or (`wrong`) one it
    /// may refuse: a wrong type, a nested mistake, out of range.
    static func randomField(_ name: String, wrong: Bool, _ random: inout SeededRandom) -> JSONValue? {
        switch (name, wrong) {
        case ("title", false), ("blogID", false): return .string("t\(random.int(in: 0...9))")
        case ("title", true), ("blogID", true): return random.pick([.int(3), .null, ["t"]])
        case ("views", false): return random.pick([.int(4), .double(2.5), .null])
        case ("views", true): return random.pick([.string("7"), .bool(true), .int(Int(Int32.max) + 1)])
        case ("rating", false): return random.pick([.int(1), .double(1.0), .null])
        case ("rating", true): return random.pick([.string("x"), .double(1.5)])
        case ("status", false): return random.pick(["DRAFT", "PUBLISHED"])
        case ("status", true): return random.pick(["LOST", .int(1), "draft"])
        case ("tags", false): return random.pick([["a", "b"], "one", [], .null])
        // Not `["a", null]`: accepted, but the library's executor cannot write a list with a null
        // element when it completes the result itself (its `map(from:)` of a nested optional),
        // so the comparison would fail on the executor's side.
        case ("tags", true): return random.pick([[["nested"]], .int(2), ["a", 1.5]])
        case ("location", false): return random.pick([["lat": 1, "lon": 2], ["lat": 1.5, "lon": -2], .null])
        case ("location", true): return random.pick([["lat": 1], ["lat": 1, "lon": 2, "alt": 3], ["lat": "n", "lon": 2], "here"])
        case ("publishedAt", false): return random.pick(["2024-01-02T03:04:05.678Z", "2024-01-02T03:04:05Z"])
        case ("publishedAt", true): return random.pick(["soon", .int(5), "2024-13-02T03:04:05Z"])
        default: return .string("odd")
        }
    }

    static func randomCondition(_ random: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let leaf: JSONValue = random.pick([
            ["title": ["eq": "Seeded"]], ["title": ["ne": "x"]], ["views": ["gt": 1]], ["views": ["between": [1, 5]]],
            ["title": ["eq": 5]], ["colour": ["eq": "red"]], ["title": ["attributeExists": true]], ["status": ["eq": "LOST"]],
        ])
        guard depth < 2, random.chance(0.4) else { return leaf }
        switch random.int(in: 0...2) {
        case 0: return ["and": .array((0..<random.int(in: 0...2)).map { _ in randomCondition(&random, depth: depth + 1) })]
        case 1: return ["or": randomCondition(&random, depth: depth + 1)]  // a single value for a list
        default: return ["not": randomCondition(&random, depth: depth + 1)]
        }
    }

    @Test("seeded inputs, right and wrong, get the same answers from the shortcut as from the executor")
    func seededInputsAnswerAsTheExecutorDoes() async throws {
        var random = SeededRandom(seed: 23)
        let cases = (0..<60).map { _ -> (input: [String: JSONValue], update: Bool, condition: JSONValue?) in
            // Half the cases right throughout; the others with one mistake, or an unknown field.
            let names = ["blogID", "title", "views", "rating", "status", "tags", "location", "publishedAt"]
            let wrong = random.chance(0.5) ? random.pick(names + ["colour"]) : nil
            var input: [String: JSONValue] = [:]
            for name in names where name == wrong || random.chance(0.7) {
                input[name] = Self.randomField(name, wrong: name == wrong, &random)
            }
            if wrong == "colour" { input["colour"] = "red" }
            let update = random.chance(0.4)
            return (input, update, random.chance(0.7) ? Self.randomCondition(&random) : nil)
        }
        try await TestServer().withClient { client in
            var accepted = 0
            for (n, (input, update, condition)) in cases.enumerated() {
                var replies: [JSONValue] = []
                for (path, directive) in [("s", ""), ("e", "@include(if: true)")] {
                    let id = "\(path)\(n)"
                    var fields = input
                    fields["id"] = .string(id)
                    if update { fields["_version"] = 1 }
                    var variables: [String: JSONValue] = ["input": .object(fields)]
                    let operation: String
                    if update {
                        _ = try await client.expectData(
                            "createPost", #"mutation { createPost(input: {id: "\#(id)", blogID: "b1", title: "Seeded", views: 2}) { id } }"#)
                        variables["condition"] = condition ?? .null
                        operation = "mutation M($input: UpdatePostInput!, $condition: ModelPostConditionInput) { result: updatePost(input: $input, condition: $condition) \(directive) { \(Self.postSelection) } }"
                    } else {
                        operation = "mutation M($input: CreatePostInput!) { result: createPost(input: $input) \(directive) { \(Self.postSelection) } }"
                    }
                    let reply = try await client.graphQL(operation, .object(variables)).json
                    replies.append(Self.masked(Self.replacing(id, in: reply)))
                }
                let described = "case \(n): \(update ? "update" : "create") \(input), condition \(String(describing: condition))"
                #expect(replies[0] == replies[1], "\(described)")
                if replies[0]["data"]["result"].objectValue != nil { accepted += 1 }
            }
            #expect(accepted >= 10, "the shortcut ran in \(accepted) of \(cases.count) cases; the rest compare the executor with itself")
        }
    }

    /// `value` with the text `id` replaced wherever it occurs, so that replies about two items
    /// made the same way compare equal.
    static func replacing(_ id: String, in value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): return .string(text.replacingOccurrences(of: id, with: "ID"))
        case .object(let object): return .object(object.mapValues { replacing(id, in: $0) })
        case .array(let elements): return .array(elements.map { replacing(id, in: $0) })
        default: return value
        }
    }
}
