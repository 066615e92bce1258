import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// APPSYNC_JS resolvers and functions served: a unit resolver over NONE, a JavaScript and a
/// template function sharing a pipeline (either way round), a `get` of the DynamoDB module over a
/// model's table, `util.error` as the field's error, `runtime.earlyReturn` in each place, and
/// code AppSync would not save stopping the start with its file.
@Suite struct JSResolverTests {
    static let schema = """
        type Note @model { id: ID! text: String! views: Int tags: [String] meta: AWSJSON }
        type Echo { text: String stash: AWSJSON args: AWSJSON }
        type Query {
          echo(msg: String): Echo
          pipeline(msg: String!): Echo
          mixed(msg: String!): Echo
          note(id: ID!): Note
          shout(msg: String!): String
          early(mode: String!): String
          touch(id: ID!, version: Int!): Note
        }
        """

    static func code(_ name: String, _ text: String) -> TemplateText { TemplateText(name: "resolvers/\(name).js", text: text) }

    static func withServer(
        _ resolvers: [ResolverDefinition], dataSources: [DataSourceDefinition] = [], _ body: (DeltaSyncTestServer) async throws -> Void
    ) async throws {
        try await DeltaSyncTestServer.withServer(schema: schema) { configuration in
            configuration.resolvers = resolvers
            configuration.dataSources = dataSources
            configuration.resolverEnvironment = ["GREETING": "hello"]
        } _: { server in
            try await body(server)
        }
    }

