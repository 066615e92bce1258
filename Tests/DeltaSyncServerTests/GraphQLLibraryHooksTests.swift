import GraphQL
import Testing

@testable import DeltaSyncGraphQL
@testable import DeltaSyncRealtime
@testable import DeltaSyncServer

/// Each behaviour of the GraphQL library that `GraphQLLibraryHooks` lists, on a schema of its
/// own: when the library changes one, the test named after it fails, not a distant server test.
@Suite struct GraphQLLibraryHooksTests {
    static let sdl = """
        scalar Shout
        input Filter { name: String, size: Int }
        type Page { items: [String], nextToken: String }
        type Query {
          echo(value: Shout): Shout
          page: Page
          missing: String
          other: String
          fails: String
          count(filter: Filter): Int
        }
        """

    struct PageObject: KeySubscriptable, Sendable {
        subscript(key: String) -> (any Sendable)? {
            switch key {
            case "items": return ["a", "b"]
            case "nextToken": return "t"
            default: return nil
            }
        }
    }

    struct Thrown: Error {}

    static func schema() throws -> GraphQLSchema {
        let schema = try buildSchema(source: sdl)
        let shout = try #require(schema.getType(name: "Shout") as? GraphQLScalarType)
        GraphQLLibraryHooks.replaceScalar(
            shout,
            parseValue: { value in .string((value.string ?? "").uppercased()) },
            parseLiteral: { ast in .string(((ast as? StringValue)?.value ?? "").uppercased() + "!") })
        try GraphQLLibraryHooks.freezeInputFields(schema)
        let query = try #require(schema.queryType)
        try GraphQLLibraryHooks.attach(
            [
                "echo": { _, args, _, _ in args["value"].string },
                "page": { _, _, _, _ in PageObject() },
                "missing": { _, _, _, _ in nil },
                "other": { _, _, _, _ in "here" },
                "fails": { _, _, _, _ in throw Thrown() },
                "count": { _, args, _, _ in args["filter"]["size"].int },
            ], to: query)
        return schema
    }

    static func run(_ query: String, _ variables: [String: Map] = [:]) async throws -> GraphQLResult {
        try await GraphQL.execute(
            schema: try schema(), documentAST: try parse(source: Source(body: query)), rootValue: (), context: (),
            variableValues: variables)
    }

    @Test func aReplacedScalarParsesVariablesAndLiterals() async throws {
        let fromVariable = try await Self.run("query($v: Shout) { echo(value: $v) }", ["v": "hey"])
        #expect(fromVariable.data?["echo"] == "HEY")
        let fromLiteral = try await Self.run("{ echo(value: \"hey\") }")
        #expect(fromLiteral.data?["echo"] == "HEY!")
    }

    @Test func attachedResolversRunAndFrozenInputFieldsCoerce() async throws {
        let schema = try Self.schema()
        let filter = try #require(schema.getType(name: "Filter") as? GraphQLInputObjectType)
        #expect(try filter.fields().keys.sorted() == ["name", "size"])
        // Coercion reads the replaceable thunk: one without `size` refuses it.
        let narrowed = try buildSchema(source: Self.sdl)
        let narrowedFilter = try #require(narrowed.getType(name: "Filter") as? GraphQLInputObjectType)
        let name = try #require(try narrowedFilter.fields()["name"])
        narrowedFilter.fields = { ["name": name] }
        let refused = validate(
            schema: narrowed, ast: try parse(source: Source(body: "{ count(filter: {size: 3}) }")))
        #expect(!refused.isEmpty)
        let result = try await Self.run("query($f: Filter) { count(filter: $f) }", ["f": ["size": 3]])
        #expect(result.errors.isEmpty)
        #expect(result.data?["count"] == 3)
    }

    @Test func theDefaultResolverReadsKeySubscriptableSources() async throws {
        let result = try await Self.run("{ page { items nextToken } }")
        #expect(result.data?["page"] == ["items": ["a", "b"], "nextToken": "t"])
    }

    @Test func aNullableRootReturningNilIsNullBesideItsSiblings() async throws {
        let result = try await Self.run("{ missing other }")
        #expect(result.errors.isEmpty)
        #expect(result.data?["missing"] == .null)
        #expect(result.data?["other"] == "here")
    }

    @Test func errorsKeepWhatAResolverThrewAndTheLibrarysWording() async throws {
        let result = try await Self.run("{ a: fails }")
        let error = try #require(result.errors.first)
        #expect(error.originalError is Thrown)
        #expect(error.path.elements == [.key("a")])

        #expect(throws: GraphQLError.self) { try parse(source: Source(body: "{ echo(")) }
        do {
            _ = try parse(source: Source(body: "{ echo("))
        } catch let error as GraphQLError {
            #expect(error.message.hasPrefix("Syntax Error GraphQL (1:8) "))
        }

        let validation = validate(schema: try Self.schema(), ast: try parse(source: Source(body: "{ nope }")))
        #expect(validation.map(\.message) == [#"Cannot query field "nope" on type "Query"."#])
        #expect(
            ValidationMessage.appSyncStyle(validation[0].message)
                == "Validation error of type FieldUndefined: Field 'nope' in type 'Query' is undefined @ 'nope'")
    }
}
