import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Testing

/// `errors[].data` of a refused mutation, replayed with the exact documents real DataStore
/// clients send and read back the way each client reads it.
@Suite struct ConflictErrorDataTests {
    static let schema = """
        type Author @model {
          id: ID!
          name: String!
          email: String
          books: [Book] @hasMany(indexName: "byAuthor", fields: ["id"])
        }
        type Book @model {
          id: ID!
          title: String!
          authorID: ID @index(name: "byAuthor")
          author: Author @belongsTo(fields: ["authorID"])
        }
        """

    static func project(_ handler: ConflictHandlerKind) throws -> AmplifyProject {
        AmplifyProject(
            schema: try AmplifySchema.parse(source: schema, file: "books.graphql"),
            sync: SyncConfiguration(projectHandler: handler), schemaFiles: ["books.graphql"])
    }

    /// What amplify-js DataStore sends (`sync/utils.ts` buildGraphQLOperation and
    /// generateSelectionSet): scalar fields, the metadata, then each `@belongsTo` as
    /// `{ id _deleted }`.
    static let jsSelection = "id title authorID createdAt updatedAt _version _lastChangedAt _deleted author { id _deleted }"
    static let jsUpdate = """
        mutation operation($input: UpdateBookInput!, $condition: ModelBookConditionInput){
        		updateBook(input: $input, condition: $condition){
        			\(jsSelection)
        		}
        	}
        """
    static let jsDelete = """
        mutation operation($input: DeleteBookInput!, $condition: ModelBookConditionInput){
        		deleteBook(input: $input, condition: $condition){
        			\(jsSelection)
        		}
        	}
        """
    /// What Amplify Swift sends: `__typename` and the metadata at every level, and every field
    /// of a `@belongsTo` model (`ConflictResolutionDecorator`, `ModelBasedGraphQLDocumentBuilder`).
    static let swiftUpdate = """
        mutation UpdateBook($input: UpdateBookInput!, $condition: ModelBookConditionInput) {
          updateBook(input: $input, condition: $condition) {
            id
            authorID
            createdAt
            title
            updatedAt
            author {
              id
              createdAt
              email
              name
              updatedAt
              __typename
              _version
              _deleted
              _lastChangedAt
            }
            __typename
            _version
            _deleted
            _lastChangedAt
          }
        }
        """

    /// An author, and a book of theirs updated once, so the book is at `_version` 2.
    static func seed(_ client: TestServer.Client) async throws {
        _ = try await client.expectData(
            "createAuthor", "mutation($i: CreateAuthorInput!) { createAuthor(input: $i) { id } }",
            ["i": ["id": "a1", "name": "Ursula", "email": "ursula@example.com"]])
        _ = try await client.expectData(
            "createBook", "mutation($i: CreateBookInput!) { createBook(input: $i) { id } }",
            ["i": ["id": "b1", "title": "The Dispossessed", "authorID": "a1"]])
        _ = try await client.expectData(
            "updateBook", "mutation($i: UpdateBookInput!) { updateBook(input: $i) { id } }",
            ["i": ["id": "b1", "title": "The Dispossessed (2nd ed.)", "_version": 1]])
    }

    /// amplify-js builds the remote model from `errors[0].data` with its generated model
    /// class, whose relation setter throws on a nested object that is not a model instance it
    /// can make from the selected fields. Returns why it would throw, `nil` when it would not.
    static func jsModelRefusal(_ data: JSONValue) -> String? {
        guard let object = data.objectValue else { return "data is not an object" }
        let selected: Set<String> = ["id", "title", "authorID", "createdAt", "updatedAt", "_version", "_lastChangedAt", "_deleted", "author"]
        if Set(object.keys) != selected { return "fields \(object.keys.sorted()) are not the selected ones" }
        if let author = object["author"]?.objectValue, Set(author.keys) != ["id", "_deleted"] {
            return "Value passed to Book.author is not a valid instance of a model: \(author.keys.sorted())"
        }
        return nil
    }

    @Test("a stale amplify-js update gets the stored book projected onto its selection, so its conflict handler runs")
    func staleJSUpdate() async throws {
        try await TestServer(project: try Self.project(.optimisticConcurrency)).withClient { client in
            try await Self.seed(client)
            let reply = try await client.graphQL(
                Self.jsUpdate, ["input": ["id": "b1", "title": "Mine", "authorID": "a1", "_version": 1], "condition": nil])
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            let data = reply.firstError["data"]
            #expect(Self.jsModelRefusal(data) == nil, "\(data.jsonText)")
            #expect(data["author"] == ["id": "a1", "_deleted": nil])
            #expect(data["title"] == "The Dispossessed (2nd ed.)")
            #expect(data["_version"] == 2)
            #expect(data["_deleted"] == .null, "a selected field without a value is null")
            #expect(data["_lastChangedAt"].intValue != nil)
        }
    }

    @Test("a stale amplify-js delete gets the projected book too")
    func staleJSDelete() async throws {
        try await TestServer(project: try Self.project(.automerge)).withClient { client in
            try await Self.seed(client)
            let reply = try await client.graphQL(Self.jsDelete, ["input": ["id": "b1", "_version": 1], "condition": nil])
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            #expect(Self.jsModelRefusal(reply.firstError["data"]) == nil, "\(reply.firstError["data"].jsonText)")
        }
    }

    /// The parts of Amplify Swift's `Book` and `Author` it needs to decode a remote model.
    struct SwiftBook: Decodable {
        struct Author: Decodable {
            let id: String
            let name: String
            let email: String?
            let __typename: String
            let _version: Int
            let _lastChangedAt: Int
        }
        let id: String
        let title: String
        let authorID: String?
        let author: Author?
        let __typename: String
        let _version: Int
        let _lastChangedAt: Int
    }

    @Test("a stale Amplify Swift update gets every field it selects, the author's metadata included")
    func staleSwiftUpdate() async throws {
        try await TestServer(project: try Self.project(.optimisticConcurrency)).withClient { client in
            try await Self.seed(client)
            let reply = try await client.graphQL(
                Self.swiftUpdate, ["input": ["id": "b1", "title": "Mine", "_version": 1], "condition": nil])
            #expect(reply.firstError["errorType"] == "ConflictUnhandled")
            let book = try JSONDecoder().decode(SwiftBook.self, from: Data(reply.firstError["data"].jsonText.utf8))
            #expect(book._version == 2)
            #expect(book.__typename == "Book")
            #expect(book.author?.name == "Ursula")
            #expect(book.author?._version == 1)
            #expect(book.author?.__typename == "Author")
        }
    }

    @Test("a failed condition carries the stored item projected the same way, aliases and fragments included")
    func conditionFailureIsProjected() async throws {
        try await TestServer(project: try Self.project(.automerge)).withClient { client in
            try await Self.seed(client)
            let reply = try await client.graphQL(
                """
                mutation($input: UpdateBookInput!, $condition: ModelBookConditionInput) {
                  updateBook(input: $input, condition: $condition) { name: title ...Meta writer: author { name } }
                }
                fragment Meta on Book { _version }
                """,
                ["input": ["id": "b1", "title": "Mine", "_version": 2], "condition": ["title": ["eq": "Another book"]]])
            #expect(reply.firstError["errorType"] == "ConditionalCheckFailedException")
            #expect(reply.firstError["data"] == ["name": "The Dispossessed (2nd ed.)", "_version": 2, "writer": ["name": "Ursula"]])
        }
    }
}
