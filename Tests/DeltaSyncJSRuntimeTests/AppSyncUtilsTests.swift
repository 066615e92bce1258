import DeltaSyncCore
import DeltaSyncFunctions
@testable import DeltaSyncJSRuntime
import Foundation
import Logging
import Testing

/// DeltaSync's `@aws-appsync/utils` in a real `node` worker, against the outputs AppSync's
/// documentation gives for its utilities (the examples of the util, time, DynamoDB and
/// transformation helper pages), at a fixed clock.
@Suite struct AppSyncUtilsTests {
    /// 2023-11-14T22:13:20Z.
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// The value `response(ctx)` of `body` (statements ending in a return) gives.
    static func value(of body: String, imports: String = "") async throws -> JSONValue {
        try await JSWorkerHarness.with { runtime in
            let code = try JSCode(name: "utils.js", text: """
                import { util, runtime, extensions } from '@aws-appsync/utils';
                \(imports)
                export function request(ctx) { return {}; }
                export function response(ctx) {
                \(body)
                }
                """)
            let evaluation = try await runtime.evaluate(.response, of: code, context: ["arguments": [:], "stash": [:], "result": .null], now: now, authType: "API Key Authorization")
            guard case .value(let value) = evaluation.outcome else { throw JSWorkerHarness.Unexpected(evaluation) }
            return value
        }
    }

    @Test func timeHelpersGiveTheDocumentedValues() async throws {
        let values = try await Self.value(of: """
            return {
              iso: util.time.nowISO8601(),
              seconds: util.time.nowEpochSeconds(),
              milliseconds: util.time.nowEpochMilliSeconds(),
              formatted: util.time.nowFormatted('yyyy-MM-dd HH:mm:ss'),
              newYork: util.time.nowFormatted('yyyy-MM-dd HH:mm:ssZ', 'America/New_York'),
              offset: util.time.nowFormatted('yyyy-MM-dd HH:mm:ssXXX', '-08:00'),
              parsed: util.time.parseFormattedToEpochMilliSeconds('2018-02-02 01:19:22+0000', 'yyyy-MM-dd HH:mm:ssZ'),
              parsedInZone: util.time.parseFormattedToEpochMilliSeconds('2018-02-01 17:19:22', 'yyyy-MM-dd HH:mm:ss', '-08:00'),
              iso8601: util.time.parseISO8601ToEpochMilliSeconds('2018-02-01T17:21:05.180+08:00'),
              toSeconds: util.time.epochMilliSecondsToSeconds(1517943695750),
              toISO: util.time.epochMilliSecondsToISO8601(1517943695750),
              toFormatted: util.time.epochMilliSecondsToFormatted(1517943695750, 'yyyy-MM-dd HH:mm:ssZ'),
              names: util.time.epochMilliSecondsToFormatted(1517943695750, "EEEE, d MMMM yyyy 'at' h:mm a"),
            };
            """)
        #expect(values["iso"] == "2023-11-14T22:13:20.000Z")
        #expect(values["seconds"] == 1_700_000_000)
        #expect(values["milliseconds"] == 1_700_000_000_000)
        #expect(values["formatted"] == "2023-11-14 22:13:20")
        #expect(values["newYork"] == "2023-11-14 17:13:20-0500")
        #expect(values["offset"] == "2023-11-14 14:13:20-08:00")
        #expect(values["parsed"] == 1_517_534_362_000)
        #expect(values["parsedInZone"] == 1_517_534_362_000)
        #expect(values["iso8601"] == 1_517_476_865_180)
        #expect(values["toSeconds"] == 1_517_943_695)
        #expect(values["toISO"] == "2018-02-06T19:01:35.750Z")
        #expect(values["toFormatted"] == "2018-02-06 19:01:35+0000")
        #expect(values["names"] == "Tuesday, 6 February 2018 at 7:01 PM")
    }

