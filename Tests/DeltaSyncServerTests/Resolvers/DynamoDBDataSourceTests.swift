import DeltaSyncCore
import DeltaSyncSchema
@testable import DeltaSyncServer
import Testing

/// The DynamoDB data source on DeltaSync's store, driven by raw request objects: a resolver whose
/// request template is the field's argument hands each request to the data source as written,
/// and answers the result (or raises the error with `$ctx.result` as its data). What each
/// operation stores, returns and refuses, with DynamoDB's expression rules.
@Suite struct DynamoDBDataSourceTests {
    static let schema = """
        type Post @model {
          id: ID!
          title: String!
          status: String @index(name: "byStatus", sortKeyFields: ["rating"])
          rating: Int
          tags: [String]
          views: Int
        }
        type Query { ddb(request: AWSJSON!): AWSJSON }
        """

    /// A client that sends DynamoDB requests through `Query.ddb`.
    struct Table {
        let client: TestServer.Client

        /// The result, or the error (type, message, data) as an object with `error`.
        func send(_ request: JSONValue) async throws -> JSONValue {
            let reply = try await client.graphQL(
                "query($r: AWSJSON!) { ddb(request: $r) }", ["r": .string(request.merging(["version": "2018-05-29"]).jsonText)])
            if let error = reply.errors.first {
                return ["error": error["errorType"], "message": error["message"], "data": error["data"]]
            }
            return try JSONValue(parsing: reply.data["ddb"].stringValue ?? "null")
        }

        func put(_ item: JSONValue, condition: JSONValue = .null) async throws -> JSONValue {
            var key: Item = ["id": DynamoDBJSON.typed(item["id"])]
            key = key.filter { !$0.value.isNull }
            return try await send(["operation": "PutItem", "key": .object(key), "attributeValues": DynamoDBJSON.typedMap(item), "condition": condition])
        }
    }

    static func withTable(
        conflictDetection: Bool = true, configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (Table) async throws -> Void
    ) async throws {
        var schema = try AmplifySchema.parse(source: Self.schema, file: "schema.graphql")
        if !conflictDetection { schema = schema.servingConflictDetection(.none) }
        let server = try await TestServer(project: AmplifyProject(schema: schema, schemaFiles: [])) { configuration in
            configuration.conflictHandler = .optimisticConcurrency
            configuration.dataSources = [DataSourceDefinition(name: "Posts", kind: .dynamoDB(table: "Post-abc123-dev"))]
            configuration.resolvers = [ResolverDefinition(
                type: "Query", field: "ddb",
                kind: .unit(
                    dataSource: "Posts", request: "$ctx.args.request",
                    response: "#if($ctx.error)$util.error($ctx.error.message, $ctx.error.type, $ctx.result)#end$util.toJson($util.toJson($ctx.result))"))]
            configure(&configuration)
        }
        try await server.withClient { client in try await body(Table(client: client)) }
    }

    @Test func writesAreVersionedLoggedAndReadBack() async throws {
        try await Self.withTable { table in
            let created = try await table.put(["id": "p1", "title": "Hello", "rating": 3, "tags": ["a"]])
            #expect(created["_version"] == 1)
            #expect(created["_lastChangedAt"].intValue != nil)
            #expect(try await table.send(["operation": "GetItem", "key": ["id": ["S": "p1"]]])["title"] == "Hello")
            let updated = try await table.send([
                "operation": "UpdateItem", "key": ["id": ["S": "p1"]], "_version": 1,
                "update": [
                    "expression": "SET #r = #r + :one, views = if_not_exists(views, :zero), tags = list_append(tags, :more) REMOVE title ADD extra :five",
                    "expressionNames": ["#r": "rating"],
                    "expressionValues": [":one": ["N": "1"], ":zero": ["N": 0], ":more": ["L": [["S": "b"]]], ":five": ["N": "5"]],
                ],
            ])
            #expect(updated["rating"] == 4)
            #expect(updated["views"] == 0)
            #expect(updated["tags"] == ["a", "b"])
            #expect(updated["title"] == .null)
            #expect(updated["extra"] == 5)
            #expect(updated["_version"] == 2)
            let deleted = try await table.send(["operation": "DeleteItem", "key": ["id": ["S": "p1"]], "_version": 2])
            #expect(deleted["_deleted"] == true)
            #expect(deleted["_version"] == 3)
            // A versioned table keeps the tombstone; its delta log has every change.
            #expect(try await table.send(["operation": "GetItem", "key": ["id": ["S": "p1"]]])["_deleted"] == true)
            let sync = try await table.client.graphQL("{ syncPosts { items { id _version _deleted } } }")
            #expect(sync.data["syncPosts"]["items"] == [["id": "p1", "_version": 3, "_deleted": true]])
        }
    }

