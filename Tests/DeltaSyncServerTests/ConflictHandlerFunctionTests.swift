import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import NIOConcurrencyHelpers
import Testing

/// `conflictHandlerFunction`: a configured function (a project's Node or Python handler, an
/// endpoint, a closure) decides `LAMBDA` conflicts, given AppSync's payload as its event.
@Suite struct ConflictHandlerFunctionTests {
    @Test("a named function decides conflicts with AppSync's payload, and its failures are ConflictErrors")
    func namedFunctionDecides() async throws {
        let events = NIOLockedValueBox<[JSONValue]>([])
        try await TestServer(project: try ConflictTests.players(.lambda), configure: {
            $0.functions["decide"] = ClosureFunction { invocation in
                events.withLockedValue { $0.append(invocation.event) }
                if invocation.event["newItem"]["name"] == "explode" {
                    throw FunctionFailure(errorType: "TypeError", errorMessage: "Cannot read properties of undefined (reading 'length')")
                }
                return ["action": "RESOLVE", "item": ["name": .string("decided: \(invocation.event["newItem"]["name"].stringValue ?? "")")]]
            }
            $0.conflictHandlerFunction = "decide"
        }).withClient { client in
            try await ConflictTests.seedVersion6(client)
            let resolved = try await client.expectData("updatePlayer", ConflictTests.update, ["i": ["id": "p1", "name": "late", "_version": 2]])
            #expect(resolved["name"] == "decided: late")
            #expect(resolved["_version"] == 7)
            let event = try #require(events.withLockedValue { $0.first })
            #expect(event["existingItem"]["_version"] == 6)
            #expect(event["resolver"]["field"] == "updatePlayer")

            let failed = try await client.graphQL(ConflictTests.update, ["i": ["id": "p1", "name": "explode", "_version": 2]])
            #expect(failed.firstError["errorType"] == "ConflictError")
            #expect(failed.firstError["message"].stringValue?.contains("TypeError: Cannot read properties of undefined") == true)
        }
    }

    @Test("a conflict handler function nobody configured stops the server from starting, naming what there is")
    func unknownFunctionIsRefused() throws {
        var configuration = ServerConfiguration()
        configuration.storage = .inMemory
        configuration.functions["decide"] = ClosureFunction { _ in ["action": "REJECT"] }
        configuration.conflictHandlerFunction = "decider"
        #expect {
            _ = try DeltaSyncServer(project: try ConflictTests.players(.lambda), configuration: configuration)
        } throws: { error in
            "\(error)".contains("The conflict handler function decider is not configured") && "\(error)".contains("decide")
        }
    }
}
