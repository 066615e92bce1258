import DeltaSyncCore
import DeltaSyncDynamoDB
import Testing

/// Update expressions applied with DynamoDB's documented outcomes.
struct UpdateExpressionTests {
    static let values: [String: JSONValue] = [
        ":0": ["N": "0"], ":1": ["N": "1"], ":x": ["S": "x"], ":ss": ["SS": ["a", "b"]], ":ns": ["NS": ["1", "2"]],
        ":l": ["L": [["S": "z"]]], ":empty": ["L": []], ":m": ["M": ["k": ["S": "v"]]],
    ]

    func apply(_ item: Item, _ text: String, names: [String: String] = [:]) throws -> Item {
        try updated(item, text, names: names, values: Self.values.filter { text.contains($0.key) })
    }

    @Test func setArithmeticAndFunctions() throws {
        #expect(try apply(["n": 5], "SET n = n + :1") == ["n": 6])
        #expect(try apply(["n": 5], "SET n = n - :1, m = :1 - n") == ["n": 4, "m": -4])
        #expect(try apply([:], "SET n = if_not_exists(n, :0) + :1") == ["n": 1])
        #expect(try apply(["n": 7], "SET n = if_not_exists(n, :0) + :1") == ["n": 8])
        #expect(try apply(["l": ["a"]], "SET l = list_append(l, :l)") == ["l": ["a", "z"]])
        #expect(try apply(["l": ["a"]], "SET l = list_append(:l, l)") == ["l": ["z", "a"]])
        #expect(try apply([:], "SET l = list_append(if_not_exists(l, :empty), :l)") == ["l": ["z"]])
        #expect(try apply(["n": 1.5], "SET n = n + :1") == ["n": 2.5])
        #expect(try apply([:], "SET s = :ss, m = :m") == ["s": ["a", "b"], "m": ["k": "v"]])
    }

    @Test func everyValueIsReadFromTheItemBeforeTheUpdate() throws {
        #expect(try apply(["a": 1, "b": 2], "SET a = b, b = a") == ["a": 2, "b": 1])
        #expect(try apply(["n": 1], "SET n = n + :1, m = n") == ["n": 2, "m": 1])
    }

    @Test func nestedPathsAndListIndexes() throws {
        let item: Item = ["m": ["k": 1], "l": [0, 1, 2, 3]]
        #expect(try apply(item, "SET m.j = :x, l[1] = :x") == ["m": ["k": 1, "j": "x"], "l": [0, "x", 2, 3]])
        // A list index past the end appends.
        #expect(try apply(item, "SET l[10] = :x") == ["m": ["k": 1], "l": [0, 1, 2, 3, "x"]])
        // REMOVE indexes name the list as it was.
        #expect(try apply(item, "REMOVE l[0], l[2]") == ["m": ["k": 1], "l": [1, 3]])
        #expect(try apply(item, "REMOVE l[2], l[0], m.k") == ["m": [:], "l": [1, 3]])
        #expect(try apply(item, "REMOVE missing, l[9], m.k.x") == item)
        #expect(try apply(["a": ["b": [["c": 1]]]], "SET #a.b[0].#c = :x", names: ["#a": "a", "#c": "c"]) == ["a": ["b": [["c": "x"]]]])
    }

    @Test func addAndDelete() throws {
        #expect(try apply([:], "ADD n :1") == ["n": 1])
        #expect(try apply(["n": 2], "ADD n :1") == ["n": 3])
        #expect(try apply([:], "ADD tags :ss") == ["tags": ["a", "b"]])
        #expect(try apply(["tags": ["b", "c"]], "ADD tags :ss") == ["tags": ["b", "c", "a"]])
        #expect(try apply(["nums": [2, 3]], "ADD nums :ns") == ["nums": [2, 3, 1]])
        #expect(try apply(["tags": ["a", "b", "c"]], "DELETE tags :ss") == ["tags": ["c"]])
        #expect(try apply(["tags": ["a", "b"]], "DELETE tags :ss") == [:])  // an empty set is no set
        #expect(try apply(["other": 1], "DELETE tags :ss") == ["other": 1])
    }

