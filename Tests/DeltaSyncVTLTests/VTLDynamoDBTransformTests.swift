import DeltaSyncCore
import DeltaSyncVTL
import Testing

/// `$util.dynamodb` and `$util.transform` against the outputs AppSync documents.
struct VTLDynamoDBTransformTests {
    static func json(_ text: String) throws -> JSONValue {
        try JSONValue(parsing: VTLEngineTests.render(text))
    }

    @Test func typedValues() throws {
        #expect(try VTLEngineTests.render(#"$util.dynamodb.toDynamoDBJson("foo")"#) == #"{"S":"foo"}"#)
        #expect(try VTLEngineTests.render("$util.dynamodb.toDynamoDBJson(12345) $util.dynamodb.toDynamoDBJson(true)") == #"{"N":12345} {"BOOL":true}"#)
        #expect(try Self.json(#"$util.dynamodb.toDynamoDBJson(["foo", 123, {"bar": "baz"}])"#) == ["L": [["S": "foo"], ["N": 123], ["M": ["bar": ["S": "baz"]]]]])
        let map = #"{"foo": "bar", "baz": 1234, "beep": ["boop"]}"#
        let values: JSONValue = ["foo": ["S": "bar"], "baz": ["N": 1234], "beep": ["L": [["S": "boop"]]]]
        #expect(try Self.json("$util.dynamodb.toMapValuesJson(\(map))") == values)
        #expect(try Self.json("$util.dynamodb.toMapJson(\(map))") == ["M": values])
        #expect(try Self.json("$util.toJson($util.dynamodb.toMap(\(map)).get(\"M\"))") == values)
        #expect(try Self.json("$util.dynamodb.toListJson([1, null])") == ["L": [["N": 1], ["NULL": true]]])
        let sets = """
            [$util.dynamodb.toStringSetJson(["foo", "bar", "foo"]), $util.dynamodb.toNumberSetJson([1, 23, 4.56]), \
            $util.dynamodb.toBinarySetJson(["foo", "bar"]), $util.dynamodb.toStringJson("x"), $util.dynamodb.toNumberJson(7), \
            $util.dynamodb.toBinaryJson("SGk="), $util.dynamodb.toBooleanJson(false), $util.dynamodb.toNullJson()]
            """
        #expect(try Self.json(sets) == [
            ["SS": ["foo", "bar"]], ["NS": [1, 23, 4.56]], ["BS": ["foo", "bar"]], ["S": "x"], ["N": 7], ["B": "SGk="],
            ["BOOL": false], ["NULL": nil],
        ])
        // Typed maps are maps a template can change before printing them.
        let edited = #"#set($m = $util.dynamodb.toMapValues({"a": 1}))#set($m.version = $util.dynamodb.toNumber(2))$util.toJson($m)"#
        #expect(try Self.json(edited) == ["a": ["N": 1], "version": ["N": 2]])
        #expect(throws: VTLError.self) { try VTLEngineTests.render(#"$util.dynamodb.toNumberSet(["x"])"#) }
    }

    @Test func s3Objects() throws {
        let object = try Self.json(#"$util.dynamodb.toS3ObjectJson("foo", "bar", "baz")"#)
        #expect(object == ["S": #"{"s3":{"key":"foo","bucket":"bar","region":"baz"}}"#])
        let versioned = try VTLEngineTests.render(#"$util.dynamodb.toS3ObjectJson("foo", "bar", "baz", "beep")"#)
        #expect(try JSONValue(parsing: JSONValue(parsing: versioned)["S"].stringValue!) == ["s3": ["key": "foo", "bucket": "bar", "region": "baz", "version": "beep"]])
        let back = #"$util.toJson($util.dynamodb.fromS3ObjectJson($util.dynamodb.toS3Object("foo", "bar", "baz", "beep").S))"#
        #expect(try Self.json(back) == ["key": "foo", "bucket": "bar", "region": "baz", "version": "beep"])
        #expect(try Self.json(#"$util.toJson($util.dynamodb.fromS3ObjectJson($util.dynamodb.toS3ObjectJson("k", "b", "r")))"#) == ["key": "k", "bucket": "b", "region": "r"])
    }

    @Test func filterExpressionOfTheDocumentedExample() throws {
        let out = try Self.json(#"$util.transform.toDynamoDBFilterExpression({"title": {"contains": "Hello World"}})"#)
        #expect(out == [
            "expression": "contains(#title, :title_contains)", "expressionNames": ["#title": "title"],
            "expressionValues": [":title_contains": ["S": "Hello World"]],
        ])
    }

    @Test func filterExpressionWithAndOrNotBetweenInAndAttributeExists() throws {
        let filter = """
            {"and": [{"rating": {"between": [1, 5]}}, {"or": [{"title": {"beginsWith": "a"}}, {"id": {"attributeExists": false}}]}], \
            "not": {"status": {"in": ["x", "y"]}}}
            """
        let out = try Self.json("$util.transform.toDynamoDBFilterExpression(\(filter))")
        #expect(out["expression"] == .string(
            "(#rating BETWEEN :and_0_rating_between_1 AND :and_0_rating_between_2 AND (begins_with(#title, :and_1_or_0_title_beginsWith) OR attribute_not_exists(#id)))"
                + " AND NOT (#status IN (:not_status_in_0, :not_status_in_1))"))
        #expect(out["expressionNames"] == ["#rating": "rating", "#title": "title", "#id": "id", "#status": "status"])
        #expect(out["expressionValues"] == [
            ":and_0_rating_between_1": ["N": 1], ":and_0_rating_between_2": ["N": 5], ":and_1_or_0_title_beginsWith": ["S": "a"],
            ":not_status_in_0": ["S": "x"], ":not_status_in_1": ["S": "y"],
        ])
    }

    @Test func conditionExpressionWithSeveralOperatorsSizeAndTypes() throws {
        let condition = #"{"title": {"ne": "x", "notContains": "y"}, "tags": {"size": {"gt": 2}}, "kind": {"attributeType": "string"}, "gone": null}"#
        let out = try Self.json("$util.transform.toDynamoDBConditionExpression(\(condition))")
        #expect(out["expression"] == "(#title <> :title_ne AND NOT contains(#title, :title_notContains)) AND size(#tags) > :tags_size_gt AND attribute_type(#kind, :kind_attributeType)")
        #expect(out["expressionValues"] == [":title_ne": ["S": "x"], ":title_notContains": ["S": "y"], ":tags_size_gt": ["N": 2], ":kind_attributeType": ["S": "S"]])
        let exists = try Self.json(#"$util.transform.toDynamoDBConditionExpression({"id": {"attributeExists": false}})"#)
        #expect(exists == ["expression": "attribute_not_exists(#id)", "expressionNames": ["#id": "id"], "expressionValues": [:]])
        #expect(throws: VTLError.self) { try VTLEngineTests.render(#"$util.transform.toDynamoDBFilterExpression({"a": {"like": 1}})"#) }
    }

    /// AppSync's three documented examples (the third prints `gt` for the input's `lt`, a slip
    /// in the page: operators pass through).
    @Test func subscriptionFilters() throws {
        let filter = """
            {"percentageUp": {"lte": 50, "gte": 20}, "and": [{"title": {"ne": "Book1"}}, {"downvotes": {"gt": 2000}}], \
            "or": [{"author": {"eq": "Admin"}}, {"isPublished": {"eq": false}}]}
            """
        func filters(_ fields: [(String, String, JSONValue)]) -> JSONValue {
            ["filters": .array(fields.map { ["fieldName": .string($0.0), "operator": .string($0.1), "value": $0.2] })]
        }
        let (title, downvotes) = (("title", "ne", JSONValue.string("Book1")), ("downvotes", "gt", JSONValue.int(2000)))
        let (author, published) = (("author", "eq", JSONValue.string("Admin")), ("isPublished", "eq", JSONValue.bool(false)))
        let (lte, gte) = (("percentageUp", "lte", JSONValue.int(50)), ("percentageUp", "gte", JSONValue.int(20)))
        #expect(try Self.json("$util.toJson($util.transform.toSubscriptionFilter(\(filter)))") == ["filterGroup": [
            filters([lte, title, downvotes, author]), filters([lte, title, downvotes, published]),
            filters([gte, title, downvotes, author]), filters([gte, title, downvotes, published]),
        ]])
        let ignoring = #"$util.toJson($util.transform.toSubscriptionFilter(FILTER, ["percentageUp", "author"]))"#
        #expect(try Self.json(ignoring.replacingOccurrences(of: "FILTER", with: filter)) == ["filterGroup": [filters([title, downvotes, published])]])
        let rules = #"$util.toJson($util.transform.toSubscriptionFilter(FILTER, ["percentageUp", "author"], {"upvotes": {"gte": 250}, "author": {"eq": "Person1"}}))"#
        #expect(try Self.json(rules.replacingOccurrences(of: "FILTER", with: filter)) == ["filterGroup": [
            filters([title, downvotes, published, ("upvotes", "gte", 250)]),
            filters([title, downvotes, published, ("author", "eq", "Person1")]),
        ]])
    }
}
