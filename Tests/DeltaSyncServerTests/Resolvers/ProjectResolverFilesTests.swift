import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncResolverFiles
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// An Amplify Gen 1 API folder's resolver files served (Tests/e2e/fixtures/resolvers-app): a
/// `preAuth` slot that sets a default, a `postDataLoad` slot that filters a list, the delta
/// sync TTL slot, an override of a generated query's response, a custom query resolved by a
/// template then a Lambda function, an APPSYNC_JS query over the model's table, a custom mutation
/// whose write reaches subscribers with its version, and what the folder holds that does not run.
@Suite struct ProjectResolverFilesTests {
    static var apiFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("e2e/fixtures/resolvers-app/amplify/backend/api/todoapi").path
    }

    /// A server of the fixture's API with its resolver files (less `leaving` out, a file name
    /// prefix), and `summarize` as a Swift function.
    static func withServer(leaving: String? = nil, _ body: (DeltaSyncTestServer) async throws -> Void) async throws {
        let project = try AmplifyProject.load(projectDirectory: apiFolder)
        var files = try ProjectResolvers.load(apiDirectory: apiFolder, schema: project.schema)
        if let leaving { files.slots.removeAll { $0.request?.name.contains(leaving) == true || $0.response?.name.contains(leaving) == true } }
        try await DeltaSyncTestServer.withServer(project: project) { configuration in
            configuration.resolvers = files.resolvers
            configuration.dataSources = files.dataSources
            configuration.slots = files.slots
            configuration.overrides = files.overrides
            configuration.functions["summarize"] = ClosureFunction { invocation in
                let names = (invocation.event["todos"].arrayValue ?? []).compactMap { $0["name"].stringValue }.sorted()
                return ["count": .int(names.count), "names": .array(names.map(JSONValue.string)), "by": "swift"]
            }
        } _: { server in
            try await body(server)
        }
    }

    static let create = "mutation($i: CreateTodoInput!) { createTodo(input: $i) { id name priority done _version } }"

    @Test func theFolderSaysWhatItDoesNotRunFileByFile() throws {
        let project = try AmplifyProject.load(projectDirectory: Self.apiFolder)
        let files = try ProjectResolvers.load(apiDirectory: Self.apiFolder, schema: project.schema)
        #expect(files.slots.map { "\($0.type).\($0.field).\($0.slot.rawValue)" }.sorted()
            == ["Mutation.createTodo.preAuth", "Query.listTodos.postDataLoad", "Query.syncTodos.preAuth", "Subscription.onCreateTodo.preSubscribe"])
        #expect(files.overrides.map { "\($0.type).\($0.field)" } == ["Query.getTodo"])
        #expect(files.resolvers.map { "\($0.type).\($0.field)" }.sorted() == ["Mutation.quickTodo", "Mutation.renameTodo", "Query.searchTodos", "Query.todoCount", "Query.todoSummary"])
        let said = files.findings.map(\.description)
        #expect(said.contains { $0.hasPrefix("stacks/CustomResources.json#SearchDataSource: not run: a AMAZON_OPENSEARCH_SERVICE data source") })
        // The stack's own templates are the stack's, not unknown files; its IAM role needs no word.
        #expect(!said.contains { $0.contains("todoSummary.scan") || $0.contains("SummarizeRole") })
        #expect(files.findings.count == 1)
    }

    @Test func aPreAuthSlotSetsADefaultTheGeneratedCreateHonours() async throws {
        try await Self.withServer { server in
            let defaulted = try await server.graphQL(Self.create, variables: ["i": ["id": "t1", "name": "milk"]])
            #expect(defaulted["data"]["createTodo"] == ["id": "t1", "name": "milk", "priority": 3, "done": .null, "_version": 1])
            let given = try await server.graphQL(Self.create, variables: ["i": ["id": "t2", "name": "eggs", "priority": 5]])
            #expect(given["data"]["createTodo"]["priority"] == 5)
        }
    }

    @Test func aPostDataLoadSlotFiltersTheGeneratedList() async throws {
        try await Self.withServer { server in
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "t1", "name": "open"]])
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "t2", "name": "finished", "done": true]])
            let listed = try await server.graphQL("{ listTodos { items { id name done } nextToken } }")
            #expect(listed["errors"].isNull)
            #expect(listed["data"]["listTodos"]["items"] == [["id": "t1", "name": "open", "done": .null]])
        }
    }

    @Test func anOverriddenResponseTemplateAnswersTheGeneratedGet() async throws {
        try await Self.withServer { server in
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "t1", "name": "milk"]])
            let read = try await server.graphQL(#"{ getTodo(id: "t1") { id name _version } }"#)
            #expect(read["data"]["getTodo"] == ["id": "t1", "name": "milk (checked)", "_version": 1])
            let missing = try await server.graphQL(#"{ getTodo(id: "nope") { id } }"#)
            #expect(missing["data"]["getTodo"] == .null)
            #expect(missing["errors"].isNull)
        }
    }

    /// Without the slot a device 5 minutes behind gets the delta (what changed since); with
    /// the slot's 1-minute window it gets a base sync (everything).
    @Test func theDeltaSyncTTLSlotTurnsADeltaIntoABaseSync() async throws {
        for withSlot in [false, true] {
            try await Self.withServer(leaving: withSlot ? nil : "syncTodos") { server in
                let start = Date(timeIntervalSince1970: 1_900_000_000)
                server.fixture.clock.set(to: start)
                _ = try await server.graphQL(Self.create, variables: ["i": ["id": "old", "name": "before"]])
                server.fixture.clock.set(to: start.addingTimeInterval(600))
                _ = try await server.graphQL(Self.create, variables: ["i": ["id": "new", "name": "after"]])
                let lastSync = Int(start.addingTimeInterval(300).timeIntervalSince1970 * 1000)
                let page = try await server.graphQL(
                    "query($l: AWSTimestamp) { syncTodos(lastSync: $l) { items { id } startedAt } }", variables: ["l": .int(lastSync)])
                let ids = (page["data"]["syncTodos"]["items"].arrayValue ?? []).compactMap { $0["id"].stringValue }.sorted()
                #expect(ids == (withSlot ? ["new", "old"] : ["new"]), "with the slot: \(withSlot)")
            }
        }
    }

    /// `resolvers/Query.todoCount.js`, named by the stack's `CodeS3Location`: a scan of the
    /// DynamoDB module over the model's table, deleted todos' tombstones left out.
    @Test func anAppSyncJSResolverCountsTheModelsTable() async throws {
        try await Self.withServer { server in
            for (id, done) in [("a", false), ("b", true), ("c", false)] {
                _ = try await server.graphQL(Self.create, variables: ["i": ["id": .string(id), "name": "todo", "done": .bool(done)]])
            }
            _ = try await server.graphQL(#"mutation { deleteTodo(input: {id: "c", _version: 1}) { id } }"#)
            let all = try await server.graphQL("{ todoCount }")
            #expect(all["errors"].isNull)
            #expect(all["data"]["todoCount"] == 2)
            #expect(try await server.graphQL("{ todoCount(done: true) }")["data"]["todoCount"] == 1)
        }
    }

    @Test func aCustomQueryRunsATemplateThenALambdaFunction() async throws {
        try await Self.withServer { server in
            for (id, name) in [("a", "buy milk"), ("b", "call mum"), ("c", "buy eggs")] {
                _ = try await server.graphQL(Self.create, variables: ["i": ["id": .string(id), "name": .string(name)]])
            }
            let summary = try await server.graphQL(#"{ todoSummary(prefix: "buy") { count names by } }"#)
            #expect(summary["errors"].isNull)
            #expect(summary["data"]["todoSummary"] == ["count": 2, "names": ["buy eggs", "buy milk"], "by": "swift"])
        }
    }

    /// As on AppSync, a custom mutation's subscribers are those of the subscriptions that list
    /// it (`onQuickTodo`); DataStore devices, subscribed to `onCreateTodo`, get the write on
    /// their next delta sync, versioned like a generated create.
    @Test func aCustomMutationsWriteReachesSubscribersAndDevicesWithItsVersion() async throws {
        try await Self.withServer { server in
            let start = Date(timeIntervalSince1970: 1_900_000_000)
            server.fixture.clock.set(to: start)
            let realtime = server.realtimeClient()
            _ = try await realtime.initialize()
            realtime.start(id: "s1", query: "subscription { onQuickTodo { id name done _version } }", apiKey: server.apiKey)
            _ = try await realtime.next("start_ack")
            let base = try await server.graphQL("{ syncTodos { items { id } startedAt } }")
            let lastSync = try #require(base["data"]["syncTodos"]["startedAt"].intValue)
            server.fixture.clock.set(to: start.addingTimeInterval(10))
            let written = try await server.graphQL(#"mutation { quickTodo(name: "quick") { id name done _version } }"#)
            #expect(written["errors"].isNull)
            let id = try #require(written["data"]["quickTodo"]["id"].stringValue)
            #expect(written["data"]["quickTodo"] == ["id": .string(id), "name": "quick", "done": false, "_version": 1])
            let event = try await realtime.next("data")
            #expect(event["payload"]["data"]["onQuickTodo"] == ["id": .string(id), "name": "quick", "done": false, "_version": 1])
            _ = await realtime.close()
            let delta = try await server.graphQL(
                "query($l: AWSTimestamp) { syncTodos(lastSync: $l) { items { id name _version _deleted } } }", variables: ["l": .int(lastSync)])
            #expect(delta["data"]["syncTodos"]["items"] == [["id": .string(id), "name": "quick", "_version": 1, "_deleted": .null]])
        }
    }

    @Test func aResolverOverADataSourceThatDoesNotRunAnswersUnsupportedOperation() async throws {
        try await Self.withServer { server in
            let searched = try await server.graphQL(#"{ searchTodos(text: "milk") { id } }"#)
            #expect(searched["data"]["searchTodos"] == .null)
            #expect(searched["errors"][0]["errorType"] == "UnsupportedOperation")
            #expect(searched["errors"][0]["message"].stringValue?.contains("TodoSearch does not run on DeltaSync") == true)
        }
    }

    /// A subscription's slot runs when it starts: its `setSubscriptionFilter` keeps muted
    /// todos (priority 0) from the subscriber.
    @Test func aSubscriptionSlotsFilterNarrowsItsEvents() async throws {
        try await Self.withServer { server in
            let realtime = server.realtimeClient()
            _ = try await realtime.initialize()
            realtime.start(id: "s1", query: "subscription { onCreateTodo { id priority } }", apiKey: server.apiKey)
            _ = try await realtime.next("start_ack")
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "muted", "name": "quiet", "priority": 0]])
            _ = try await server.graphQL(Self.create, variables: ["i": ["id": "loud", "name": "loud", "priority": 2]])
            let event = try await realtime.next("data")
            #expect(event["payload"]["data"]["onCreateTodo"] == ["id": "loud", "priority": 2])
            _ = await realtime.close()
        }
    }

    /// What "debugging a template" starts from: the request log (and the console) shows each
    /// step of a project resolver, what it sent its data source and what it handed on.
    @Test func theRequestLogShowsEachStepsRequestAndOutput() async throws {
        try await Self.withServer { server in
            for (id, name) in [("a", "buy milk"), ("b", "call mum")] {
                _ = try await server.graphQL(Self.create, variables: ["i": ["id": .string(id), "name": .string(name), "done": .bool(id == "b")]])
            }
            _ = try await server.graphQL(#"{ todoSummary(prefix: "buy") { count } }"#)
            let pipeline = try #require(server.fixture.requests.recent(limit: 1).first).steps
            #expect(pipeline.map { $0["step"] } == ["before", "ScanTodos", "Summarize", "after"])
            #expect(pipeline.allSatisfy { $0["field"] == "Query.todoSummary" && $0["error"] == .null })
            #expect(pipeline[1]["request"]["operation"] == "Scan")
            #expect(pipeline[2]["request"]["payload"]["todos"].arrayValue?.count == 1)
            #expect(pipeline[3]["output"] == ["count": 1, "names": ["buy milk"], "by": "swift"])

            _ = try await server.graphQL("{ listTodos { items { id } } }")
            let slotted = try #require(server.fixture.requests.recent(limit: 1).first).steps
            #expect(slotted.map { $0["step"] } == ["QuerylistTodosDataResolverFn", "QuerylistTodospostDataLoad0Function"])
            #expect(slotted[0]["output"]["items"].arrayValue?.count == 2)
            #expect(slotted[1]["output"]["items"].arrayValue?.map { $0["id"] } == ["a"])

            _ = try await server.graphQL(#"{ searchTodos(text: "x") { id } }"#)
            let failed = try #require(server.fixture.requests.recent(limit: 1).first).steps
            #expect(failed.count == 1)
            #expect(failed[0]["error"].stringValue?.hasPrefix("UnsupportedOperation: ") == true)
        }
    }

    @Test func aBrokenStackStopsTheStartWithItsFileAndLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolver-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("stacks"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schema = try AmplifySchema.parse(source: "type Todo @model { id: ID! name: String }")
        try "{\n  \"Resources\": {\n    \"X\": {,\n  }\n}\n".write(to: folder.appendingPathComponent("stacks/CustomResources.json"), atomically: true, encoding: .utf8)
        #expect(throws: ResolverFileError.self) { try ProjectResolvers.load(apiDirectory: folder.path, schema: schema) }
        do {
            _ = try ProjectResolvers.load(apiDirectory: folder.path, schema: schema)
        } catch {
            #expect(error.description.hasPrefix("stacks/CustomResources.json:3: error: not valid JSON"))
        }
        let missing = #"{"Resources": {"R": {"Type": "AWS::AppSync::Resolver", "Properties": {"TypeName": "Query", "FieldName": "x", "DataSourceName": "NONE_DS", "RequestMappingTemplateS3Location": "s3://b/k/resolvers/Query.x.req.vtl"}}}}"#
        try missing.write(to: folder.appendingPathComponent("stacks/CustomResources.json"), atomically: true, encoding: .utf8)
        do {
            _ = try ProjectResolvers.load(apiDirectory: folder.path, schema: schema)
            Issue.record("a template location without a file loaded")
        } catch {
            #expect(error.description == "stacks/CustomResources.json#R: error: RequestMappingTemplateS3Location leads to resolvers/Query.x.req.vtl, which does not exist.")
        }
        try "Resources:\n  R:\n    Type: AWS::AppSync::DataSource\n    Properties:\n      Name: !Sub '${AppSyncApiName}Http'\n      Type: HTTP\n      HttpConfig: { Endpoint: !Join ['', ['https://', 'api.example.com']] }\n"
            .write(to: folder.appendingPathComponent("stacks/CustomResources.json"), atomically: true, encoding: .utf8)
        try FileManager.default.moveItem(at: folder.appendingPathComponent("stacks/CustomResources.json"), to: folder.appendingPathComponent("stacks/CustomResources.yaml"))
        let yaml = try ProjectResolvers.load(apiDirectory: folder.path, schema: schema)
        let http = try #require(yaml.dataSources.first { $0.name == "\(folder.lastPathComponent)Http" })
        guard case .http(let endpoint) = http.kind else { Issue.record("not an HTTP data source: \(http.kind)"); return }
        #expect(endpoint == "https://api.example.com")
    }

    @Test func aSlotTemplateThatDoesNotParseStopsTheStartWithItsFileLineAndColumn() async throws {
        let project = try AmplifyProject.load(projectDirectory: Self.apiFolder)
        var configuration = ServerConfiguration()
        configuration.storage = .inMemory
        configuration.slots = [SlotFunctionDefinition(
            type: "Query", field: "listTodos", slot: .preDataLoad, position: 1,
            request: TemplateText(name: "resolvers/Query.listTodos.preDataLoad.1.req.vtl", text: "{}\n#if($ctx.args"), response: nil)]
        do {
            _ = try DeltaSyncServer(project: project, configuration: configuration)
            Issue.record("a broken slot template started")
        } catch {
            #expect("\(error)".contains("resolvers/Query.listTodos.preDataLoad.1.req.vtl line 2, column 14"))
        }
        configuration.slots = [SlotFunctionDefinition(
            type: "Query", field: "listTodos", slot: .preUpdate, position: 1, request: nil, response: nil)]
        do {
            _ = try DeltaSyncServer(project: project, configuration: configuration)
            Issue.record("a slot the field does not have started")
        } catch {
            #expect("\(error)".contains("Query.listTodos has no preUpdate slot"))
        }
    }
}
