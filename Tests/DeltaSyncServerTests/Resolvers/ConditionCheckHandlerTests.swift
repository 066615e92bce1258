import DeltaSyncCore
import DeltaSyncSchema
@testable import DeltaSyncServer
import Foundation
import Testing

/// A DynamoDB write whose condition fails meets its `conditionalCheckFailedHandler`: AppSync's
/// `Custom` strategy asks a Lambda function to reject, discard or retry, and the function sees
/// the request, the stored item and who asked.
@Suite struct ConditionCheckHandlerTests {
    typealias Table = DynamoDBDataSourceTests.Table

    /// The events the handler received, in order.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [JSONValue] = []
        func record(_ event: JSONValue) { lock.withLock { events.append(event) } }
        var all: [JSONValue] { lock.withLock { events } }
    }

    /// A table whose handler function `resolveTodo` answers what `decide` makes of its event.
    static func withHandler(
        _ decide: @escaping @Sendable (JSONValue) throws -> JSONValue, _ body: @Sendable (Table, Calls) async throws -> Void
    ) async throws {
        let calls = Calls()
        try await DynamoDBDataSourceTests.withTable(configure: { configuration in
            configuration.functions["resolveTodo"] = ClosureFunction { invocation in
                calls.record(invocation.event)
                return try decide(invocation.event)
            }
        }) { table in try await body(table, calls) }
    }

    static func update(_ table: Table, title: String, handler: JSONValue, expression: String = "rating > :five") async throws -> JSONValue {
        try await table.send([
            "operation": "UpdateItem", "key": ["id": ["S": "p1"]], "_version": 1,
            "update": ["expression": "SET title = :t", "expressionValues": [":t": .object(["S": .string(title)])]],
            "condition": ["expression": .string(expression), "expressionValues": [":five": ["N": "5"]], "conditionalCheckFailedHandler": handler],
        ])
    }

    static let custom: JSONValue = ["strategy": "Custom", "lambdaArn": "arn:aws:lambda:us-east-1:123456789012:function:resolveTodo"]

    @Test func theHandlerSeesTheRequestAndTheStoredItemAndCanRetry() async throws {
        try await Self.withHandler({ event in
            ["action": "retry", "retryMapping": [
                "update": ["expression": "SET title = :t", "expressionValues": [":t": ["S": "merged"]]],
                "condition": ["expression": "attribute_exists(id)"], "_version": 1,
            ]]
        }) { table, calls in
            _ = try await table.put(["id": "p1", "title": "Hello", "rating": 3])
            let retried = try await Self.update(table, title: "mine", handler: Self.custom)
            #expect(retried["title"] == "merged")
            #expect(retried["_version"] == 2, "the retry is a versioned write like any other")
            let event = try #require(calls.all.first)
            #expect(event["currentValue"]["title"] == ["S": "Hello"], "the stored item comes typed")
            #expect(event["currentValue"]["rating"] == ["N": "3"])
            #expect(event["requestMapping"]["operation"] == "UpdateItem")
            #expect(event["requestMapping"]["update"]["expressionValues"][":t"] == ["S": "mine"])
            #expect(event["resolver"]["parentType"] == "Query")
            #expect(event["resolver"]["field"] == "ddb")
            #expect(event["resolver"]["tableName"] == "Post")
            #expect(event["arguments"]["request"].stringValue != nil)
            #expect(try await table.send(["operation": "GetItem", "key": ["id": ["S": "p1"]]])["title"] == "merged")
        }
    }

    @Test func aRetryThatFailsAgainIsRejectedWithoutAskingTwice() async throws {
        try await Self.withHandler({ _ in
            ["action": "retry", "retryMapping": [
                "update": ["expression": "SET title = :t", "expressionValues": [":t": ["S": "never"]]],
                "condition": ["expression": "attribute_not_exists(id)"], "_version": 1,
            ]]
        }) { table, calls in
            _ = try await table.put(["id": "p1", "title": "Hello", "rating": 3])
            let failed = try await Self.update(table, title: "mine", handler: Self.custom)
            #expect(failed["error"] == "ConditionalCheckFailedException")
            #expect(failed["data"]["title"] == "Hello")
            #expect(calls.all.count == 1)
        }
    }

    @Test func discardAnswersTheStoredItemAndRejectFails() async throws {
        try await Self.withHandler({ event in
            ["action": event["requestMapping"]["update"]["expressionValues"][":t"]["S"].stringValue == "discard me" ? "DISCARD" : "reject"]
        }) { table, _ in
            _ = try await table.put(["id": "p1", "title": "Hello", "rating": 3])
            let discarded = try await Self.update(table, title: "discard me", handler: Self.custom)
            #expect(discarded["error"] == .null)
            #expect(discarded["title"] == "Hello")
            #expect(discarded["_version"] == 1, "nothing was written")
            let rejected = try await Self.update(table, title: "reject me", handler: Self.custom)
            #expect(rejected["error"] == "ConditionalCheckFailedException")
            // A condition that holds never asks the handler.
            let written = try await Self.update(table, title: "fine", handler: Self.custom, expression: "rating < :five")
            #expect(written["title"] == "fine")
        }
    }

    @Test func badHandlersAndAnswersAreClearErrors() async throws {
        try await Self.withHandler({ event in
            if event["requestMapping"]["update"]["expressionValues"][":t"]["S"] == "throw" {
                throw FunctionFailure(errorType: "Error", errorMessage: "handler broke")
            }
            return ["action": "merge"]
        }) { table, calls in
            _ = try await table.put(["id": "p1", "title": "Hello", "rating": 3])
            let unknown = try await Self.update(table, title: "x", handler: Self.custom)
            #expect(unknown["error"] == "Lambda:Unhandled")
            #expect(unknown["message"].stringValue?.contains("reject") == true)
            let thrown = try await Self.update(table, title: "throw", handler: Self.custom)
            #expect(thrown["error"] == "Lambda:Unhandled")
            #expect(thrown["message"] == "handler broke")
            let missing = try await Self.update(table, title: "x", handler: ["strategy": "Custom", "lambdaArn": "arn:aws:lambda:us-east-1:1:function:nobody"])
            #expect(missing["error"] == "Lambda:Unhandled")
            #expect(missing["message"].stringValue?.contains("'nobody'") == true)
            let noArn = try await Self.update(table, title: "x", handler: ["strategy": "Custom"])
            #expect(noArn["message"].stringValue?.contains("lambdaArn") == true)
            let strategy = try await Self.update(table, title: "x", handler: ["strategy": "Merge"])
            #expect(strategy["message"].stringValue?.contains("Reject or Custom") == true)
            #expect(calls.all.count == 2)
            #expect(try await table.send(["operation": "GetItem", "key": ["id": ["S": "p1"]]])["title"] == "Hello", "nothing was lost")
        }
    }
}
