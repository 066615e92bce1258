import DeltaSyncCore
import DeltaSyncDynamoDB
import Testing

/// DynamoDB JSON to the plain values AppSync hands templates, and back as
/// `$util.dynamodb.toDynamoDB` writes them.
struct AttributeValueTests {
    @Test func typedValuesBecomePlain() throws {
        let typed: JSONValue = [
            "M": [
                "s": ["S": "x"], "n": ["N": "12"], "literal": ["N": 12], "half": ["N": "1.5"], "whole": ["N": "12.0"],
                "exp": ["N": "1e3"], "yes": ["BOOL": true], "nothing": ["NULL": true], "nil": ["NULL": nil],
                "list": ["L": [["S": "a"], ["N": "1"]]], "ss": ["SS": ["a", "b"]], "ns": ["NS": ["1", "2.5"]],
                "b": ["B": "aGk="], "bs": ["BS": ["aGk=", "aG8="]],
            ]
        ]
        let plain = try AttributeValue.plain(fromTyped: typed)
        #expect(
            plain == [
                "s": "x", "n": 12, "literal": 12, "half": 1.5, "whole": 12, "exp": 1000, "yes": true, "nothing": nil, "nil": nil,
                "list": ["a", 1], "ss": ["a", "b"], "ns": [1, 2.5], "b": "aGk=", "bs": ["aGk=", "aG8="],
            ])
        #expect(plain["n"] == .int(12) && plain["half"] == .double(1.5) && plain["whole"] == .int(12))
    }

    @Test func plainValuesBecomeTyped() {
        let plain: JSONValue = ["s": "x", "n": 3, "d": 2.5, "b": false, "z": nil, "l": ["a", 1], "m": ["k": "v"]]
        #expect(
            AttributeValue.typed(fromPlain: plain) == [
                "M": [
                    "s": ["S": "x"], "n": ["N": "3"], "d": ["N": "2.5"], "b": ["BOOL": false], "z": ["NULL": true],
                    "l": ["L": [["S": "a"], ["N": "1"]]], "m": ["M": ["k": ["S": "v"]]],
                ]
            ])
    }

    @Test func roundTripsKeepEveryValue() throws {
        let values: [JSONValue] = ["x", "", 0, -7, 1.25, true, nil, [], ["a", [1, ["b": nil]]], ["k": ["n": 1]], [:]]
        for value in values {
            #expect(try AttributeValue.plain(fromTyped: AttributeValue.typed(fromPlain: value)) == value)
        }
        let typed: [JSONValue] = [["SS": ["b", "a"]], ["NS": ["3", "-1.5"]], ["BS": ["AAE="]], ["B": "AAE="], ["N": "-0.25"]]
        for value in typed {
            let parsed = try AttributeValue(typed: value)
            #expect(try AttributeValue(typed: parsed.typedJSON) == parsed)
        }
    }

    @Test func itemsConvertWholesale() throws {
        let item = try AttributeValue.plainItem(fromTyped: ["id": ["S": "1"], "n": ["N": "2"]], what: "key")
        #expect(item == ["id": "1", "n": 2])
        #expect(AttributeValue.typedItem(item) == ["id": ["S": "1"], "n": ["N": "2"]])
        #expect(message { _ = try AttributeValue.plainItem(fromTyped: "x", what: "key") } == "'key' must be a map of attribute names to typed values, not \"x\"")
    }

    @Test func numbersCompareByValueWhateverTheirSpelling() throws {
        #expect(DynamoDBNumber(text: "1.0") == DynamoDBNumber(1))
        #expect(DynamoDBNumber(text: "10")! > DynamoDBNumber(text: "9.5")!)
        #expect(DynamoDBNumber(Int.max) + DynamoDBNumber(1) == DynamoDBNumber(Double(Int.max) + 1))
        #expect(DynamoDBNumber(text: "abc") == nil && DynamoDBNumber(text: "NaN") == nil && DynamoDBNumber(text: "0x10") == nil)
    }

    @Test func malformedTypedValuesSayWhatIsWrong() {
        let cases: [(JSONValue, String)] = [
            ([:], "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes: {}"),
            ("x", "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes: \"x\""),
            (["S": "a", "N": "1"], "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes: {\"N\":\"1\",\"S\":\"a\"}"),
            (["N": "twelve"], "A value provided cannot be converted into a number: \"twelve\""),
            (["N": true], "A value provided cannot be converted into a number: true"),
            (["S": 1], "The S of a DynamoDB typed value must be a string, not 1"),
            (["L": "a"], "The L of a DynamoDB typed value must be an array, not \"a\""),
            (["SS": []], "One or more parameter values were invalid: An string set  may not be empty"),
            (["NS": ["1", "1.0"]], "One or more parameter values were invalid: Input collection [1, 1] contains duplicates."),
            (["SS": ["a", 1]], "The SS of a DynamoDB typed value must be an array of strings, not [\"a\",1]"),
            (["NULL": false], "One or more parameter values were invalid: Null attribute value types must have the value of true"),
            (["B": "not base64!"], "A B (binary) value must be base64 text, not \"not base64!\""),
            (["X": 1], "Unknown DynamoDB type \"X\" in {\"X\":1}; a typed value is one of S, N, B, BOOL, NULL, L, M, SS, NS, BS"),
            (["M": ["a": ["Q": 1]]], "Unknown DynamoDB type \"Q\" in {\"Q\":1}; a typed value is one of S, N, B, BOOL, NULL, L, M, SS, NS, BS"),
        ]
        for (typed, expected) in cases {
            #expect(message { _ = try AttributeValue(typed: typed) } == expected, "\(typed.jsonText)")
        }
    }

    @Test func errorsCarryAppSyncsTypeAndSuffix() {
        let error = DynamoDBError.validation("Query key condition not supported")
        #expect(error.type.rawValue == "DynamoDB:DynamoDbException")
        #expect(error.code == "ValidationException")
        let appSync = error.appSyncError(requestID: "R1")
        #expect(appSync.errorType == .dynamoDBException)
        #expect(appSync.message == "Query key condition not supported (Service: DynamoDb, Status Code: 400, Request ID: R1)")
    }
}
