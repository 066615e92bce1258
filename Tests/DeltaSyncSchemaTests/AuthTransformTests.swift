import DeltaSyncSchema
import Testing

/// `@auth` as Amplify's transformer v2 reads and prints it: defaults, the implicit owner field,
/// subscription owner arguments, mode directives, and refusals with the rule's place.
struct AuthTransformTests {
    static let todo = """
        type Todo @model @auth(rules: [{ allow: owner }]) {
          id: ID!
          content: String
        }
        """

    static func line(_ sdl: String, startingWith prefix: String) -> String? {
        sdl.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first { $0.hasPrefix(prefix) }
    }

    static func block(_ sdl: String, _ header: String) -> [String] {
        let lines = sdl.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(header) }) else { return [] }
        return Array(lines[start...].prefix { $0 != "}" })
    }

    @Test func rulesGetAmplifysDefaults() throws {
        let schema = try AmplifySchema.parse(source: """
            type Todo @model @auth(rules: [
              { allow: owner },
              { allow: groups, groups: ["Admin"], operations: [read, update] },
              { allow: groups, groupsField: "teams" },
              { allow: public }
            ]) { id: ID! teams: [String] }
            """)
        let rules = try #require(schema.model(named: "Todo")?.authRules)
        #expect(rules[0] == AuthRule(strategy: .owner, provider: .userPools))
        #expect(rules[0].identityClaim == "sub::username" && rules[0].ownerField == "owner")
        #expect(rules[1].groups == ["Admin"])
        #expect(rules[1].operations == ModelOperation.read.union([.update]))
        #expect(rules[2].groupsField == "teams" && rules[2].groupClaim == "cognito:groups")
        #expect(rules[3].provider == .apiKey)
    }

    @Test func theOwnerFieldAndSubscriptionArgumentsAreAdded() throws {
        let schema = try AmplifySchema.parse(source: Self.todo)
        let sdl = schema.appSyncSDL(authModes: APIAuthModes(defaultMode: .userPools))
        // As Amplify's owner-auth snapshot: the nullable owner after the timestamps, the
        // nullable argument after the filter, and no mode directive with one mode.
        #expect(Self.block(sdl, "type Todo").suffix(5) == [
            "  updatedAt: AWSDateTime!", "  owner: String", "  _version: Int!", "  _deleted: Boolean",
            "  _lastChangedAt: AWSTimestamp!",
        ])
        #expect(Self.line(sdl, startingWith: "onCreateTodo(")
            == #"onCreateTodo(filter: ModelSubscriptionTodoFilterInput, owner: String): Todo @aws_subscribe(mutations: ["createTodo"])"#)
        #expect(Self.line(sdl, startingWith: "owner: ModelStringInput") != nil, "the owner can be filtered on")
        #expect(sdl.components(separatedBy: "@aws_cognito_user_pools").count == 2, "declared, never used")
    }

    /// Amplify adds an implicit owner field to the type and the filter and condition inputs only
    /// (auth transformer 3.4.0, "add implicit fields to filter input"): the server fills it, so
    /// AppSync refuses a create or update that names it. A declared owner field stays settable.
    @Test func anImplicitOwnerFieldIsNotInTheMutationInputs() throws {
        let implicit = try AmplifySchema.parse(source: Self.todo).appSyncSDL(authModes: APIAuthModes(defaultMode: .userPools))
        for input in ["input CreateTodoInput", "input UpdateTodoInput"] {
            let fields = Self.block(implicit, input).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(fields.contains("content: String"), "\(input) is printed")
            #expect(!fields.contains { $0.hasPrefix("owner:") }, "\(input) has no implicit owner")
        }
        for input in ["input ModelTodoFilterInput", "input ModelTodoConditionInput"] {
            #expect(Self.block(implicit, input).contains("  owner: ModelStringInput"), "\(input) filters on the owner")
        }
        let declared = try AmplifySchema.parse(source: """
            type Todo @model @auth(rules: [{ allow: owner }]) { id: ID! content: String owner: String }
            """).appSyncSDL(authModes: APIAuthModes(defaultMode: .userPools))
        #expect(Self.block(declared, "input CreateTodoInput").contains("  owner: String"))
        #expect(Self.block(declared, "input UpdateTodoInput").contains("  owner: String"))
    }

    @Test func modeDirectivesFollowTheRulesProviders() throws {
        let schema = try AmplifySchema.parse(source: """
            type Todo @model @auth(rules: [{ allow: owner }, { allow: public, provider: apiKey, operations: [read] }]) {
              id: ID!
              content: String
            }
            type Tag @model { id: ID! }
            """)
        let sdl = schema.appSyncSDL(authModes: APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey]))
        // Amplify's order: the other modes (API key, IAM, OIDC, user pools, Lambda); on the type the
        // default comes last, on a root field it keeps its place in that order.
        #expect(Self.line(sdl, startingWith: "type Todo ") == "type Todo @aws_api_key @aws_cognito_user_pools {")
        #expect(Self.line(sdl, startingWith: "getTodo(") == "getTodo(id: ID!): Todo @aws_api_key @aws_cognito_user_pools")
        #expect(Self.line(sdl, startingWith: "type ModelTodoConnection ") == "type ModelTodoConnection @aws_api_key @aws_cognito_user_pools {")
        // Only owners create: the default mode alone, which needs no directive.
        #expect(Self.line(sdl, startingWith: "createTodo(") == "createTodo(input: CreateTodoInput!, condition: ModelTodoConditionInput): Todo")
        // A model without @auth carries none: the default mode only.
        #expect(Self.line(sdl, startingWith: "type Tag ") == "type Tag {")
        // A non-model type a model holds takes the model's directives.
        let nested = try AmplifySchema.parse(source: """
            type Place { name: String }
            type Trip @model @auth(rules: [{ allow: owner }, { allow: public, operations: [read] }]) { id: ID! stop: Place }
            """).appSyncSDL(authModes: APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey]))
        #expect(Self.line(nested, startingWith: "type Place") == "type Place @aws_api_key @aws_cognito_user_pools {")
        #expect(schema.authModesUsed == [.userPools, .apiKey])
    }

    @Test func rulesAreCheckedAsAmplifyChecksThem() {
        let refusals = [
            ("{ allow: everyone }", "unknown 'allow: everyone'"),
            ("{ allow: owner, provider: apiKey }", "'owner' rules take provider userPools or oidc"),
            ("{ allow: groups, groups: [\"A\"], groupsField: \"g\" }", "'groups' or 'groupsField', not both"),
            ("{ allow: groups, groups: [\"A\"], identityClaim: \"sub\" }", "'identityClaim' applies to 'owner' rules only"),
            ("{ allow: owner, operations: [read, get] }", "'read' already includes 'get'"),
            ("{ allow: owner, operations: [fly] }", "unknown operation 'fly'"),
            ("{ provider: apiKey }", "needs 'allow'"),
            ("{ allow: owner, ownerField: \"count\" }", "must be String or [String], not Int"),
        ]
        for (rule, message) in refusals {
            #expect {
                _ = try AmplifySchema.parse(source: "type Todo @model @auth(rules: [\(rule)]) { id: ID! count: Int }", file: "schema.graphql")
            } throws: { error in
                guard let error = error as? SchemaError, error.message.contains(message), error.message.contains("Todo") else {
                    Issue.record("\(rule): \(error)")
                    return false
                }
                return error.line == 1
            }
        }
    }
}
