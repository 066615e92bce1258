import DeltaSyncCore
import DeltaSyncDynamoDB
import Testing

/// Key condition expressions: the shapes DynamoDB accepts and refuses, resolved on an index.
struct KeyConditionExpressionTests {
    static let values: [String: JSONValue] = [":p": ["S": "u1"], ":a": ["S": "2024"], ":b": ["S": "2025"], ":n": ["N": "3"]]

    func resolve(_ text: String, partitionKey: String = "pk", sortKey: String? = "sk") throws -> KeyCondition {
        try KeyConditionExpression(text, attributes: attributes(["#pk": "pk", "#sk": "sk"], Self.values.filter { text.contains($0.key) }))
            .keyCondition(partitionKey: partitionKey, sortKey: sortKey)
    }

    @Test func acceptedShapes() throws {
        let p = AttributeValue.string("u1"), a = AttributeValue.string("2024"), b = AttributeValue.string("2025")
        #expect(try resolve("pk = :p") == KeyCondition(partitionKey: "pk", partitionValue: p))
        #expect(try resolve("#pk = :p", sortKey: nil) == KeyCondition(partitionKey: "pk", partitionValue: p))
        let cases: [(String, KeyPredicate)] = [
            ("pk = :p AND sk = :a", .equal(a)),
            ("pk = :p AND sk < :a", .less(a)),
            ("pk = :p AND sk <= :a", .lessOrEqual(a)),
            ("pk = :p AND #sk > :a", .greater(a)),
            ("pk = :p AND sk >= :a", .greaterOrEqual(a)),
            ("sk BETWEEN :a AND :b AND pk = :p", .between(a, b)),
            ("begins_with(#sk, :a) AND #pk = :p", .beginsWith(a)),
            ("(pk = :p) AND (sk >= :a)", .greaterOrEqual(a)),
            (":a > sk AND pk = :p", .less(a)),
            ("pk = :p and sk between :a and :b", .between(a, b)),
        ]
        for (text, predicate) in cases {
            #expect(try resolve(text) == KeyCondition(partitionKey: "pk", partitionValue: p, sortKey: SortKeyCondition(attribute: "sk", predicate: predicate)), "\(text)")
        }
    }

    @Test func refusedShapes() {
        let cases: [(String, String)] = [
            ("pk = :p OR sk = :a", "Invalid operator used in KeyConditionExpression: OR"),
            ("NOT pk = :p", "Invalid operator used in KeyConditionExpression: NOT"),
            ("pk IN (:p)", "Invalid operator used in KeyConditionExpression: IN"),
            ("pk = :p AND sk <> :a", "Invalid operator used in KeyConditionExpression: <>"),
            ("pk = :p AND contains(sk, :a)", "Invalid operator used in KeyConditionExpression: contains"),
            ("attribute_exists(pk)", "Invalid operator used in KeyConditionExpression: attribute_exists"),
            ("pk = :p AND size(sk) = :n", "Invalid operator used in KeyConditionExpression: size"),
            ("pk = :p AND sk = :a AND x = :b", "Conditions can be of length 1 or 2 only"),
            ("pk = :p AND pk = :a", "KeyConditionExpressions must only contain one condition per key"),
            ("pk.x = :p", "KeyConditionExpressions cannot have conditions on nested attributes"),
            ("pk = sk", "Invalid KeyConditionExpression: a key condition compares a key attribute with an expression value"),
            ("pk = :p AND begins_with(sk, :n)", "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
            ("pk = :p AND", "Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\""),
            ("sk = :a", "Query condition missed key schema element: pk"),
            ("pk > :p", "Query key condition not supported"),
            ("pk = :p AND other = :a", "Query key condition not supported"),
        ]
        for (text, expected) in cases {
            #expect(message { _ = try resolve(text) } == expected, "\(text)")
        }
        #expect(message { _ = try resolve("pk = :p AND sk = :a", sortKey: nil) } == "Query key condition not supported")
    }

    @Test func matchesItemsInMemory() throws {
        let key = try resolve("pk = :p AND sk BETWEEN :a AND :b")
        #expect(key.matches(["pk": "u1", "sk": "2024-06"]))
        #expect(!key.matches(["pk": "u1", "sk": "2025-01"]))
        #expect(!key.matches(["pk": "u2", "sk": "2024-06"]))
        #expect(!key.matches(["pk": "u1"]))
        #expect(try resolve("pk = :p AND begins_with(sk, :a)").matches(["pk": "u1", "sk": "2024#x"]))
        #expect(KeyPredicate.greater(.number(DynamoDBNumber(3))).matches(10))
        #expect(!KeyPredicate.greater(.number(DynamoDBNumber(3))).matches("10"))
    }

    @Test func readsAnAppSyncQueryObject() throws {
        let expression = try KeyConditionExpression(request: [
            "expression": "#o = :o AND #c > :c",
            "expressionNames": ["#o": "ownerId", "#c": "createdAt"],
            "expressionValues": [":o": ["S": "u1"], ":c": ["S": "2024"]],
        ])
        #expect(expression.terms.map(\.attribute) == ["ownerId", "createdAt"])
        #expect(expression.placeholders == ExpressionPlaceholders(names: ["#o", "#c"], values: [":o", ":c"]))
        let key = try expression.keyCondition(partitionKey: "ownerId", sortKey: "createdAt")
        #expect(key.sortKey == SortKeyCondition(attribute: "createdAt", predicate: .greater(.string("2024"))))
    }
}
