import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncSchema
@testable import DeltaSyncGraphQL
@testable import DeltaSyncServer
import Testing

/// AppSync's resolver model served: unit and pipeline resolvers of VTL templates over `NONE`
/// and Lambda data sources, in place of generated resolvers and on the schema's own fields;
/// the context steps share (`stash`, `args`, `prev.result`), early returns, the two template
/// versions' error rules, template errors in AppSync's shape, and a template's model objects
/// read through the same rules as a generated resolver's.
@Suite struct ResolverModelTests {
    static let schema = """
        type Note @model @auth(rules: [{allow: owner}, {allow: public, provider: apiKey, operations: [read]}]) {
          id: ID!
          text: String!
          owner: String
        }
        type Secret @model @auth(rules: [{allow: owner}]) { id: ID! text: String! owner: String }
        type Echo { text: String stash: AWSJSON args: AWSJSON }
        type Query {
          echo(msg: String): Echo
          pipeline(msg: String!): Echo
          shout(msg: String!): String
          legacy(fail: Boolean!): String
          broken: String
          note: Note
          notes: [Note]
          secret: Secret
          secrets: [Secret]
        }
        """

    static func withServer(
        _ resolvers: [ResolverDefinition], dataSources: [DataSourceDefinition] = [],
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (TestServer.Client) async throws -> Void
    ) async throws {
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: schema, file: "schema.graphql"), schemaFiles: [])
        let server = try await TestServer(project: project) { configuration in
            configuration.authModes = APIAuthModes(defaultMode: .apiKey, additionalModes: [.userPools])
            configuration.resolvers = resolvers
            configuration.dataSources = dataSources
            configure(&configuration)
        }
        try await server.withClient(body)
    }

    static func unit(_ field: String, request: String, response: String? = "$util.toJson($ctx.result)", source: String = "NONE") -> ResolverDefinition {
        ResolverDefinition(type: "Query", field: field, kind: .unit(dataSource: source, request: request, response: response))
    }

    @Test func aUnitResolverOverNoneAnswersItsPayload() async throws {
        let echo = Self.unit(
            "echo",
            request: #"{"version": "2018-05-29", "payload": {"text": $util.toJson($ctx.args.msg.toUpperCase()), "args": $util.toJson($util.toJson($ctx.args)), "stash": $util.toJson($util.toJson({"auth": $util.authType(), "info": $ctx.info, "selection": $ctx.info.selectionSetList, "env": $ctx.env.GREETING}))}}"#)
        try await Self.withServer([echo], configure: { $0.resolverEnvironment = ["GREETING": "hello"] }) { client in
            let reply = try await client.graphQL(#"query Q($m: String) { echo(msg: $m) { text args alias: stash } }"#, ["m": "hi"])
            #expect(reply.errors.isEmpty)
            #expect(reply.data["echo"]["text"] == "HI")
            #expect(reply.data["echo"]["args"] == #"{"msg":"hi"}"#)
            let seen = try JSONValue(parsing: reply.data["echo"]["alias"].stringValue ?? "")
            #expect(seen["auth"] == "API Key Authorization")
            #expect(seen["info"]["fieldName"] == "echo")
            #expect(seen["info"]["parentTypeName"] == "Query")
            #expect(seen["info"]["variables"] == ["m": "hi"])
            #expect(seen["selection"] == ["text", "args", "alias"])
            #expect(seen["env"] == "hello")
        }
    }

    @Test func pipelineStepsShareStashArgumentsAndPreviousResults() async throws {
        let first = FunctionDefinition(
            name: "first", dataSource: "NONE",
            request: #"$util.qr($ctx.stash.put("seen", ["first"]))$util.qr($ctx.args.put("msg", "changed by first")){"version": "2018-05-29", "payload": {"step": 1}}"#,
            response: "$util.toJson($ctx.result)")
        let second = FunctionDefinition(
            name: "second", dataSource: "NONE",
            request: #"$util.qr($ctx.stash.seen.add("second")){"version": "2018-05-29", "payload": {"previous": $util.toJson($ctx.prev.result), "msg": $util.toJson($ctx.args.msg)}}"#,
            response: "$util.toJson($ctx.result)")
        let pipeline = ResolverDefinition(
            type: "Query", field: "pipeline",
            kind: .pipeline(
                before: #"$util.qr($ctx.stash.put("before", true)){}"#, functions: [first, second],
                after: #"{"text": "$ctx.prev.result.msg after $ctx.result.previous.step", "stash": $util.toJson($util.toJson($ctx.stash))}"#))
        try await Self.withServer([pipeline]) { client in
            let reply = try await client.graphQL(#"{ pipeline(msg: "original") { text stash } }"#)
            #expect(reply.errors.isEmpty)
            #expect(reply.data["pipeline"]["text"] == "changed by first after 1")
            #expect(try JSONValue(parsing: reply.data["pipeline"]["stash"].stringValue ?? "") == ["before": true, "seen": ["first", "second"]])
        }
    }

    @Test func returnEndsTheResolverOrTheFunction() async throws {
        let early = Self.unit("shout", request: #"#if($ctx.args.msg == "quiet")#return("shh")#end{"version": "2018-05-29", "payload": "$ctx.args.msg!"}"#)
        let skipped = FunctionDefinition(
            name: "skipped", dataSource: "NONE", request: #"#return({"text": "returned by the function"})"#,
            response: #"$util.error("the response template of a returning function never runs")"#)
        let pipeline = ResolverDefinition(type: "Query", field: "pipeline", kind: .pipeline(before: nil, functions: [skipped], after: nil))
        try await Self.withServer([early, pipeline]) { client in
            #expect(try await client.graphQL(#"{ shout(msg: "quiet") }"#).data["shout"] == "shh")
            #expect(try await client.graphQL(#"{ shout(msg: "loud") }"#).data["shout"] == "loud!")
            let reply = try await client.graphQL(#"{ pipeline(msg: "x") { text } }"#)
            #expect(reply.errors.isEmpty)
            #expect(reply.data["pipeline"]["text"] == "returned by the function")
        }
    }

    @Test func templateErrorsReachTheClientInAppSyncsShape() async throws {
        let raises = Self.unit("shout", request: #"$util.error("No shouting", "ShoutError", {"text": "data"}, {"hint": "lower"})"#)
        let appends = Self.unit(
            "echo", request: #"$util.appendError("kept going", "Warning"){"version": "2018-05-29", "payload": {"text": "value"}}"#)
        let notJSON = Self.unit("broken", request: #"{"version": "2018-05-29", "payload": {unquoted: 1}}"#)
        let denied = Self.unit("legacy", request: "$util.unauthorized()")
        try await Self.withServer([raises, appends, notJSON, denied]) { client in
            let raised = try await client.graphQL("{ shout(msg: \"a\") }")
            #expect(raised.data["shout"] == .null)
            #expect(raised.firstError["errorType"] == "ShoutError")
            #expect(raised.firstError["message"] == "No shouting")
            #expect(raised.firstError["data"] == ["text": "data"])
            #expect(raised.firstError["errorInfo"] == ["hint": "lower"])
            #expect(raised.firstError["path"] == ["shout"])

            let appended = try await client.graphQL("{ echo { text } }")
            #expect(appended.data["echo"]["text"] == "value")
            #expect(appended.firstError["errorType"] == "Warning")
            #expect(appended.firstError["path"] == ["echo"])

            let broken = try await client.graphQL("{ broken }")
            #expect(broken.firstError["errorType"] == "MappingTemplate")
            #expect(broken.firstError["message"].stringValue?.hasPrefix("Unable to convert {\"version\"") == true)

            let unauthorized = try await client.graphQL("{ legacy(fail: true) }")
            #expect(unauthorized.firstError["errorType"] == "Unauthorized")
            #expect(unauthorized.firstError["message"] == "Not Authorized to access legacy on type Query")
        }
    }

    @Test func dataSourceFailuresFollowTheTemplatesVersion() async throws {
        let request = #"{"version": "VERSION", "operation": "Invoke", "payload": {"fail": $ctx.args.fail}}"#
        let v2017 = Self.unit("legacy", request: request.replacingOccurrences(of: "VERSION", with: "2017-02-28"),
                              response: #"#if($ctx.result)$util.toJson($ctx.result)#else{"shown": "as data"}#end"#, source: "Thrower")
        let v2018 = Self.unit("shout", request: request.replacingOccurrences(of: "VERSION", with: "2018-05-29").replacingOccurrences(of: "$ctx.args.fail", with: "true"),
                              response: ##"#if($ctx.error)"handled: $ctx.error.type"#else"fine"#end"##, source: "Thrower")
        try await Self.withServer([v2017, v2018], dataSources: [DataSourceDefinition(name: "Thrower", kind: .lambda(function: "thrower"))]) { configuration in
            configuration.functions["thrower"] = ClosureFunction { invocation in
                if invocation.event["fail"] == true { throw FunctionFailure(errorType: "Boom", errorMessage: "the function failed") }
                return "ok"
            }
        } _: { client in
            let failed = try await client.graphQL("{ legacy(fail: true) }")
            #expect(failed.data["legacy"] == .null)
            #expect(failed.firstError["errorType"] == "Lambda:Unhandled")
            #expect(failed.firstError["message"] == "the function failed")
            #expect(failed.firstError["data"] == ["shown": "as data"])
            // 2017-02-28: a result runs the response template.
            let succeeded = try await client.graphQL("{ legacy(fail: false) }")
            #expect(succeeded.errors.isEmpty)
            #expect(succeeded.data["legacy"] == "ok")
            // 2018-05-29: the response template decides; this one handles the failure.
            let handled = try await client.graphQL("{ shout(msg: \"x\") }")
            #expect(handled.errors.isEmpty)
            #expect(handled.data["shout"] == "handled: Lambda:Unhandled")
        }
    }

    @Test func aTemplatesModelObjectsKeepTheModelsRules() async throws {
        let owned: JSONValue = ["id": "n1", "text": "mine", "owner": "alice::alice"]
        let one = #"{"version": "2018-05-29", "payload": \#(owned.jsonText)}"#
        let list = #"{"version": "2018-05-29", "payload": [\#(owned.jsonText)]}"#
        let resolvers = [Self.unit("note", request: one), Self.unit("notes", request: list), Self.unit("secret", request: one), Self.unit("secrets", request: list)]
        try await Self.withServer(resolvers) { client in
            // An API key reads notes (public read rule): those objects come through.
            let notes = try await client.graphQL("{ note { id text } notes { id } }")
            #expect(notes.errors.isEmpty)
            #expect(notes.data["note"] == ["id": "n1", "text": "mine"])
            #expect(notes.data["notes"] == [["id": "n1"]])
            // Secrets are their owners' alone: whatever the template returned, an API key
            // caller gets none of them.
            let secrets = try await client.graphQL("{ secret { id text } secrets { id } }")
            #expect(secrets.data["secret"] == .null)
            #expect(secrets.data["secrets"] == [])
            #expect(secrets.firstError["errorType"] == "Unauthorized")
            #expect(secrets.firstError["path"] == ["secret"])
        }
        // An error's data is an item too: the caller sees only what the model's rules let them.
        let raising = #"$util.error("refused", "Custom", \#(owned.jsonText))"#
        try await Self.withServer([Self.unit("note", request: raising), Self.unit("secret", request: raising)]) { client in
            let note = try await client.graphQL("{ note { id text } }")
            #expect(note.firstError["data"] == ["id": "n1", "text": "mine"])
            let secret = try await client.graphQL("{ secret { id text } }")
            #expect(secret.firstError["errorType"] == "Custom")
            #expect(secret.firstError["data"] == .null)
        }
    }

    @Test func brokenDefinitionsStopTheServerWithWhatToFix() async throws {
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: Self.schema, file: "schema.graphql"), schemaFiles: [])
        func start(_ resolvers: [ResolverDefinition]) async -> String {
            do {
                _ = try await TestServer(project: project) { $0.resolvers = resolvers }
                return "started"
            } catch {
                return "\(error)"
            }
        }
        #expect(await start([Self.unit("echo", request: "#if($x")]).contains("Query.echo.req.vtl"))
        do {
            _ = try await TestServer(project: project) { $0.resolverEnvironment = ["1BAD": "x"] }
            Issue.record("a variable name starting with a digit was accepted")
        } catch {
            #expect("\(error)".contains("must start with a letter"))
        }
        #expect(await start([Self.unit("echo", request: "{}", source: "Nowhere")]).contains("names the data source Nowhere"))
        #expect(await start([ResolverDefinition(type: "Query", field: "nothing", kind: .unit(dataSource: "NONE", request: "{}", response: nil))])
            .contains("Query.nothing, which is not a field"))
        let eleven = Array(repeating: FunctionDefinition(name: "f", dataSource: "NONE", request: "{}", response: nil), count: 11)
        #expect(await start([ResolverDefinition(type: "Query", field: "echo", kind: .pipeline(before: nil, functions: eleven, after: nil))])
            .contains("at most 10 functions"))
    }
}
