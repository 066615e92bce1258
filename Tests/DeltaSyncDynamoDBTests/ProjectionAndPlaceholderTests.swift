import DeltaSyncCore
import DeltaSyncDynamoDB
import Testing

/// Projections, and the names and values a request defines but does not use.
struct ProjectionAndPlaceholderTests {
    @Test func projectionsKeepOnlyTheirPaths() throws {
        let item: Item = ["id": "1", "address": ["lat": 1, "lng": 2], "tags": ["x", "y", "z"], "body": "..."]
        let projection = try ProjectionExpression("id, #a.lat, tags[2], tags[0], missing, address.none", attributes: attributes(["#a": "address"]))
        #expect(projection.apply(to: item) == ["id": "1", "address": ["lat": 1], "tags": ["x", "z"]])
        #expect(try ProjectionExpression("address.lat, address.lng").apply(to: item) == ["address": ["lat": 1, "lng": 2]])
        #expect(try ProjectionExpression(request: ["expression": "#b", "expressionNames": ["#b": "body"]]).apply(to: item) == ["body": "..."])
        #expect(
            message { _ = try ProjectionExpression("a, a.b") }
                == "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]")
        #expect(message { _ = try ProjectionExpression("a,") } == "Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\"")
        #expect(message { _ = try ProjectionExpression("!!") } == "Invalid ProjectionExpression: Syntax error; token: \"!\", near: \"!!\"")
    }

    @Test func unusedNamesAndValuesAreRefusedAcrossTheRequest() throws {
        let condition = try ExpressionAttributes(request: [
            "expressionNames": ["#v": "version"], "expressionValues": [":v": ["N": "1"], ":unused": ["S": "x"]],
        ])
        let update = try ExpressionAttributes(request: ["expressionNames": ["#t": "title", "#x": "x"], "expressionValues": [":t": ["S": "T"]]])
        let all = condition.merging(update)
        let parsedCondition = try ConditionExpression("#v = :v", attributes: all)
        let parsedUpdate = try UpdateExpression("SET #t = :t", attributes: all)
        #expect(
            message { try all.checkAllUsed(by: [parsedCondition.placeholders, parsedUpdate.placeholders]) }
                == "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}")
        let parsedUpdate2 = try UpdateExpression("SET #t = :t REMOVE #x", attributes: all)
        #expect(
            message { try all.checkAllUsed(by: [parsedCondition.placeholders, parsedUpdate2.placeholders]) }
                == "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}")
        let parsedUpdate3 = try UpdateExpression("SET #t = :t, u = :unused REMOVE #x", attributes: all)
        #expect(message { try all.checkAllUsed(by: [parsedCondition.placeholders, parsedUpdate3.placeholders]) } == nil)
        #expect(message { try all.checkAllUsed(by: []) } == "Value provided in ExpressionAttributeNames unused in expressions: keys: {#t, #v, #x}")
    }

    @Test func placeholderMapsAreValidated() {
        #expect(message { _ = try ExpressionAttributes(names: ["n": "name"], values: nil) } == "ExpressionAttributeNames contains invalid key: Syntax error; key: \"n\"")
        #expect(message { _ = try ExpressionAttributes(names: nil, values: ["v": ["S": "x"]]) } == "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\"")
        #expect(
            message { _ = try ExpressionAttributes(names: nil, values: [":v": ["SS": []]]) }
                == "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An string set  may not be empty for key :v")
        #expect(message { _ = try ExpressionAttributes(names: ["#n": 1], values: nil) } == "ExpressionAttributeNames contains invalid value: 1 is not an attribute name, for key #n")
        #expect(message { _ = try ExpressionAttributes(names: "x", values: nil) } == "'expressionNames' must be a map, not \"x\"")
    }
}
