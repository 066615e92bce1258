import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import Testing

/// AppSync's realtime protocol over a real socket: auth carriers, the message flow, events,
/// filters, errors and limits.
@Suite struct RealtimeTests {
    /// Runs `body` with a started server and its URLs.
    static func withServer(
        configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
        _ body: (Live) async throws -> Void
    ) async throws {
        let server = try await TestServer(configure: configure).server
        let running = try await server.start()
        do {
            try await body(Live(running: running, server: server))
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
    }

    struct Live {
        let running: RunningServer
        let server: DeltaSyncServer
        var wsURL: String { "ws://127.0.0.1:\(running.port)/graphql" }

        func client(path: String = "/graphql", query: String = "", headers: HTTPFields? = nil, extraProtocols: [String] = [], reads: Bool = true)
            -> RealtimeTestClient
        {
            let defaultHeaders: HTTPFields = [HTTPField.Name("x-api-key")!: TestServer.apiKey]
            return RealtimeTestClient(
                url: "ws://127.0.0.1:\(running.port)\(path)\(query)", headers: headers ?? defaultHeaders,
                extraProtocols: extraProtocols, reads: reads)
        }

        /// A connected, acknowledged client.
        func connected() async throws -> RealtimeTestClient {
            let client = client()
            _ = try await client.initialize()
            return client
        }

        func mutate(_ query: String, _ variables: JSONValue = [:]) async throws -> JSONValue {
            try await LiveHTTP.graphQL(running.graphQLURL, query, variables)
        }
    }

    static func base64(_ json: JSONValue, urlSafe: Bool, padded: Bool) -> String {
        var text = Data(json.jsonText.utf8).base64EncodedString()
        if urlSafe { text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
        if !padded { text = text.replacingOccurrences(of: "=", with: "") }
        return text
    }

    static let onCreatePost = "subscription { onCreatePost { __typename id title rating body } }"
    static let createPost = "mutation($i: CreatePostInput!) { createPost(input: $i) { id title rating _version } }"

    // MARK: - Handshake and auth

    @Test func eachAuthCarrierIsAcknowledgedWithATimeout() async throws {
        try await Self.withServer { live in
            // "?/+" in the header make standard and URL-safe base64 differ.
            let header: JSONValue = ["host": "localhost:20002", "x-api-key": .string(TestServer.apiKey), "x-pad": "??>>"]
            let carriers: [RealtimeTestClient] = [
                live.client(query: "?header=\(Self.base64(header, urlSafe: false, padded: true))&payload=e30=", headers: [:]),
                live.client(path: "/graphql/realtime", query: "?header=\(Self.base64(header, urlSafe: true, padded: false))&payload=e30=", headers: [:]),
                live.client(headers: [:], extraProtocols: ["header-\(Self.base64(header, urlSafe: true, padded: false))"]),
                live.client(),
            ]
            for client in carriers {
                let ack = try await client.initialize()
                #expect(ack["payload"]["connectionTimeoutMs"] == 300_000)
                _ = await client.close()
            }
        }
    }

    @Test func aWrongKeyGetsConnectionErrorAndIsNeverAcknowledged() async throws {
        try await Self.withServer { live in
            let header: JSONValue = ["host": "localhost", "x-api-key": "da2-wrong"]
            for client in [
                live.client(query: "?header=\(Self.base64(header, urlSafe: false, padded: true))&payload=e30=", headers: [:]),
                live.client(headers: [HTTPField.Name("x-api-key")!: "da2-wrong"]),
                live.client(headers: [:]),
            ] {
                client.send(["type": "connection_init"])
                let error = try await client.next("connection_error")
                #expect(error["payload"]["errors"][0]["errorType"] == "UnauthorizedException")
                #expect(error["payload"]["errors"][0]["errorCode"] == 401)
                let close = try await client.closed()
                #expect(close?.closeCode == .policyViolation)
            }
        }
    }

    // MARK: - Messages

    @Test func startAckDataStopComplete() async throws {
        try await Self.withServer { live in
            let client = try await live.connected()
            client.start(id: "1", query: Self.onCreatePost)
            #expect(try await client.next("start_ack") == ["type": "start_ack", "id": "1"])

            _ = try await live.mutate(Self.createPost, ["i": ["id": "p1", "blogID": "b1", "title": "Hello", "rating": 5, "body": "not selected"]])
            let data = try await client.next("data")
            #expect(data["id"] == "1")
            // `body` was not selected by the mutation: it arrives as null.
            #expect(data["payload"] == ["data": ["onCreatePost": ["__typename": "Post", "id": "p1", "title": "Hello", "rating": 5, "body": nil]]])

            client.send(["type": "stop", "id": "1"])
            #expect(try await client.next("complete") == ["type": "complete", "id": "1"])
            _ = try await live.mutate(Self.createPost, ["i": ["id": "p2", "blogID": "b1", "title": "After stop"]])
            // Another subscription proves the event went out, and the stopped one got nothing.
            client.start(id: "2", query: Self.onCreatePost)
            _ = try await client.next("start_ack")
            _ = try await live.mutate(Self.createPost, ["i": ["id": "p3", "blogID": "b1", "title": "Third"]])
            let next = try await client.next("data")
            #expect(next["id"] == "2")
            #expect(next["payload"]["data"]["onCreatePost"]["id"] == "p3")
            _ = await client.close()
        }
    }

    @Test func aNonNullFieldTheMutationDidNotSelectIsAnError() async throws {
        try await Self.withServer { live in
            let client = try await live.connected()
            client.start(id: "x", query: "subscription { onCreatePost { id status } }")
            _ = try await client.next("start_ack")
            _ = try await live.mutate(Self.createPost, ["i": ["id": "p1", "blogID": "b1", "title": "T"]])
            let data = try await client.next("data")
            #expect(data["payload"]["data"] == ["onCreatePost": nil])
            #expect(
                data["payload"]["errors"][0]["message"]
                    == "Cannot return null for non-nullable type: 'PostStatus' within parent 'Post' (/onCreatePost/status)")
            _ = await client.close()
        }
    }

    @Test func filtersSelectEvents() async throws {
        try await Self.withServer { live in
            let client = try await live.connected()
            client.start(
                id: "f", query: "subscription($f: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $f) { id } }",
                variables: ["f": ["or": [["rating": ["gt": 3]], ["title": ["beginsWith": "Wanted"], "rating": ["in": [1, 2]]]]]])
            _ = try await client.next("start_ack")
            let posts: [(String, String, Int)] = [
                ("a", "x", 5), ("b", "x", 1), ("c", "Wanted: c", 2), ("d", "Wanted: d", 3), ("e", "y", 4),
            ]
            for (id, title, rating) in posts {
                _ = try await live.mutate(Self.createPost, ["i": ["id": .string(id), "blogID": "b1", "title": .string(title), "rating": .int(rating)]])
            }
            var received: [String] = []
            for _ in 0..<3 { received.append(try await client.next("data")["payload"]["data"]["onCreatePost"]["id"].stringValue ?? "") }
            #expect(received == ["a", "c", "e"])
            _ = await client.close()
        }
    }

    /// One connection holding unfiltered subscriptions of two shapes and a filtered one: each
    /// gets its own messages, and a stopped one none, for every event after the change.
    @Test func subscriptionsOfOneConnectionEachGetTheirOwnShapeAndFilter() async throws {
        try await Self.withServer { live in
            let client = try await live.connected()
            client.start(id: "ids-1", query: "subscription { onCreatePost { id } }")
            client.start(id: "titles", query: "subscription { onCreatePost { id title } }")
            client.start(id: "ids-2", query: "subscription { onCreatePost { id } }")
            client.start(
                id: "rated", query: "subscription($f: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $f) { id rating } }",
                variables: ["f": ["rating": ["ge": 4]]])
            for _ in 0..<4 { _ = try await client.next("start_ack") }

            func dataOf(_ count: Int) async throws -> [String: JSONValue] {
                var byID: [String: JSONValue] = [:]
                for _ in 0..<count {
                    let message = try await client.next("data")
                    #expect(byID[message["id"].stringValue ?? ""] == nil, "two messages for one subscription: \(message)")
                    byID[message["id"].stringValue ?? ""] = message["payload"]["data"]["onCreatePost"]
                }
                return byID
            }
            _ = try await live.mutate(Self.createPost, ["i": ["id": "low", "blogID": "b1", "title": "Low", "rating": 1]])
            #expect(try await dataOf(3) == ["ids-1": ["id": "low"], "ids-2": ["id": "low"], "titles": ["id": "low", "title": "Low"]])
            _ = try await live.mutate(Self.createPost, ["i": ["id": "high", "blogID": "b1", "title": "High", "rating": 5]])
            #expect(
                try await dataOf(4) == [
                    "ids-1": ["id": "high"], "ids-2": ["id": "high"], "titles": ["id": "high", "title": "High"],
                    "rated": ["id": "high", "rating": 5],
                ])

            client.send(["type": "stop", "id": "ids-1"])
            _ = try await client.next("complete")
            _ = try await live.mutate(Self.createPost, ["i": ["id": "after", "blogID": "b1", "title": "After", "rating": 4]])
            #expect(
                try await dataOf(3) == [
                    "ids-2": ["id": "after"], "titles": ["id": "after", "title": "After"], "rated": ["id": "after", "rating": 4],
                ])
            // No fourth message for that event: what comes next is the new subscription's `start_ack`.
            client.start(id: "late", query: Self.onCreatePost)
            #expect(try await client.next("start_ack")["id"] == "late")
            _ = await client.close()
        }
    }

    /// A subscription the schema declares itself, with an argument that filters events.
    @Test func aDeclaredSubscriptionFiresForItsMutationsFilteredByItsArguments() async throws {
        let schema = try String(contentsOfFile: ExampleSchema.blogFile, encoding: .utf8) + """

            type Subscription {
              onBlogPost(blogID: ID): Post @aws_subscribe(mutations: ["createPost", "updatePost"])
            }
            """
        let project = AmplifyProject(schema: try AmplifySchema.parse(source: schema, file: "schema.graphql"), schemaFiles: [])
        let server = try await TestServer(project: project).server
        let running = try await server.start()
        let live = Live(running: running, server: server)
        let client = try await live.connected()
        client.start(id: "b1", query: "subscription { onBlogPost(blogID: \"b1\") { id blogID title body } }")
        _ = try await client.next("start_ack")
        // Arguments match fields the mutation selected (blogID); body was not selected: null.
        let create = "mutation($i: CreatePostInput!) { createPost(input: $i) { id blogID title _version } }"
        _ = try await live.mutate(create, ["i": ["id": "other", "blogID": "b2", "title": "Elsewhere"]])
        _ = try await live.mutate(create, ["i": ["id": "mine", "blogID": "b1", "title": "Here"]])
        _ = try await live.mutate(
            "mutation { updatePost(input: {id: \"mine\", title: \"Edited\", _version: 1}) { id blogID title _version } }")
        let created = try await client.next("data")
        #expect(created["payload"] == ["data": ["onBlogPost": ["id": "mine", "blogID": "b1", "title": "Here", "body": nil]]], "\(created)")
        let updated = try await client.next("data")
        #expect(updated["payload"] == ["data": ["onBlogPost": ["id": "mine", "blogID": "b1", "title": "Edited", "body": nil]]], "\(updated)")
        _ = await client.close()
        await running.stop()
    }

    @Test func startErrorsCarryTheSubscriptionID() async throws {
        try await Self.withServer(configure: { $0.realtime.maxSubscriptionsPerConnection = 2 }) { live in
            let client = try await live.connected()

            client.start(id: "bad-key", query: Self.onCreatePost, apiKey: "da2-wrong")
            var error = try await client.next("error")
            #expect(error["id"] == "bad-key")
            #expect(error["payload"]["errors"][0]["errorType"] == "UnauthorizedException")

            client.start(id: "invalid", query: "subscription { onCreatePost { nope } }")
            error = try await client.next("error")
            #expect(error["id"] == "invalid")
            #expect(error["payload"]["errors"][0]["message"].stringValue?.contains("FieldUndefined") == true)

            let tooMany: JSONValue = ["and": [
                ["id": ["eq": "1"]], ["title": ["eq": "t"]], ["body": ["eq": "b"]], ["rating": ["eq": 1]],
                ["views": ["eq": 1.5]], ["status": ["eq": "DRAFT"]],
            ]]
            client.start(
                id: "limits", query: "subscription($f: ModelSubscriptionPostFilterInput) { onCreatePost(filter: $f) { id } }",
                variables: ["f": tooMany])
            error = try await client.next("error")
            #expect(error["id"] == "limits")
            #expect(error["payload"]["errors"][0]["errorType"] == "FilterValidationError")

            client.start(id: "1", query: Self.onCreatePost)
            _ = try await client.next("start_ack")
            client.start(id: "1", query: Self.onCreatePost)
            error = try await client.next("error")
            #expect(error["id"] == "1")
            #expect(error["payload"]["errors"][0]["errorType"] == "DuplicatedOperationError")

            client.start(id: "2", query: Self.onCreatePost)
            _ = try await client.next("start_ack")
            client.start(id: "3", query: Self.onCreatePost)
            error = try await client.next("error")
            #expect(error["id"] == "3")
            #expect(error["payload"]["errors"][0] == ["errorType": "MaxSubscriptionsReachedError", "message": "Max number of 2 subscriptions reached"])
            _ = await client.close()
        }
    }

    @Test func unknownTypesAndGarbageGetAnErrorWithoutID() async throws {
        try await Self.withServer { live in
            let client = try await live.connected()
            client.send(["type": "subscribe", "id": "1", "payload": [:]])
            var error = try await client.next("error")
            #expect(error == ["type": "error", "payload": ["errors": [["errorType": "UnsupportedOperation", "message": "subscribe not supported through the realtime channel"]]]])
            client.sendRaw("{not json")
            error = try await client.next("error")
            #expect(error["id"] == nil)
            #expect(error["payload"]["errors"][0]["errorType"] == "MalformedMessage")
            _ = await client.close()
        }
    }

    @Test func keepAliveArrivesAtTheConfiguredInterval() async throws {
        try await Self.withServer(configure: { $0.realtime.keepAliveInterval = .milliseconds(50) }) { live in
            let client = try await live.connected()
            for _ in 0..<3 { #expect(try await client.next(timeout: .seconds(5)) == ["type": "ka"]) }
            _ = await client.close()
        }
    }

    /// The lifetime counts from the handshake, acknowledged or not: no `connection_init` here,
    /// so a loaded machine cannot make the test race its acknowledgement against the 200 ms.
    @Test func connectionsAreClosedAtTheirLifetime() async throws {
        try await Self.withServer(configure: { $0.realtime.maxConnectionDuration = .milliseconds(200) }) { live in
            let close = try await live.client().closed()
            #expect(close?.closeCode == .normalClosure)
        }
    }

    /// A subscriber that stops reading is disconnected once its queue is full; mutations and
    /// the other subscriber carry on. Tagged `.timing` (its time limit is what fails a server
    /// that keeps the stalled connection): 150 events of 200 KB, run apart from the parallel run.
    @Test(.timeLimit(.minutes(1)), .tags(.timing)) func aSlowSubscriberIsDisconnectedWithoutSlowingOthers() async throws {
        try await Self.withServer(configure: { $0.realtime.outboundQueueLimit = 4 }) { live in
            let query = "subscription { onCreatePost { id body } }"
            let fast = try await live.connected()
            fast.start(id: "fast", query: query)
            _ = try await fast.next("start_ack")
            let stalled = try await StalledSubscriber.connect(port: live.running.port, apiKey: TestServer.apiKey, query: query)

            // 150 events of 200 KB: far more than the socket buffers and the 4-message queue hold.
            let body = String(repeating: "x", count: 200_000)
            for n in 0..<150 {
                let reply = try await live.mutate(
                    "mutation($i: CreatePostInput!) { createPost(input: $i) { id body } }",
                    ["i": ["id": .string("p\(n)"), "blogID": "b1", "title": "t", "body": .string(body)]])
                #expect(reply["errors"] == .null)
                let event = try await fast.next("data")
                #expect(event["payload"]["data"]["onCreatePost"]["id"] == .string("p\(n)"))
            }
            // Had the server kept the stalled connection, this would wait for ever (the test's
            // time limit ends it): reading again drains what was sent, then the closed stream.
            try await stalled.resumeUntilClosed()
            _ = await fast.close()
        }
    }
}