    @Test func dynamodbHelpersGiveTypedValues() async throws {
        let values = try await Self.value(of: """
            return {
              string: util.dynamodb.toDynamoDB('foo'),
              number: util.dynamodb.toDynamoDB(12345),
              boolean: util.dynamodb.toDynamoDB(true),
              list: util.dynamodb.toDynamoDB(['foo', 123, { bar: 'baz' }]),
              map: util.dynamodb.toMapValues({ foo: 'bar', baz: 1234, beep: ['boop'] }),
              stringSet: util.dynamodb.toStringSet(['foo', 'bar', 'baz', 'foo']),
              numberSet: util.dynamodb.toNumberSet([1, 23, 4.56]),
              nothing: util.dynamodb.toNull(),
              s3: util.dynamodb.toS3Object('foo', 'bar', 'baz'),
              s3Back: util.dynamodb.fromS3ObjectJson('{ "s3" : { "key" : "foo", "bucket" : "bar", "region" : "baz" } }'),
            };
            """)
        #expect(values["string"] == ["S": "foo"])
        #expect(values["number"] == ["N": 12345])
        #expect(values["boolean"] == ["BOOL": true])
        #expect(values["list"] == ["L": [["S": "foo"], ["N": 123], ["M": ["bar": ["S": "baz"]]]]])
        #expect(values["map"] == ["foo": ["S": "bar"], "baz": ["N": 1234], "beep": ["L": [["S": "boop"]]]])
        #expect(values["stringSet"] == ["SS": ["foo", "bar", "baz"]])
        #expect(values["numberSet"] == ["NS": [1, 23, 4.56]])
        #expect(values["nothing"] == ["NULL": .null])
        #expect(values["s3"] == ["S": #"{"s3":{"key":"foo","bucket":"bar","region":"baz"}}"#])
        #expect(values["s3Back"] == ["key": "foo", "bucket": "bar", "region": "baz"])
    }