    @Test func conditionsAndVersionsDecideWrites() async throws {
        try await Self.withTable { table in
            _ = try await table.put(["id": "p1", "title": "Hello", "rating": 3, "tags": ["a", "b"], "status": "open"])
            let absent = ["expression": "attribute_not_exists(id)"] as JSONValue
            let taken = try await table.put(["id": "p1", "title": "Again"], condition: absent)
            #expect(taken["error"] == "ConditionalCheckFailedException")
            #expect(taken["message"] == "The conditional request failed (Service: DynamoDb, Status Code: 400, Request ID: null)")
            // The same item again with attributes the condition ignores is a success.
            let same = try await table.put(
                ["id": "p1", "title": "Hello", "rating": 3, "tags": ["a", "b"], "status": "open"],
                condition: ["expression": "attribute_not_exists(id)", "equalsIgnore": ["rating"]])
            #expect(same["_version"] == 1)
            func update(_ expression: String, _ values: JSONValue = [:], version: Int = 1) async throws -> JSONValue {
                try await table.send([
                    "operation": "UpdateItem", "key": ["id": ["S": "p1"]], "_version": .int(version),
                    "update": ["expression": "SET title = :t", "expressionValues": [":t": ["S": "changed"]]],
                    "condition": ["expression": .string(expression), "expressionValues": values],
                ])
            }
            // Precedence: NOT before AND before OR; functions, size, BETWEEN and IN.
            #expect(try await update("rating = :x OR begins_with(title, :h) AND NOT contains(tags, :c)", [":x": ["N": "9"], ":h": ["S": "He"], ":c": ["S": "z"]])["title"] == "changed")
            #expect(try await update("size(tags) = :two AND rating BETWEEN :lo AND :hi AND status IN (:a, :b)",
                                      [":two": ["N": "2"], ":lo": ["N": "1"], ":hi": ["N": "3"], ":a": ["S": "x"], ":b": ["S": "open"]], version: 2)["_version"] == 3)
            let failed = try await update("rating > :x", [":x": ["N": "5"]], version: 3)
            #expect(failed["error"] == "ConditionalCheckFailedException")
            #expect(failed["data"]["_version"] == 3, "the stored item comes with the failure")
            let stale = try await update("attribute_exists(id)", version: 1)
            #expect(stale["error"] == "ConflictUnhandled")
            #expect(stale["message"] == "Conflict resolver rejects mutation.")
        }
    }

    @Test func queriesReadAnIndexInPages() async throws {
        try await Self.withTable { table in
            for index in 1...6 {
                _ = try await table.put(["id": .string("p\(index)"), "title": .string("t\(index)"), "status": index <= 5 ? "open" : "done", "rating": .int(index)])
            }
            func query(_ extra: JSONValue) async throws -> JSONValue {
                try await table.send(JSONValue.object([
                    "operation": "Query", "index": "byStatus",
                    "query": ["expression": "#s = :s AND rating BETWEEN :lo AND :hi", "expressionNames": ["#s": "status"],
                              "expressionValues": [":s": ["S": "open"], ":lo": ["N": "2"], ":hi": ["N": "5"]]],
                ]).merging(extra))
            }
            let all = try await query([:])
            #expect(all["items"].arrayValue?.map { $0["id"] } == ["p2", "p3", "p4", "p5"])
            #expect(all["scannedCount"] == 4)
            let backwards = try await query(["scanIndexForward": false, "projection": ["expression": "id, rating"]])
            #expect(backwards["items"][0] == ["id": "p5", "rating": 5])
            // The limit counts what was read, before the filter.
            let first = try await query(["limit": 2, "filter": ["expression": "rating <> :three", "expressionValues": [":three": ["N": "3"]]]])
            #expect(first["items"].arrayValue?.map { $0["id"] } == ["p2"])
            let token = try #require(first["nextToken"].stringValue)
            let second = try await query(["limit": 2, "nextToken": .string(token)])
            #expect(second["items"].arrayValue?.map { $0["id"] } == ["p4", "p5"])
            let unsupported = try await table.send([
                "operation": "Query", "query": ["expression": "id = :a OR id = :b", "expressionValues": [":a": ["S": "p1"], ":b": ["S": "p2"]]],
            ])
            #expect(unsupported["error"] == "DynamoDB:DynamoDbException")
            // A scan in segments reads every item once.
            var seen: [JSONValue] = []
            for segment in 0..<3 {
                let page = try await table.send(["operation": "Scan", "totalSegments": 3, "segment": .int(segment)])
                seen += page["items"].arrayValue?.map { $0["id"] } ?? []
            }
            #expect(seen.count == 6 && Set(seen.compactMap(\.stringValue)).count == 6)
        }
    }

    @Test func batchesAndTransactions() async throws {
        try await Self.withTable { table in
            let put = try await table.send([
                "operation": "BatchPutItem",
                "tables": ["Post": [["id": ["S": "b1"], "title": ["S": "one"]], ["id": ["S": "b2"], "title": ["S": "two"]]]],
            ])
            #expect(put["data"]["Post"].arrayValue?.map { $0["_version"] } == [1, 1])
            let got = try await table.send([
                "operation": "BatchGetItem", "tables": ["Post": ["keys": [["id": ["S": "b2"]], ["id": ["S": "nope"]], ["id": ["S": "b1"]]]]],
            ])
            #expect(got["data"]["Post"].arrayValue?.map { $0["title"] } == ["two", .null, "one"])
            // One failed condition cancels the whole transaction, with a reason per item.
            let cancelled = try await table.send([
                "operation": "TransactWriteItems",
                "transactItems": [
                    ["table": "Post", "operation": "PutItem", "key": ["id": ["S": "b3"]], "attributeValues": ["title": ["S": "three"]]],
                    ["table": "Post", "operation": "ConditionCheck", "key": ["id": ["S": "b1"]],
                     "condition": ["expression": "title = :x", "expressionValues": [":x": ["S": "not one"]]]],
                ],
            ])
            #expect(cancelled["error"] == "DynamoDB:TransactionCanceledException")
            #expect(cancelled["data"]["cancellationReasons"].arrayValue?.map { $0["type"] } == ["None", "ConditionalCheckFailed"])
            #expect(try await table.send(["operation": "GetItem", "key": ["id": ["S": "b3"]]]) == .null, "nothing was written")
            let written = try await table.send([
                "operation": "TransactWriteItems",
                "transactItems": [
                    ["table": "Post", "operation": "PutItem", "key": ["id": ["S": "b3"]], "attributeValues": ["title": ["S": "three"]]],
                    ["table": "Post", "operation": "DeleteItem", "key": ["id": ["S": "b2"]]],
                ],
            ])
            #expect(written["keys"] == [["id": "b3"], ["id": "b2"]])
            let twice = try await table.send([
                "operation": "TransactWriteItems",
                "transactItems": [
                    ["table": "Post", "operation": "DeleteItem", "key": ["id": ["S": "b1"]]],
                    ["table": "Post", "operation": "DeleteItem", "key": ["id": ["S": "b1"]]],
                ],
            ])
            #expect(twice["message"].stringValue?.hasPrefix("Transaction request cannot include multiple operations on one item (Service: DynamoDb") == true)
        }
    }

    @Test func syncReadsAsTheGeneratedSyncQuery() async throws {
        try await Self.withTable { table in
            for index in 1...5 { _ = try await table.put(["id": .string("s\(index)"), "title": "t"]) }
            _ = try await table.send(["operation": "DeleteItem", "key": ["id": ["S": "s2"]], "_version": 1])
            func native(_ lastSync: Int?) async throws -> [JSONValue] {
                let reply = try await table.client.graphQL(
                    "query($t: AWSTimestamp) { syncPosts(lastSync: $t) { items { id _version _deleted } } }", ["t": lastSync.map(JSONValue.int) ?? .null])
                return reply.data["syncPosts"]["items"].arrayValue ?? []
            }
            func viaTemplate(_ request: JSONValue) async throws -> (items: [JSONValue], page: JSONValue) {
                var items: [JSONValue] = []
                var page = try await table.send(request)
                items += page["items"].arrayValue ?? []
                while let token = page["nextToken"].stringValue {
                    let next = try await table.send(request.merging(["nextToken": .string(token)]))
                    #expect(next["startedAt"] == page["startedAt"], "startedAt holds through the pages")
                    page = next
                    items += page["items"].arrayValue ?? []
                }
                let shown = items.map { item -> JSONValue in ["id": item["id"], "_version": item["_version"], "_deleted": item["_deleted"]] }
                return (shown, page)
            }
            let base = try await viaTemplate(["operation": "Sync", "limit": 2])
            #expect(Set(base.items.map(\.jsonText)) == Set(try await native(nil).map(\.jsonText)))
            #expect(base.items.count == 5)
            let startedAt = try #require(base.page["startedAt"].intValue)
            _ = try await table.put(["id": "s6", "title": "later"])
            let delta = try await viaTemplate(["operation": "Sync", "lastSync": .int(startedAt)])
            #expect(delta.items == [["id": "s6", "_version": 1, "_deleted": .null]])
            #expect(delta.items == (try await native(startedAt)))
        }
    }

    @Test func badRequestsGetDynamoDBsErrors() async throws {
        try await Self.withTable { table in
            let cases: [(JSONValue, String)] = [
                (["operation": "Truncate"], "Unsupported operation 'Truncate'"),
                (["operation": "GetItem", "key": ["id": ["X": "1"]]], "Unknown DynamoDB type \"X\""),
                (["operation": "GetItem", "key": ["title": ["S": "1"]]], "The provided key element does not match the schema"),
                (["operation": "UpdateItem", "key": ["id": ["S": "1"]], "update": ["expression": "SET id = :v", "expressionValues": [":v": ["S": "2"]]]],
                 "Cannot update attribute id"),
                (["operation": "UpdateItem", "key": ["id": ["S": "1"]], "update": ["expression": "SET title = :missing"]],
                 "An expression attribute value used in expression is not defined; attribute value: :missing"),
                (["operation": "Scan", "filter": ["expression": "title = = :x"]], "Invalid FilterExpression: Syntax error; token: \"=\""),
                (["operation": "PutItem", "key": ["id": ["S": "1"]], "attributeValues": [:], "condition": ["expression": "#nope = :x"]],
                 "An expression attribute name used in the document path is not defined"),
                (["operation": "BatchGetItem", "tables": ["Nothing": ["keys": [["id": ["S": "1"]]]]]], "Table: Nothing not found"),
                (["operation": "Scan", "filter": ["expression": "title = :a", "expressionValues": [":a": ["S": "x"], ":b": ["S": "y"]]]],
                 "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"),
            ]
            for (request, message) in cases {
                let answer = try await table.send(request)
                #expect(answer["error"].stringValue?.hasPrefix("DynamoDB:") == true, "\(request.jsonText)")
                #expect(answer["message"].stringValue?.contains(message) == true, "\(request.jsonText): \(answer.jsonText)")
            }
        }
    }

    @Test func withoutConflictDetectionADeletedItemIsGone() async throws {
        try await Self.withTable(conflictDetection: false) { table in
            _ = try await table.put(["id": "p1", "title": "Hello"])
            let deleted = try await table.send(["operation": "DeleteItem", "key": ["id": ["S": "p1"]]])
            #expect(deleted["title"] == "Hello", "the item as it was")
            #expect(try await table.send(["operation": "GetItem", "key": ["id": ["S": "p1"]]]) == .null)
            #expect(try await table.send(["operation": "Scan"])["items"] == [])
            let again = try await table.put(["id": "p1", "title": "Back"], condition: ["expression": "attribute_not_exists(id)"])
            #expect(again["title"] == "Back")
            #expect(again["_version"] == 3, "versions keep counting from the hidden tombstone")
            let missing = try await table.send([
                "operation": "DeleteItem", "key": ["id": ["S": "p9"]], "condition": ["expression": "attribute_exists(id)"],
            ])
            #expect(missing["error"] == "DynamoDB:ConditionalCheckFailedException")
        }
    }
}

/// Typed DynamoDB JSON for the tests' plain values.
enum DynamoDBJSON {
    static func typed(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .string: return ["S": value]
        case .int(let number): return ["N": .string(String(number))]
        case .double(let number): return ["N": .string(String(number))]
        case .bool: return ["BOOL": value]
        case .array(let elements): return ["L": .array(elements.map(typed))]
        case .object(let map): return ["M": typedMap(.object(map))]
        }
    }

    static func typedMap(_ value: JSONValue) -> JSONValue {
        .object((value.objectValue ?? [:]).mapValues(typed))
    }
}

extension JSONValue {
    /// An object with `other`'s members on top.
    func merging(_ other: JSONValue) -> JSONValue {
        .object((objectValue ?? [:]).merging(other.objectValue ?? [:]) { _, new in new })
    }
}
