import DeltaSyncSchema
import GraphQL
import Testing

/// `@http` on custom `Query` and `Mutation` fields: the call, and the arguments and input types
/// Amplify's HTTP transformer puts in place of the written arguments.
struct HTTPFieldTests {
    static let source = """
        type Todo @model { id: ID! }
        type User { id: ID! name: String }
        enum Sort { ASC DESC }
        input Filter { name: String }
        type Query {
          getUser(id: ID!, verbose: Boolean, sort: Sort): User @http(url: "https://api.example.com/${env}/users/:id")
          searchUsers(name: String!, limit: Int = 10, filter: Filter): [User] @http(url: "https://${aws_region}.example.com/users")
          ping: String @http(url: "http://localhost:8080")
        }
        type Mutation {
          addUser(org: ID!, name: String!, age: Int, tag: String!): User @http(
            method: POST, url: "https://api.example.com/orgs/:org/users?team=:team",
            headers: [{key: "x-api-key", value: "secret"}, {key: "Accept", value: "application/json"}])
          removeUser(id: ID!, hard: Boolean!): User @http(method: DELETE, url: "https://api.example.com/users/:id")
          touch(at: AWSDateTime): String @http(method: PATCH, url: "https://api.example.com/touch", headers: {key: "a", value: "b"})
        }
        """

    static func parse(_ source: String = source) throws -> AmplifySchema {
        try AmplifySchema.parse(source: source, file: "schema.graphql")
    }