    @Test func transformHelpersGiveExpressionText() async throws {
        let values = try await Self.value(of: """
            return {
              filter: JSON.parse(util.transform.toDynamoDBFilterExpression({ title: { contains: 'Hello World' } })),
              condition: JSON.parse(util.transform.toDynamoDBConditionExpression({
                or: [{ done: { eq: true } }, { priority: { between: [1, 3] } }], not: { owner: { attributeExists: false } },
              })),
            };
            """)
        #expect(values["filter"] == [
            "expression": "contains(#title, :title_contains)",
            "expressionNames": ["#title": "title"],
            "expressionValues": [":title_contains": ["S": "Hello World"]],
        ])
        #expect(values["condition"]["expression"] == "(#done = :or_0_done_eq OR #priority BETWEEN :or_1_priority_between_1 AND :or_1_priority_between_2) AND NOT (attribute_not_exists(#owner))")
        #expect(values["condition"]["expressionValues"] == [
            ":or_0_done_eq": ["BOOL": true], ":or_1_priority_between_1": ["N": 1], ":or_1_priority_between_2": ["N": 3],
        ])
    }

    @Test func encodingsIdentifiersStringsAndNumbers() async throws {
        let values = try await Self.value(of: #"""
            return {
              urlEncoded: util.urlEncode('hello world/?&=é'),
              urlDecoded: util.urlDecode('hello+world%2F%3F'),
              base64: util.base64Encode('hello'),
              unbase64: util.base64Decode('aGVsbG8='),
              escaped: util.escapeJavaScript('a"b\'c\n/é'),
              matches: [util.matches('a.*', 'abc'), util.matches('b', 'abc')],
              authType: util.authType(),
              id: util.autoId(),
              ulid: util.autoUlid(),
              ksuid: util.autoKsuid(),
              upper: util.str.toUpper('hello'),
              replaced: util.str.toReplace('hello world world', 'world', 'there'),
              normalized: util.str.normalize('A\u030A', 'nfc') === '\u00C5',
              rounded: [util.math.roundNum(1.5), util.math.roundNum(-1.5)],
              bounds: [util.math.minVal(1, 2.5), util.math.maxVal(1, 2.5)],
              random: util.math.randomWithinRange(1, 3),
            };
            """#)
        #expect(values["urlEncoded"] == "hello+world%2F%3F%26%3D%C3%A9")
        #expect(values["urlDecoded"] == "hello world/?")
        #expect(values["base64"] == "aGVsbG8=")
        #expect(values["unbase64"] == "hello")
        #expect(values["escaped"] == #"a\"b\'c\n\/\u00E9"#)
        #expect(values["matches"] == [true, false])
        #expect(values["authType"] == "API Key Authorization")
        #expect(values["id"].stringValue?.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil)
        // A ULID's first 10 characters are the clock's milliseconds.
        #expect(values["ulid"].stringValue?.prefix(10) == "01HF7YAT00")
        #expect(values["ulid"].stringValue?.count == 26)
        #expect(values["ksuid"].stringValue?.count == 27)
        #expect(values["upper"] == "HELLO")
        #expect(values["replaced"] == "hello there there")
        #expect(values["normalized"] == true)
        #expect(values["rounded"] == [2, -1])
        #expect(values["bounds"] == [1, 2.5])
        #expect([1, 2, 3].contains(values["random"].intValue ?? 0))
    }

    @Test func dynamodbModuleBuildsRequests() async throws {
        let values = try await Self.value(of: """
            return {
              get: ddb.get({ key: { id: 'p1' } }),
              put: ddb.put({ key: { id: 'p1' }, item: { title: 'Hi', views: 0 }, condition: { id: { attributeExists: false } } }),
              remove: ddb.remove({ key: { id: 'p1' }, _version: 3 }),
              update: ddb.update({ key: { id: 'p1' }, update: { views: ddb.operations.increment(1), title: 'New', old: ddb.operations.remove() } }),
              query: ddb.query({ query: { owner: { eq: 'me' } }, filter: { done: { eq: false } }, limit: 10, index: 'byOwner' }),
              scan: ddb.scan({ limit: 5, nextToken: 'abc' }),
              sync: ddb.sync({ limit: 100, lastSync: 1700000000000 }),
            };
            """, imports: "import * as ddb from '@aws-appsync/utils/dynamodb';")
        #expect(values["get"] == ["operation": "GetItem", "key": ["id": ["S": "p1"]]])
        #expect(values["put"] == [
            "operation": "PutItem", "key": ["id": ["S": "p1"]], "attributeValues": ["title": ["S": "Hi"], "views": ["N": 0]],
            "condition": ["expression": "attribute_not_exists(#id)", "expressionNames": ["#id": "id"]],
        ])
        #expect(values["remove"] == ["operation": "DeleteItem", "key": ["id": ["S": "p1"]], "_version": 3])
        #expect(values["update"] == [
            "operation": "UpdateItem", "key": ["id": ["S": "p1"]],
            "update": [
                "expression": "SET #title = :title REMOVE #old ADD #views :views_increment",
                "expressionNames": ["#views": "views", "#title": "title", "#old": "old"],
                "expressionValues": [":views_increment": ["N": 1], ":title": ["S": "New"]],
            ],
        ])
        #expect(values["query"] == [
            "operation": "Query", "index": "byOwner", "limit": 10,
            "query": ["expression": "#owner = :owner_eq", "expressionNames": ["#owner": "owner"], "expressionValues": [":owner_eq": ["S": "me"]]],
            "filter": ["expression": "#done = :done_eq", "expressionNames": ["#done": "done"], "expressionValues": [":done_eq": ["BOOL": false]]],
        ])
        #expect(values["scan"] == ["operation": "Scan", "limit": 5, "nextToken": "abc"])
        #expect(values["sync"] == ["operation": "Sync", "limit": 100, "lastSync": 1_700_000_000_000])
    }
}
