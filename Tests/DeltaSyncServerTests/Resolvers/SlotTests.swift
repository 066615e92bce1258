import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// Slots and overrides around DeltaSync's generated steps, beyond the fixture project: the
/// order slots run in, the stash keys the generated steps honour, and an override's request
/// over the model's table, which fails closed for callers limited to their own items.
@Suite struct SlotTests {
    static let schema = """
        type Note @model @auth(rules: [{allow: owner}, {allow: groups, groups: ["Admin"]}, {allow: public, provider: apiKey, operations: [read]}]) {
          id: ID!
          text: String!
          rank: Int
          owner: String
        }
        """

    static func slot(_ type: String, _ field: String, _ slot: Slot, _ position: Int, request: String? = nil, response: String? = nil) -> SlotFunctionDefinition {
        let name = "resolvers/\(type).\(field).\(slot.rawValue).\(position)"
        return SlotFunctionDefinition(
            type: type, field: field, slot: slot, position: position,
            request: request.map { TemplateText(name: "\(name).req.vtl", text: $0) },
            response: response.map { TemplateText(name: "\(name).res.vtl", text: $0) })
    }

    static func withServer(
        slots: [SlotFunctionDefinition] = [], overrides: [DataStepOverride] = [], _ body: (DeltaSyncTestServer) async throws -> Void
    ) async throws {
        try await DeltaSyncTestServer.withServer(schema: schema) { configuration in
            configuration.authModes = APIAuthModes(defaultMode: .apiKey, additionalModes: [.userPools])
            configuration.slots = slots
            configuration.overrides = overrides
        } _: { server in
            try await body(server)
        }
    }

    static let create = "mutation($i: CreateNoteInput!, $c: ModelNoteConditionInput) { createNote(input: $i, condition: $c) { id text rank owner } }"

    /// Slots run in pipeline order, and within a slot by the text "order<N>": 10 before 2.
    @Test func slotsRunInAmplifysOrder() async throws {
        func mark(_ label: String) -> String {
            #"$util.qr($ctx.stash.put("seen", $util.defaultIfNull($ctx.stash.seen, "") + "LABEL "))$util.qr($ctx.args.input.put("text", $ctx.stash.seen.trim())){}"#
                .replacingOccurrences(of: "LABEL", with: label)
        }
        let slots = [
            Self.slot("Mutation", "createNote", .preUpdate, 1, request: mark("preUpdate1")),
            Self.slot("Mutation", "createNote", .preAuth, 2, request: mark("preAuth2")),
            Self.slot("Mutation", "createNote", .preAuth, 10, request: mark("preAuth10")),
            Self.slot("Mutation", "createNote", .`init`, 1, request: mark("init1")),
            Self.slot("Mutation", "createNote", .postUpdate, 1, response: #"$util.qr($ctx.prev.result.put("rank", 99))$util.toJson($ctx.prev.result)"#),
        ]
        try await Self.withServer(slots: slots) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            let created = try await server.graphQL(Self.create, variables: ["i": ["id": "n1", "text": "x"]], token: alice)
            #expect(created["errors"].isNull)
            #expect(created["data"]["createNote"]["text"] == "init1 preAuth10 preAuth2 preUpdate1")
            // The after slot changed the field's value, not what was stored.
            #expect(created["data"]["createNote"]["rank"] == 99)
            let stored = try await server.graphQL(#"{ getNote(id: "n1") { text rank } }"#)
            #expect(stored["data"]["getNote"] == ["text": "init1 preAuth10 preAuth2 preUpdate1", "rank": .null])
        }
    }

    @Test func stashedConditionsAndTransformedArgumentsReachTheGeneratedWrite() async throws {
        let slots = [
            Self.slot("Mutation", "updateNote", .preUpdate, 1, request: #"$util.qr($ctx.stash.put("conditions", [{"rank": {"lt": 5}}])){}"#),
            Self.slot("Query", "listNotes", .preDataLoad, 1, request: #"$util.qr($ctx.stash.put("transformedArgs", {"filter": {"rank": {"gt": 1}}})){}"#),
        ]
        try await Self.withServer(slots: slots) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            for (id, rank) in [("low", 1), ("high", 7)] {
                _ = try await server.graphQL(Self.create, variables: ["i": ["id": .string(id), "text": "t", "rank": .int(rank)]], token: alice)
            }
            let update = "mutation($i: UpdateNoteInput!) { updateNote(input: $i) { id text } }"
            let allowed = try await server.graphQL(update, variables: ["i": ["id": "low", "text": "changed", "_version": 1]], token: alice)
            #expect(allowed["data"]["updateNote"]["text"] == "changed")
            let refused = try await server.graphQL(update, variables: ["i": ["id": "high", "text": "changed", "_version": 1]], token: alice)
            #expect(refused["errors"][0]["errorType"] == "ConditionalCheckFailedException")
            let listed = try await server.graphQL("{ listNotes { items { id } } }")
            #expect(listed["data"]["listNotes"]["items"] == [["id": "high"]])
        }
    }

    /// A stashed `authFilter` narrows; a slot cannot widen the caller's `@auth` rules.
    @Test func anAuthFilterNarrowsAndSlotsNeverWiden() async throws {
        let slots = [
            Self.slot("Query", "listNotes", .auth, 1, request: #"$util.qr($ctx.stash.put("authFilter", {"text": {"eq": "shared"}})){}"#),
            Self.slot("Query", "getNote", .auth, 1, request: #"$util.qr($ctx.stash.put("authFilter", {"text": {"eq": "shared"}})){}"#),
            // Amplify's postAuth lets callers through when `hasAuth` is set; DeltaSync's rules still apply.
            Self.slot("Mutation", "updateNote", .postAuth, 1, request: #"$util.qr($ctx.stash.put("hasAuth", true)){}"#),
        ]
        try await Self.withServer(slots: slots) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            let bob = try await server.token(username: "bob", sub: "b1")
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "s", "text": "shared"]], token: alice)
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "p", "text": "private"]], token: alice)
            let listed = try await server.graphQL("{ listNotes { items { id } } }", token: alice)
            #expect(listed["data"]["listNotes"]["items"] == [["id": "s"]])
            let hidden = try await server.graphQL(#"{ getNote(id: "p") { id } }"#, token: alice)
            #expect(hidden["errors"][0]["errorType"] == "Unauthorized")
            let notBobs = try await server.graphQL(
                "mutation { updateNote(input: {id: \"s\", text: \"bob's now\"}) { id } }", token: bob)
            #expect(notBobs["data"]["updateNote"] == .null)
            #expect(notBobs["errors"][0]["errorType"] != nil)
            let unchanged = try await server.graphQL(#"{ getNote(id: "s") { text } }"#)
            #expect(unchanged["data"]["getNote"]["text"] == "shared")
        }
    }