    @Test func clausesInAnyOrder() throws {
        let item: Item = ["x": 1, "tags": ["a", "c"], "n": 1]
        let expected: Item = ["a": "x", "tags": ["c"], "n": 2]
        #expect(try apply(item, "REMOVE x SET a = :x ADD n :1 DELETE tags :ss") == expected)
        #expect(try apply(item, "delete tags :ss add n :1 set a = :x remove x") == expected)
    }

    @Test func runtimeErrors() throws {
        let missing = "The provided expression refers to an attribute that does not exist in the item"
        let wrongType = "An operand in the update expression has an incorrect data type"
        let badPath = "The document path provided in the update expression is invalid for update"
        let cases: [(Item, String, String)] = [
            ([:], "SET n = n + :1", missing),
            ([:], "SET l = list_append(l, :l)", missing),
            (["n": "x"], "SET n = n + :1", wrongType),
            (["l": "x"], "SET l = list_append(l, :l)", wrongType),
            (["n": "x"], "ADD n :1", wrongType),
            (["tags": 1], "ADD tags :ss", wrongType),
            (["tags": [1]], "ADD tags :ss", wrongType),
            (["tags": "a"], "DELETE tags :ss", wrongType),
            ([:], "SET m.k = :x", badPath),
            (["n": 1], "SET n[0] = :x", badPath),
            (["l": []], "SET l[3].k = :x", badPath),
            ([:], "ADD m.n :1", badPath),
        ]
        for (item, text, expected) in cases {
            #expect(message { _ = try UpdateExpression(text, attributes: try attributes([:], Self.values.filter { text.contains($0.key) })).apply(to: item) } == expected, "\(text)")
        }
    }

    @Test func parseErrors() throws {
        let cases: [(String, String)] = [
            ("INVALID SYNTAX HERE", "Invalid UpdateExpression: Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\""),
            ("ADD hits : incr", "Invalid UpdateExpression: Syntax error; token: \":\", near: \"hits : incr\""),
            ("SET a = :1 + :1 + :1", "Invalid UpdateExpression: Syntax error; token: \"+\", near: \":1 + :1\""),
            ("SET a = :1 SET b = :1", "Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;"),
            ("SET a = :1, a = :0", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"),
            ("SET a = :1 REMOVE a.b", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"),
            ("SET a[0] = :1 REMOVE a.b", "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]"),
            ("SET a = b + :x", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"),
            ("SET l = list_append(l, :m)", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: M"),
            ("ADD n :x", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"),
            ("DELETE tags :1", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"),
            ("ADD n b", "Invalid UpdateExpression: Syntax error; token: \"b\", near: \"n b\""),
            ("SET a = size(b)", "Invalid UpdateExpression: The function is not allowed to be used this way in an expression; function: size"),
            ("SET a = if_not_exists(:1, :1)", "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"),
            ("SET a = :nope", "Invalid UpdateExpression: An expression attribute value used in expression is not defined; attribute value: :nope"),
            ("SET", "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"SET\""),
            ("", "Invalid UpdateExpression: The expression can not be empty;"),
        ]
        for (text, expected) in cases {
            #expect(message { _ = try UpdateExpression(text, attributes: try attributes([:], Self.values.filter { text.contains($0.key) })) } == expected, "\(text)")
        }
    }

    @Test func keyAttributesCannotBeUpdated() throws {
        let update = try UpdateExpression("SET id = :x, title = :x", attributes: attributes([:], [":x": ["S": "x"]]))
        #expect(message { try update.checkKeyAttributes(["id"]) } == "One or more parameter values were invalid: Cannot update attribute id. This attribute is part of the key")
        #expect(message { try update.checkKeyAttributes(["pk", "sk"]) } == nil)
    }

    @Test func readsAnAppSyncUpdateObject() throws {
        let update = try UpdateExpression(request: [
            "expression": "SET #t = :t REMOVE #d",
            "expressionNames": ["#t": "title", "#d": "draft"],
            "expressionValues": [":t": ["S": "T"]],
        ])
        #expect(try update.apply(to: ["id": "1", "draft": true]) == ["id": "1", "title": "T"])
        #expect(update.actions == [.set(DocumentPath([.name("title")]), .value(.string("T"))), .remove(DocumentPath([.name("draft")]))])
    }
}