    @Test func aUnitResolverOverNoneAnswersWhatItsHandlersMake() async throws {
        let echo = ResolverDefinition(type: "Query", field: "echo", kind: .jsUnit(dataSource: "NONE", code: Self.code("echo", """
            import { util } from '@aws-appsync/utils';
            export function request(ctx) {
              ctx.stash.auth = util.authType();
              return { payload: { text: ctx.args.msg.toUpperCase(), env: ctx.env.GREETING, field: ctx.info.fieldName, selection: ctx.info.selectionSetList } };
            }
            export function response(ctx) {
              return { text: `${ctx.result.text} (${ctx.result.env})`, args: JSON.stringify(ctx.args), stash: JSON.stringify({ ...ctx.stash, field: ctx.result.field, selection: ctx.result.selection }) };
            }
            """)))
        try await Self.withServer([echo]) { server in
            let reply = try await server.graphQL(#"{ echo(msg: "hi") { text args stash } }"#)
            #expect(reply["errors"].isNull)
            #expect(reply["data"]["echo"]["text"] == "HI (hello)")
            #expect(reply["data"]["echo"]["args"] == #"{"msg":"hi"}"#)
            let stash = try JSONValue(parsing: reply["data"]["echo"]["stash"].stringValue ?? "")
            #expect(stash == ["auth": "API Key Authorization", "field": "echo", "selection": ["text", "args", "stash"]])
        }
    }

    /// A template pipeline with a JavaScript function, and a JavaScript pipeline with a template
    /// function: the steps share the stash, the arguments and each other's results.
    @Test func javaScriptAndTemplateFunctionsShareAPipeline() async throws {
        let jsFunction = FunctionDefinition(name: "jsStep", dataSource: "NONE", code: Self.code("jsStep", """
            export function request(ctx) {
              ctx.stash.seen = [...(ctx.stash.seen ?? []), 'js'];
              ctx.args.msg = ctx.args.msg + ' via js';
              return { payload: { previous: ctx.prev.result } };
            }
            export function response(ctx) { return { step: 'js', previous: ctx.result.previous }; }
            """))
        let templateFunction = FunctionDefinition(
            name: "vtlStep", dataSource: "NONE",
            request: #"$util.qr($ctx.stash.put("seen", $util.defaultIfNull($ctx.stash.seen, []))) $util.qr($ctx.stash.seen.add("vtl")) {"version": "2018-05-29", "payload": {"step": "vtl", "previous": $util.toJson($ctx.prev.result)}}"#,
            response: "$util.toJson($ctx.result)")
        let templatePipeline = ResolverDefinition(type: "Query", field: "pipeline", kind: .pipeline(
            before: #"$util.qr($ctx.stash.put("before", "vtl")){"started": true}"#, functions: [jsFunction, templateFunction],
            after: #"{"text": "$ctx.args.msg", "stash": $util.toJson($util.toJson($ctx.stash)), "args": $util.toJson($util.toJson($ctx.prev.result))}"#))
        let jsPipeline = ResolverDefinition(type: "Query", field: "mixed", kind: .jsPipeline(code: Self.code("mixed", """
            export function request(ctx) { ctx.stash.before = 'js'; return { started: true }; }
            export function response(ctx) {
              return { text: ctx.args.msg, stash: JSON.stringify(ctx.stash), args: JSON.stringify(ctx.prev.result) };
            }
            """), functions: [templateFunction, jsFunction]))
        try await Self.withServer([templatePipeline, jsPipeline]) { server in
            let viaTemplates = try await server.graphQL(#"{ pipeline(msg: "hi") { text stash args } }"#)
            #expect(viaTemplates["errors"].isNull)
            #expect(viaTemplates["data"]["pipeline"]["text"] == "hi via js")
            #expect(try JSONValue(parsing: viaTemplates["data"]["pipeline"]["stash"].stringValue ?? "") == ["before": "vtl", "seen": ["js", "vtl"]])
            #expect(try JSONValue(parsing: viaTemplates["data"]["pipeline"]["args"].stringValue ?? "")
                == ["step": "vtl", "previous": ["step": "js", "previous": ["started": true]]])

            let viaCode = try await server.graphQL(#"{ mixed(msg: "hi") { text stash args } }"#)
            #expect(viaCode["errors"].isNull)
            #expect(viaCode["data"]["mixed"]["text"] == "hi via js")
            #expect(try JSONValue(parsing: viaCode["data"]["mixed"]["stash"].stringValue ?? "") == ["before": "js", "seen": ["vtl", "js"]])
            #expect(try JSONValue(parsing: viaCode["data"]["mixed"]["args"].stringValue ?? "")
                == ["step": "js", "previous": ["step": "vtl", "previous": ["started": true]]])
        }
    }

    @Test func theDynamoDBModulesGetReadsAModelsTable() async throws {
        let note = ResolverDefinition(type: "Query", field: "note", kind: .jsUnit(dataSource: "NoteTable", code: Self.code("note", """
            import { util } from '@aws-appsync/utils';
            import * as ddb from '@aws-appsync/utils/dynamodb';
            export function request(ctx) { return ddb.get({ key: { id: ctx.args.id } }); }
            export function response(ctx) {
              if (ctx.error) util.error(ctx.error.message, ctx.error.type);
              return ctx.result ? { ...ctx.result, text: ctx.result.text + '!' } : null;
            }
            """)))
        try await Self.withServer([note], dataSources: [DataSourceDefinition(name: "NoteTable", kind: .dynamoDB(table: "Note"))]) { server in
            _ = try await server.graphQL(#"mutation { createNote(input: {id: "n1", text: "stored"}) { id } }"#)
            let read = try await server.graphQL(#"{ note(id: "n1") { id text } }"#)
            #expect(read["errors"].isNull)
            #expect(read["data"]["note"] == ["id": "n1", "text": "stored!"])
            let missing = try await server.graphQL(#"{ note(id: "nope") { id } }"#)
            #expect(missing["data"]["note"] == .null)
            #expect(missing["errors"].isNull)
        }
    }

    /// The module's update operations as DeltaSync's DynamoDB language takes them: ADD for
    /// increments, list_append over an absent list, REMOVE, and a condition; the `_version` a
    /// versioned table's writes name.
    @Test func theDynamoDBModulesUpdateOperationsWriteTheItem() async throws {
        let touch = ResolverDefinition(type: "Query", field: "touch", kind: .jsUnit(dataSource: "NoteTable", code: Self.code("touch", """
            import { util } from '@aws-appsync/utils';
            import { update, operations } from '@aws-appsync/utils/dynamodb';
            export function request(ctx) {
              return update({
                key: { id: ctx.args.id },
                _version: ctx.args.version,
                update: { views: operations.increment(2), tags: operations.append(['seen']), text: operations.remove() },
                condition: { id: { attributeExists: true } },
              });
            }
            export function response(ctx) {
              if (ctx.error) util.error(ctx.error.message, ctx.error.type);
              return { ...ctx.result, text: ctx.result.text ?? 'removed' };
            }
            """)))
        try await Self.withServer([touch], dataSources: [DataSourceDefinition(name: "NoteTable", kind: .dynamoDB(table: "Note"))]) { server in
            _ = try await server.graphQL(#"mutation { createNote(input: {id: "n1", text: "stored"}) { id } }"#)
            let first = try await server.graphQL(#"{ touch(id: "n1", version: 1) { id text views tags _version } }"#)
            #expect(first["errors"].isNull)
            #expect(first["data"]["touch"] == ["id": "n1", "text": "removed", "views": 2, "tags": ["seen"], "_version": 2])
            let second = try await server.graphQL(#"{ touch(id: "n1", version: 2) { views tags } }"#)
            #expect(second["data"]["touch"] == ["views": 4, "tags": ["seen", "seen"]])
            let missing = try await server.graphQL(#"{ touch(id: "nope", version: 1) { id } }"#)
            #expect(missing["errors"][0]["errorType"].stringValue?.hasSuffix("ConditionalCheckFailedException") == true)
        }
    }

    @Test func utilErrorIsTheFieldsErrorAndFailingCodeNamesItsLine() async throws {
        let shout = ResolverDefinition(type: "Query", field: "shout", kind: .jsUnit(dataSource: "NONE", code: Self.code("shout", """
            import { util } from '@aws-appsync/utils';
            export function request(ctx) {
              if (ctx.args.msg === 'quiet') util.error('No shouting', 'ShoutError', { text: ctx.args.msg }, { hint: 'lower' });
              if (ctx.args.msg === 'denied') util.unauthorized();
              if (ctx.args.msg === 'crash') return ctx.args.nothing.here;
              util.appendError('kept going', 'Warning');
              return { payload: ctx.args.msg + '!' };
            }
            export function response(ctx) { return ctx.result; }
            """)))
        try await Self.withServer([shout]) { server in
            let raised = try await server.graphQL(#"{ shout(msg: "quiet") }"#)
            #expect(raised["data"]["shout"] == .null)
            #expect(raised["errors"][0]["errorType"] == "ShoutError")
            #expect(raised["errors"][0]["message"] == "No shouting")
            #expect(raised["errors"][0]["errorInfo"] == ["hint": "lower"])
            #expect(raised["errors"][0]["path"] == ["shout"])

            let appended = try await server.graphQL(#"{ shout(msg: "loud") }"#)
            #expect(appended["data"]["shout"] == "loud!")
            #expect(appended["errors"][0]["errorType"] == "Warning")

            let denied = try await server.graphQL(#"{ shout(msg: "denied") }"#)
            #expect(denied["errors"][0]["errorType"] == "Unauthorized")
            #expect(denied["errors"][0]["message"] == "Not Authorized to access shout on type Query")

            let crashed = try await server.graphQL(#"{ shout(msg: "crash") }"#)
            #expect(crashed["errors"][0]["errorType"] == "Code")
            #expect(crashed["errors"][0]["message"].stringValue?.hasPrefix("resolvers/shout.js:5:") == true)
        }
    }

    /// In a unit resolver's request the value is the field's; in a pipeline's request the
    /// functions are skipped and the response runs; in a function's request the function ends,
    /// and with skipTo END the remaining functions too.
    @Test func earlyReturnEndsWhereAppSyncEndsIt() async throws {
        let unit = ResolverDefinition(type: "Query", field: "shout", kind: .jsUnit(dataSource: "NONE", code: Self.code("unit", """
            import { runtime } from '@aws-appsync/utils';
            export function request(ctx) { runtime.earlyReturn('early ' + ctx.args.msg); return { payload: 'never' }; }
            export function response(ctx) { return 'the response never runs'; }
            """)))
        let function = { (name: String) in
            FunctionDefinition(name: name, dataSource: "NONE", code: Self.code(name, """
                import { runtime } from '@aws-appsync/utils';
                export function request(ctx) {
                  ctx.stash.ran = [...(ctx.stash.ran ?? []), '\(name)'];
                  if (ctx.args.mode === '\(name)') runtime.earlyReturn('\(name) returned');
                  if (ctx.args.mode === '\(name) END') runtime.earlyReturn('\(name) ended', { skipTo: 'END' });
                  return { payload: '\(name) ran' };
                }
                export function response(ctx) { return ctx.result; }
                """))
        }
        let pipeline = ResolverDefinition(type: "Query", field: "early", kind: .jsPipeline(code: Self.code("early", """
            import { runtime } from '@aws-appsync/utils';
            export function request(ctx) {
              if (ctx.args.mode === 'before') runtime.earlyReturn('from before');
              return {};
            }
            export function response(ctx) { return `${ctx.prev.result} after ${JSON.stringify(ctx.stash.ran ?? [])}`; }
            """), functions: [function("first"), function("second")]))
        try await Self.withServer([unit, pipeline]) { server in
            #expect(try await server.graphQL(#"{ shout(msg: "hi") }"#)["data"]["shout"] == "early hi")
            for (mode, answer) in [
                ("none", #"second ran after ["first","second"]"#),
                ("before", "from before after []"),
                ("first", #"second ran after ["first","second"]"#),
                ("first END", #"first ended after ["first"]"#),
                ("second", #"second returned after ["first","second"]"#),
            ] {
                let reply = try await server.graphQL("query($m: String!) { early(mode: $m) }", variables: ["m": .string(mode)])
                #expect(reply["errors"].isNull, "\(mode)")
                #expect(reply["data"]["early"] == .string(answer), "\(mode)")
            }
        }
    }

    @Test func codeAppSyncWouldNotSaveStopsTheStartWithItsFile() async throws {
        let broken = ResolverDefinition(type: "Query", field: "shout", kind: .jsUnit(dataSource: "NONE", code: Self.code("shout", """
            export function request(ctx) {
              let total = 0;
              total++;
              return { payload: total };
            }
            """)))
        do {
            try await Self.withServer([broken]) { _ in Issue.record("the server started") }
        } catch {
            #expect("\(error)".contains("resolvers/shout.js:3:8: error: ++ does not run on AppSync's runtime"))
        }
        let noResponse = ResolverDefinition(type: "Query", field: "shout", kind: .jsUnit(dataSource: "NONE", code: Self.code("shout", """
            export function request(ctx) { return { payload: 1 }; }
            """)))
        do {
            try await Self.withServer([noResponse]) { _ in Issue.record("the server started") }
        } catch {
            #expect("\(error)".contains("resolvers/shout.js: error: the code exports no response function"))
        }
    }
}
