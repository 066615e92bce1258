import DeltaSyncCore
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
}
