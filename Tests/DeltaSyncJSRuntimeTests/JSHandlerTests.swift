import DeltaSyncCore
import DeltaSyncFunctions
@testable import DeltaSyncJSRuntime
import Foundation
import Testing

/// How a handler call ends and what it leaves: values, `runtime.earlyReturn`, `util.error` and
/// `util.unauthorized`, appended errors, `extensions` calls, console lines, the stash and
/// arguments it changed, and code that fails, with its file, line and column.
@Suite struct JSHandlerTests {
    static let code = """
        import { util, runtime, extensions } from '@aws-appsync/utils';

        export function request(ctx) {
          ctx.stash.calls = (ctx.stash.calls ?? 0) + 1;
          ctx.args.seen = true;
          console.log('request for', ctx.args.mode);
          switch (ctx.args.mode) {
            case 'early': runtime.earlyReturn({ early: true });
            case 'end': runtime.earlyReturn('done', { skipTo: 'END' });
            case 'error': util.error('No such post', 'NotFound', { id: ctx.args.id }, { hint: 'check the id' });
            case 'ignored': util.error(404); break;
            case 'denied': util.unauthorized();
            case 'crash': return ctx.args.missing.field;
            case 'replace': ctx.stash = {};
          }
          util.appendError('kept going', 'Warning');
          extensions.invalidateSubscriptions({ subscriptionField: 'onPost', payload: { id: 'p1' } });
          return { payload: ctx.arguments, globals: typeof util.autoId === 'function' && typeof globalThis.runtime === 'object' };
        }

        export function response(ctx) {
          return ctx.error ? { failed: ctx.error.message } : ctx.result;
        }
        """

    static func request(_ mode: String, stash: JSONValue = [:]) async throws -> JSEvaluation {
        try await JSWorkerHarness.with { runtime in
            let code = try JSCode(name: "resolvers/Query.post.js", text: code)
            return try await runtime.evaluate(.request, of: code, context: ["arguments": ["mode": .string(mode), "id": "p1"], "stash": stash])
        }
    }

    @Test func aValueComesBackWithTheStashArgumentsAndWhatWasRecorded() async throws {
        let evaluation = try await Self.request("plain", stash: ["calls": 1])
        #expect(evaluation.outcome == .value(["payload": ["mode": "plain", "id": "p1", "seen": true], "globals": true]))
        #expect(evaluation.stash == ["calls": 2])
        #expect(evaluation.arguments == ["mode": "plain", "id": "p1", "seen": true])
        #expect(evaluation.appendedErrors == [JSRaisedError(["message": "kept going", "errorType": "Warning"])])
        #expect(evaluation.extensions.map(\.name) == ["invalidateSubscriptions"])
        #expect(evaluation.extensions.first?.value == ["subscriptionField": "onPost", "payload": ["id": "p1"]])
        #expect(evaluation.logs.map(\.message) == ["request for plain"])
    }

    @Test func earlyReturnEndsTheHandlerWithItsValue() async throws {
        #expect(try await Self.request("early").outcome == .earlyReturn(["early": true], skipTo: nil))
        let ended = try await Self.request("end")
        #expect(ended.outcome == .earlyReturn("done", skipTo: .end))
        #expect(ended.appendedErrors.isEmpty)
    }

    @Test func utilErrorAndUnauthorizedEndTheHandler() async throws {
        let raised = try await Self.request("error")
        #expect(raised.outcome == .raised(JSRaisedError([
            "message": "No such post", "errorType": "NotFound", "data": ["id": "p1"], "errorInfo": ["hint": "check the id"],
        ])))
        #expect(raised.stash == ["calls": 1])
        #expect(try await Self.request("denied").outcome == .unauthorized)
    }

    /// As on AppSync (aws-appsync-community#384): a message that is not a string makes
    /// util.error a no-op; DeltaSync says so in the log.
    @Test func utilErrorWithANumberIsIgnoredAsAppSyncIgnoresIt() async throws {
        let ignored = try await Self.request("ignored")
        guard case .value = ignored.outcome else { Issue.record("util.error(404) ended the handler: \(ignored.outcome)"); return }
        #expect(ignored.logs.contains { $0.level == "warn" && $0.message.hasPrefix("util.error ignored") })
    }

    @Test func failingCodeNamesItsFileLineAndColumn() async throws {
        do {
            _ = try await Self.request("crash")
            Issue.record("the crash was not reported")
        } catch let failure as FunctionFailure {
            #expect(failure.errorType == "Code")
            #expect(failure.errorMessage.hasPrefix("resolvers/Query.post.js:13:"))
            #expect(failure.errorMessage.hasSuffix("TypeError: Cannot read properties of undefined (reading 'field')"))
        }
        // The stash is the run's: it can change, not be replaced.
        await #expect(throws: FunctionFailure.self) { _ = try await Self.request("replace") }
    }

    @Test func aModuleThatDoesNotLoadFailsEveryCallWithItsLine() async throws {
        try await JSWorkerHarness.with { runtime in
            // Valid for the start-time check, wrong for the parser: `return` outside a function.
            let code = try JSCode(name: "broken.js", text: "export function request(ctx) { return {}; }\nexport function response(ctx) { return {}; }\nreturn 1;\n")
            for _ in 0..<2 {
                await #expect(throws: FunctionFailure.self) {
                    _ = try await runtime.evaluate(.request, of: code, context: [:])
                }
            }
            do {
                _ = try await runtime.evaluate(.request, of: code, context: [:])
            } catch let error as FunctionFailure {
                #expect(error.errorType == "Code")
                #expect(error.errorMessage.hasPrefix("broken.js:3"))
                #expect(error.errorMessage.contains("SyntaxError"))
            }
        }
    }

    @Test func manyCallsShareWarmWorkers() async throws {
        try await JSWorkerHarness.with { runtime in
            let code = try JSCode(name: "count.js", text: """
                let calls = 0;
                export function request(ctx) { calls += 1; return { calls, n: ctx.args.n }; }
                export function response(ctx) { return ctx.result; }
                """)
            try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for n in 0..<40 {
                    group.addTask {
                        let evaluation = try await runtime.evaluate(.request, of: code, context: ["arguments": ["n": .int(n)]])
                        guard case .value(let value) = evaluation.outcome else { throw JSWorkerHarness.Unexpected(evaluation) }
                        return value
                    }
                }
                var seen: Set<Int> = []
                var mostCalls = 0
                for try await value in group {
                    seen.insert(value["n"].intValue ?? -1)
                    mostCalls = max(mostCalls, value["calls"].intValue ?? 0)
                }
                #expect(seen == Set(0..<40))
                // At most four workers, so some worker evaluated at least ten calls.
                #expect(mostCalls >= 10)
            }
        }
    }
}