    @Test func aGetWithAPathParameterKeepsOnlyScalarsForTheQuery() throws {
        let schema = try Self.parse()
        let getUser = try #require(schema.customOperations.first { $0.name == "getUser" })
        // The enum argument is dropped, as Amplify's `isScalar` does not count enums; the path
        // parameter's argument moves to `params`.
        #expect(getUser == CustomOperation(
            parent: .query, name: "getUser",
            arguments: [.init(name: "params", type: "QueryGetUserParamsInput!"), .init(name: "query", type: "QueryGetUserQueryInput")],
            returnType: "User", functions: [],
            http: HTTPCall(
                method: .GET, url: "https://api.example.com/${env}/users/:id", headers: [], pathParameters: ["id"],
                requiredArguments: [])))
        #expect(schema.inputTypes.contains(InputType(name: "QueryGetUserParamsInput", fields: [.init(name: "id", type: "String!")])))
        #expect(schema.inputTypes.contains(InputType(name: "QueryGetUserQueryInput", fields: [.init(name: "verbose", type: "Boolean")])))
    }

    @Test func withoutPathParametersEveryArgumentGoesToTheQueryAsWritten() throws {
        let schema = try Self.parse()
        let search = try #require(schema.customOperations.first { $0.name == "searchUsers" })
        #expect(search.arguments == [.init(name: "query", type: "QuerySearchUsersQueryInput!")])
        #expect(search.http == HTTPCall(
            method: .GET, url: "https://${aws_region}.example.com/users", headers: [], pathParameters: [],
            requiredArguments: ["name"]))
        #expect(schema.inputTypes.contains(InputType(
            name: "QuerySearchUsersQueryInput",
            fields: [.init(name: "name", type: "String!"), .init(name: "limit", type: "Int = 10"), .init(name: "filter", type: "Filter")])))
    }

    @Test func aFieldWithoutArgumentsKeepsNone() throws {
        let schema = try Self.parse()
        let ping = try #require(schema.customOperations.first { $0.name == "ping" })
        #expect(ping.arguments == [])
        #expect(ping.http == HTTPCall(method: .GET, url: "http://localhost:8080", headers: [], pathParameters: [], requiredArguments: []))
        #expect(!schema.inputTypes.contains { $0.name.hasPrefix("QueryPing") })
    }

    @Test func bodyMethodsGetAQueryAndABodyWithoutNonNull() throws {
        let schema = try Self.parse()
        let addUser = try #require(schema.customOperations.first { $0.name == "addUser" })
        #expect(addUser.arguments == [
            .init(name: "params", type: "MutationAddUserParamsInput!"), .init(name: "query", type: "MutationAddUserQueryInput"),
            .init(name: "body", type: "MutationAddUserBodyInput"),
        ])
        #expect(addUser.http == HTTPCall(
            method: .POST, url: "https://api.example.com/orgs/:org/users?team=:team",
            headers: [.init(key: "x-api-key", value: "secret"), .init(key: "Accept", value: "application/json")],
            pathParameters: ["org", "team"], requiredArguments: ["name", "tag"]))
        let fields: [TypedName] = [.init(name: "name", type: "String"), .init(name: "age", type: "Int"), .init(name: "tag", type: "String")]
        #expect(schema.inputTypes.contains(InputType(name: "MutationAddUserQueryInput", fields: fields)))
        #expect(schema.inputTypes.contains(InputType(name: "MutationAddUserBodyInput", fields: fields)))
        #expect(schema.inputTypes.contains(InputType(
            name: "MutationAddUserParamsInput", fields: [.init(name: "org", type: "String!"), .init(name: "team", type: "String!")])))

        let touch = try #require(schema.customOperations.first { $0.name == "touch" })
        #expect(touch.arguments == [
            .init(name: "query", type: "MutationTouchQueryInput"), .init(name: "body", type: "MutationTouchBodyInput"),
        ])
        #expect(touch.http?.method == .PATCH)
        #expect(touch.http?.headers == [.init(key: "a", value: "b")])
    }

    /// Amplify removes the arguments' `!` for every method but GET, so DELETE's query is
    /// nullable too (and it has no body).
    @Test func deleteHasANullableQueryAndNoBody() throws {
        let schema = try Self.parse()
        let remove = try #require(schema.customOperations.first { $0.name == "removeUser" })
        #expect(remove.arguments == [
            .init(name: "params", type: "MutationRemoveUserParamsInput!"), .init(name: "query", type: "MutationRemoveUserQueryInput"),
        ])
        #expect(remove.http?.requiredArguments == ["hard"])
        #expect(schema.inputTypes.contains(InputType(name: "MutationRemoveUserQueryInput", fields: [.init(name: "hard", type: "Boolean")])))
        #expect(!schema.inputTypes.contains { $0.name == "MutationRemoveUserBodyInput" })
    }

    @Test func theDeclaredInputsComeFirstThenTheGeneratedOnesInFieldOrder() throws {
        let schema = try Self.parse()
        #expect(schema.inputTypes.map(\.name) == [
            "Filter", "QueryGetUserParamsInput", "QueryGetUserQueryInput", "QuerySearchUsersQueryInput", "MutationAddUserParamsInput",
            "MutationAddUserQueryInput", "MutationAddUserBodyInput", "MutationRemoveUserParamsInput", "MutationRemoveUserQueryInput",
            "MutationTouchQueryInput", "MutationTouchBodyInput",
        ])
    }

    @Test func theAppSyncSchemaCarriesTheRewrittenArgumentsAndBuilds() throws {
        let sdl = try Self.parse().appSyncSDL()
        #expect(sdl.contains("""
            input QueryGetUserParamsInput {
              id: String!
            }

            input QueryGetUserQueryInput {
              verbose: Boolean
            }

            """))
        #expect(sdl.contains("""
            input MutationAddUserParamsInput {
              org: String!
              team: String!
            }

            input MutationAddUserQueryInput {
              name: String
              age: Int
              tag: String
            }

            input MutationAddUserBodyInput {
              name: String
              age: Int
              tag: String
            }

            """))
        #expect(sdl.member("getUser", of: "type Query") == "getUser(params: QueryGetUserParamsInput!, query: QueryGetUserQueryInput): User")
        #expect(sdl.member("searchUsers", of: "type Query") == "searchUsers(query: QuerySearchUsersQueryInput!): [User]")
        #expect(sdl.member("ping", of: "type Query") == "ping: String")
        #expect(
            sdl.member("addUser", of: "type Mutation")
                == "addUser(params: MutationAddUserParamsInput!, query: MutationAddUserQueryInput, body: MutationAddUserBodyInput): User")
        let built = try buildSchema(source: sdl)
        #expect(built.getType(name: "MutationAddUserBodyInput") != nil)
    }

    // MARK: - Errors

    static func error(_ source: String) -> SchemaError? {
        do {
            _ = try parse(source)
            return nil
        } catch {
            return error as? SchemaError
        }
    }

    @Test func aURLWithoutProtocolIsAnErrorAtTheDirective() throws {
        let error = try #require(Self.error("type Todo @model { id: ID! }\ntype Query {\n  ping: String @http(url: \"www.api.com/ping\")\n}"))
        #expect(error.line == 3 && error.column == 16)
        #expect(error.message == "@http directive requires a url parameter that begins with http:// or https://.")
    }

    @Test func httpAndFunctionOnOneFieldIsAnError() throws {
        let error = try #require(Self.error(
            "type Todo @model { id: ID! }\ntype Query {\n  ping: String @function(name: \"f\") @http(url: \"https://a.b/c\")\n}"))
        #expect(error.line == 3 && error.column == 37)
        #expect(error.message == "field 'Query.ping' has both @http and @function; it is resolved by one of them")
    }

    @Test func anUnknownMethodIsAnError() throws {
        let error = try #require(Self.error(
            "type Todo @model { id: ID! }\ntype Query {\n  ping: String @http(method: HEAD, url: \"https://a.b/c\")\n}"))
        #expect(error.line == 3 && error.column == 30)
        #expect(error.message == "@http method is one of GET, POST, PUT, DELETE, PATCH, not 'HEAD'")
    }

    @Test func aMissingURLIsAnError() throws {
        let error = try #require(Self.error("type Todo @model { id: ID! }\ntype Query {\n  ping: String @http(method: GET)\n}"))
        #expect(error.line == 3 && error.message == "@http on 'Query.ping' needs url: \"https://...\"")
    }

    @Test func aHeaderWithoutValueIsAnError() throws {
        let error = try #require(Self.error(
            "type Todo @model { id: ID! }\ntype Query {\n  ping: String @http(url: \"https://a.b\", headers: [{key: \"k\"}])\n}"))
        #expect(error.line == 3 && error.column == 52)
        #expect(error.message == "an @http header needs a string key and value")
    }

    @Test func aGeneratedInputTheSchemaDeclaresIsAnError() throws {
        let error = try #require(Self.error(
            "type Todo @model { id: ID! }\ninput QueryPingQueryInput { x: Int }\ntype Query {\n  ping(x: Int): String @http(url: \"https://a.b\")\n}"))
        #expect(error.line == 4 && error.column == 24)
        #expect(error.message == "@http on 'Query.ping' generates input type 'QueryPingQueryInput', which the schema declares (first declared at schema.graphql:2:7)")
    }

    @Test func httpTwiceIsAnError() throws {
        let error = try #require(Self.error(
            "type Todo @model { id: ID! }\ntype Query {\n  ping: String @http(url: \"https://a.b\") @http(url: \"https://c.d\")\n}"))
        #expect(error.line == 3 && error.column == 42)
        #expect(error.message == "@http is given twice on 'Query.ping'")
    }
}
