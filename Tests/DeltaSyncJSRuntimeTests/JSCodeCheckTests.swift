import DeltaSyncJSRuntime
import Testing

/// What AppSync refuses when code is saved, refused when the server starts with the file, line
/// and column; and what it takes, taken.
@Suite struct JSCodeCheckTests {
    static let handlers = "\nexport function response(ctx) { return ctx.result; }\n"

    static func problem(_ request: String) -> String? {
        do {
            _ = try JSCode(name: "resolvers/Query.x.js", text: request + handlers)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func validCodeIsTaken() throws {
        let code = try JSCode(name: "ok.js", text: #"""
            import { util } from '@aws-appsync/utils';
            import * as ddb from '@aws-appsync/utils/dynamodb';
            /* a comment with try { } and while */
            const ratio = (a, b) => a / b / 2;
            export function request(ctx) {
              const seen = { try: 1, in: 2, catch: ctx.args.in };
              let total = 0;
              for (const key in ctx.args) { total += seen[key] ?? 0; }
              for (const item of [1, 2].map((n) => { const doubled = n * 2; return doubled; })) { total += item; }
              const text = `total ${total > 1 ? `${ratio(total, 1)}` : '{}'} // not a comment`;
              return ddb.get({ key: { id: ctx.args.id, text } });
            }
            export { request as handler };
            """# + Self.handlers)
        #expect(code.digest.count == 64)
        #expect(!code.readsSelection)
    }

    @Test func whatAppSyncRefusesIsRefusedWithItsPlace() {
        #expect(Self.problem("export function request(ctx) {\n  try { return {}; } catch (e) { return {}; }\n}")?
            .hasPrefix("resolvers/Query.x.js:2:3: error: try statements do not run on AppSync's runtime") == true)
        #expect(Self.problem("export function request(ctx) { while (true) {} }")?.contains(":1:32: error: while loops") == true)
        #expect(Self.problem("export function request(ctx) { for (let i = 0; i < 3; i += 1) {} }")?.contains("C-style for loops") == true)
        #expect(Self.problem("export function request(ctx) { let i = 0; i++; return {}; }")?.contains("++ does not run") == true)
        #expect(Self.problem("export function request(ctx) { return { ok: 'id' in ctx.args }; }")?.contains("the in operator") == true)
        #expect(Self.problem("export function request(ctx) { return { ok: /a+/.test(ctx.args.x) }; }")?.contains("regular expression literals") == true)
        #expect(Self.problem("export async function request(ctx) { return {}; }")?.contains("async functions") == true)
        #expect(Self.problem("export function request(ctx) { for (const x of ctx.args.list) { if (x) continue; } }")?.contains("continue does not run") == true)
        #expect(Self.problem("export function request(ctx) { throw new Error('no'); }")?.contains("throw statements") == true)
    }

    @Test func whatNodeWouldRunButAppSyncRefusesIsRefusedToo() {
        #expect(Self.problem("function depth(n) {\n  return n ? 1 + depth(n.next) : 0;\n}\nexport function request(ctx) { return { n: depth(ctx.args) }; }")?
            .hasPrefix("resolvers/Query.x.js:2:18: error: recursion does not run on AppSync's runtime: depth calls itself") == true)
        #expect(Self.problem("const sum = (list) => list.length ? list[0] + sum(list.slice(1)) : 0;\nexport function request(ctx) { return {}; }")?.contains("sum calls itself") == true)
        #expect(Self.problem("class Box {}\nexport function request(ctx) { return {}; }")?.hasPrefix("resolvers/Query.x.js:1:1: error: classes do not run") == true)
        #expect(Self.problem("export function request(ctx) { return Math.max.apply(null, ctx.args.list); }")?.contains("apply() does not run") == true)
        #expect(Self.problem("export function request(ctx) { outer: for (const a of ctx.args.list) { break; } return {}; }")?.contains("labelled statements") == true)
        #expect(Self.problem("export function request(ctx) { return Function('return 1')(); }")?.contains("the Function constructor") == true)
        // Names that only look like the restricted constructs are fine.
        #expect(Self.problem("""
            const label = { class: 'a', call: 1 };
            const request = (ctx) => ({ kind: label.class, n: label.call, ok: ctx.args.ok ? 'yes' : 'no' });
            function total(list) { return list.reduce((sum, n) => sum + n, 0); }
            const twice = (x) => total([x, x]);
            export { request };
            """) == nil)
    }

    @Test func aModuleMustBeESMWithBothHandlersAndKnownImports() {
        #expect(Self.problem("import _ from 'lodash';\nexport function request(ctx) { return {}; }")?
            .hasPrefix("resolvers/Query.x.js:1:15: error: 'lodash' is not a module AppSync's runtime provides") == true)
        #expect(Self.problem("import { sql } from '@aws-appsync/utils/rds';\nexport function request(ctx) { return {}; }")?.contains("no RDS data source") == true)
        #expect(Self.problem("module.exports.request = (ctx) => ({});")?.contains("module.exports is CommonJS") == true)
        #expect(Self.problem("const x = 1;") == "resolvers/Query.x.js: error: the code exports no request function: AppSync's APPSYNC_JS code is an ES module that exports request(ctx) and response(ctx) (export function request(ctx) { ... })")
        #expect(Self.problem("export const request = (ctx) => ({});") == nil)
        #expect(Self.problem("function handle(ctx) { return {}; }\nexport { handle as request };") == nil)
        #expect(Self.problem("export function request(ctx) { return '" + String(repeating: "x", count: 33_000) + "'; }")?.contains("at most 32768 characters") == true)
        #expect(Self.problem("export function request(ctx) { return 'never closed; }")?.contains("a string is never closed") == true)
    }
}