    @Test func aSlotsUnauthorizedStopsTheWrite() async throws {
        let slots = [Self.slot("Mutation", "createNote", .auth, 1, request: #"#if($ctx.args.input.text == "forbidden")$util.unauthorized()#end{}"#)]
        try await Self.withServer(slots: slots) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            let refused = try await server.graphQL(Self.create, variables: ["i": ["id": "n1", "text": "forbidden"]], token: alice)
            #expect(refused["errors"][0]["errorType"] == "Unauthorized")
            #expect(refused["errors"][0]["message"] == "Not Authorized to access createNote on type Mutation")
            let nothing = try await server.graphQL(#"{ getNote(id: "n1") { id } }"#)
            #expect(nothing["data"]["getNote"] == .null)
        }
    }

    /// A subscription's slots run when it starts: an error they raise refuses the start with
    /// that error, after DeltaSync's own checks.
    @Test func aSubscriptionSlotsErrorRefusesTheStart() async throws {
        let slots = [Self.slot(
            "Subscription", "onCreateNote", .preSubscribe, 1,
            request: #"#if($util.isNull($ctx.args.filter))$util.error("Subscribe with a filter", "FilterRequired")#end{}"#)]
        try await Self.withServer(slots: slots) { server in
            let realtime = server.realtimeClient()
            _ = try await realtime.initialize()
            realtime.start(id: "bare", query: "subscription { onCreateNote { id } }", apiKey: server.apiKey)
            let refused = try await realtime.next("error")
            #expect(refused["id"] == "bare")
            #expect(refused["payload"]["errors"][0]["errorType"] == "FilterRequired")
            #expect(refused["payload"]["errors"][0]["message"] == "Subscribe with a filter")
            realtime.start(id: "filtered", query: #"subscription { onCreateNote(filter: {rank: {gt: 1}}) { id } }"#, apiKey: server.apiKey)
            #expect(try await realtime.next("start_ack")["id"] == "filtered")
            _ = await realtime.close()
        }
    }

    /// An overriding request runs against the model's table for a caller the rules grant the
    /// whole model (a group), and is refused to one limited to their own items (an owner).
    @Test func anOverriddenWriteRequestFailsClosedForOwners() async throws {
        let request = #"""
            {"version": "2018-05-29", "operation": "PutItem",
             "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.input.id)},
             "attributeValues": $util.dynamodb.toMapValuesJson({"text": "via template: ${ctx.args.input.text}", "owner": "alice::a1"})}
            """#
        let overrides = [DataStepOverride(
            type: "Mutation", field: "createNote", request: TemplateText(name: "resolvers/Mutation.createNote.req.vtl", text: request), response: nil)]
        try await Self.withServer(overrides: overrides) { server in
            let admin = try await server.token(username: "root", sub: "r1", groups: ["Admin"])
            let written = try await server.graphQL(Self.create, variables: ["i": ["id": "n1", "text": "hi"]], token: admin)
            #expect(written["errors"].isNull)
            #expect(written["data"]["createNote"]["text"] == "via template: hi")
            let owner = try await server.graphQL(Self.create, variables: ["i": ["id": "n2", "text": "hi"]], token: try await server.token(username: "alice", sub: "a1"))
            #expect(owner["data"]["createNote"] == .null)
            #expect(owner["errors"][0]["errorType"] == "Unauthorized")
            let read = try await server.graphQL(#"{ getNote(id: "n2") { id } }"#)
            #expect(read["data"]["getNote"] == .null)
        }
    }

    @Test func anOverriddenReadRequestAnswersThroughTheCallersReadRules() async throws {
        let overrides = [DataStepOverride(
            type: "Query", field: "getNote",
            request: TemplateText(name: "resolvers/Query.getNote.req.vtl", text: #"{"version": "2018-05-29", "operation": "GetItem", "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.id)}}"#),
            response: TemplateText(name: "resolvers/Query.getNote.res.vtl", text: #"$util.toJson($ctx.result)"#))]
        try await Self.withServer(overrides: overrides) { server in
            let alice = try await server.token(username: "alice", sub: "a1")
            let bob = try await server.token(username: "bob", sub: "b1")
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "n1", "text": "mine"]], token: alice)
            #expect(try await server.graphQL(#"{ getNote(id: "n1") { text } }"#, token: alice)["data"]["getNote"] == ["text": "mine"])
            let refused = try await server.graphQL(#"{ getNote(id: "n1") { text } }"#, token: bob)
            #expect(refused["data"]["getNote"] == .null)
            #expect(refused["errors"][0]["errorType"] == "Unauthorized")
        }
    }
}
