import DeltaSyncCore
import DeltaSyncDynamoDB
import Testing

/// Condition and filter expressions with DynamoDB's documented outcomes.
struct ConditionExpressionTests {
    static let one: [String: JSONValue] = [":1": ["N": "1"]]

    @Test func precedenceIsComparatorsThenNotThenAndThenOr() throws {
        let values: [String: JSONValue] = [":1": ["N": "1"], ":3": ["N": "3"], ":x": ["S": "x"]]
        // OR binds loosest: a OR (b AND c).
        #expect(try holds("a = :1 OR b = :1 AND c = :1", ["a": 1, "b": 0, "c": 0], values: values))
        #expect(try !holds("a = :1 OR b = :1 AND c = :1", ["a": 0, "b": 1, "c": 0], values: values))
        #expect(try holds("(a = :1 OR b = :1) AND c = :1", ["a": 0, "b": 1, "c": 1], values: values))
        // NOT binds tighter than AND: (NOT a) AND b.
        #expect(try holds("NOT a = :1 AND b = :1", ["a": 0, "b": 1], values: values))
        #expect(try !holds("NOT a = :1 AND b = :1", ["a": 0, "b": 0], values: values))
        #expect(try holds("NOT NOT a = :1", ["a": 1], values: values))
        // BETWEEN takes the first AND as its own.
        #expect(try holds("n BETWEEN :1 AND :3 AND s = :x", ["n": 2, "s": "x"], values: values))
        #expect(try !holds("n BETWEEN :1 AND :3 AND s = :x", ["n": 2, "s": "y"], values: values))
        // Keywords in any case.
        #expect(try holds("a = :1 or b = :1 AnD not c = :1", ["a": 1], values: values))
        #expect(try holds("n between :1 and :3 and n in (:1, :3)", ["n": 3], values: values))
    }

    @Test func comparisonsFollowDynamoDBsTypeRules() throws {
        let values: [String: JSONValue] = [":n": ["N": "9"], ":s": ["S": "9"], ":a": ["S": "a"], ":big": ["N": "10"]]
        let item: Item = ["n": 10, "s": "10", "z": "Z"]
        #expect(try holds("n > :n", item, values: values))  // numbers by value
        #expect(try !holds("s > :s", item, values: values))  // strings by bytes: "10" < "9"
        #expect(try !holds("n = :s", item, values: values))  // different types never equal...
        #expect(try holds("n <> :s", item, values: values))  // ...so they are not equal
        #expect(try !holds("n < :s", item, values: values) && !holds("n >= :s", item, values: values))
        #expect(try holds("z < :a", item, values: values))  // "Z" (0x5A) before "a" (0x61)
        #expect(try holds("n = :big", ["n": 10.0], values: values))
        #expect(try holds("n <= :big AND n >= :big", item, values: values))
    }

    @Test func stringsCompareByUTF8BytesNotUTF16Units() throws {
        // U+FF61 is EF BD A1 in UTF-8 and FF61 in UTF-16; U+1F600 is F0 9F 98 80 and D83D DE00.
        #expect(try holds("a < :b", ["a": "\u{FF61}"], values: [":b": ["S": "\u{1F600}"]]))
        #expect(try holds("a > :b", ["a": "é"], values: [":b": ["S": "z"]]))
    }

    @Test func missingAttributesMakeComparisonsFalseButNotEqualTrue() throws {
        let values = Self.one
        for text in ["missing = :1", "missing < :1", "missing <= :1", "missing > :1", "missing >= :1",
            "missing BETWEEN :1 AND :1", "missing IN (:1)", "begins_with(missing, :1)", "contains(missing, :1)", "size(missing) = :1", "missing = other"]
        {
            let values = text.contains("begins") ? [":1": ["S": "1"]] : values
            #expect(try !holds(text, ["a": 1], values: values), "\(text)")
        }
        #expect(try holds("missing <> :1", ["a": 1], values: values))
        #expect(try holds("missing <> other", ["a": 1]))
        #expect(try holds("NOT missing = :1", ["a": 1], values: values))
    }

    @Test func inAndBetween() throws {
        let values: [String: JSONValue] = [":1": ["N": "1"], ":2": ["N": "2"], ":a": ["S": "a"], ":c": ["S": "c"]]
        #expect(try holds("n IN (:1, :2)", ["n": 2], values: values))
        #expect(try !holds("n IN (:1, :2)", ["n": 3], values: values))
        #expect(try holds("s IN (:1, :a)", ["s": "a"], values: values))
        #expect(try holds("s BETWEEN :a AND :c", ["s": "b"], values: values))
        #expect(try holds("s BETWEEN :a AND :c", ["s": "c"], values: values))
        #expect(try !holds("s BETWEEN :a AND :c", ["s": "cc"], values: values))
        #expect(try !holds("n BETWEEN :a AND :c", ["n": 1], values: values))
        #expect(try holds("n IN (m, :2)", ["n": 5, "m": 5], values: values))
    }

    @Test func functions() throws {
        let item: Item = [
            "title": "Hello world", "tags": ["a", "b"], "nested": ["list": [1, ["deep": "x"]]], "n": 5, "flag": true,
            "empty": nil, "meta": ["k": 1, "j": 2],
        ]
        let values: [String: JSONValue] = [
            ":he": ["S": "He"], ":wor": ["S": "wor"], ":a": ["S": "a"], ":two": ["N": "2"], ":eleven": ["N": "11"],
            ":S": ["S": "S"], ":N": ["S": "N"], ":L": ["S": "L"], ":M": ["S": "M"], ":BOOL": ["S": "BOOL"], ":NULL": ["S": "NULL"],
            ":SS": ["S": "SS"], ":NS": ["S": "NS"], ":five": ["N": "5"],
        ]
        func check(_ text: String, _ expected: Bool) throws {
            #expect(try holds(text, item, values: values) == expected, "\(text)")
        }
        try check("attribute_exists(title) AND attribute_not_exists(body)", true)
        try check("attribute_exists(nested.list[1].deep) AND attribute_not_exists(nested.list[2])", true)
        try check("attribute_exists(empty)", true)  // a NULL attribute exists
        try check("attribute_exists(title.x) OR attribute_exists(tags[0].x)", false)
        try check("begins_with(title, :he) AND NOT begins_with(title, :wor)", true)
        try check("contains(title, :wor) AND contains(tags, :a) AND NOT contains(tags, :he)", true)
        try check("contains(n, :five)", false)
        try check("size(title) = :eleven AND size(tags) = :two AND size(meta) = :two", true)
        try check("size(n) = :five OR size(flag) > :two", false)  // numbers and booleans have no size
        try check("attribute_type(title, :S) AND attribute_type(n, :N) AND attribute_type(tags, :L)", true)
        try check("attribute_type(meta, :M) AND attribute_type(flag, :BOOL) AND attribute_type(empty, :NULL)", true)
        try check("attribute_type(tags, :SS)", true)  // sets are stored as lists
        try check("attribute_type(tags, :NS) OR attribute_type(title, :N) OR attribute_type(missing, :S)", false)
    }

    @Test func setValuesMatchStoredLists() throws {
        let values: [String: JSONValue] = [":ss": ["SS": ["b", "a"]], ":ns": ["NS": ["1", "2"]], ":l": ["L": [["S": "a"], ["S": "b"]]], ":a": ["S": "a"]]
        #expect(try holds("tags = :ss", ["tags": ["a", "b"]], values: values))
        #expect(try !holds("tags = :ss", ["tags": ["a", "b", "c"]], values: values))
        #expect(try !holds("tags = :ns", ["tags": ["a", "b"]], values: values))
        #expect(try holds("tags = :l", ["tags": ["a", "b"]], values: values))
        #expect(try !holds("tags = :l", ["tags": ["b", "a"]], values: values))  // lists keep their order
        #expect(try holds("contains(:ss, :a)", [:], values: values))
    }

    @Test func namePlaceholdersWorkAtEverySegment() throws {
        let names = ["#a": "a", "#b": "b.with.dots", "#c": "c"]
        let item: Item = ["a": ["b.with.dots": [0, 1, ["c": "yes"]]]]
        #expect(try holds("#a.#b[2].#c = :y", item, names: names, values: [":y": ["S": "yes"]]))
        #expect(try holds("a.#b[2].c = :y", item, names: names, values: [":y": ["S": "yes"]]))
        #expect(try !holds("#a.b.with.dots[2].c = :y", item, names: names, values: [":y": ["S": "yes"]]))
    }

    @Test func errorsUseDynamoDBsWords() throws {
        let cases: [(String, [String: String], [String: JSONValue], String)] = [
            ("a x b", [:], [:], "Invalid ConditionExpression: Syntax error; token: \"x\", near: \"a x b\""),
            ("a = ", [:], [:], "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\""),
            ("a = :v", [:], [:], "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :v"),
            ("#n = a", [:], [:], "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #n"),
            ("foo(a)", [:], [:], "Invalid ConditionExpression: Invalid function name; function: foo"),
            ("size(a)", [:], [:], "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \")\""),
            ("begins_with(a)", [:], [:], "Invalid ConditionExpression: Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"),
            ("begins_with(a, :n)", [:], [":n": ["N": "1"]], "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
            ("attribute_exists(:n)", [:], [":n": ["N": "1"]], "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"),
            ("attribute_type(a, :t)", [:], [":t": ["S": "STRING"]], "Invalid ConditionExpression: Invalid attribute type name found; type: STRING, valid types: { B,NULL,SS,BOOL,L,BS,N,NS,S,M }"),
            ("if_not_exists(a, :n) = :n", [:], [":n": ["N": "1"]], "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: if_not_exists"),
            ("((a = b))", [:], [:], "Invalid ConditionExpression: The expression has redundant parentheses;"),
            ("and = b", [:], [:], "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: and"),
            ("a ! b", [:], [:], "Invalid ConditionExpression: Syntax error; token: \"!\", near: \"a ! b\""),
            ("a[x] = b", [:], [:], "Invalid ConditionExpression: Syntax error; token: \"x\", near: \"[x]\""),
            ("a BETWEEN :hi AND :lo", [:], [":hi": ["N": "5"], ":lo": ["N": "1"]],
                "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: AttributeValue: {N:1}"),
            ("   ", [:], [:], "Invalid ConditionExpression: The expression can not be empty;"),
        ]
        for (text, names, values, expected) in cases {
            #expect(message { _ = try ConditionExpression(text, attributes: try attributes(names, values)) } == expected, "\(text)")
        }
        let many = (0...100).map { ":v\($0)" }
        let values = Dictionary(uniqueKeysWithValues: many.map { ($0, ["N": "1"] as JSONValue) })
        #expect(
            message { _ = try ConditionExpression("a IN (\(many.joined(separator: ", ")))", attributes: try attributes([:], values)) }
                == "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101")
        #expect(message { _ = try ConditionExpression("", kind: .filter) } == "Invalid FilterExpression: The expression can not be empty;")
        #expect(try ConditionExpression("((a = b) AND (c = d))").evaluate(["a": 1, "b": 1, "c": 2, "d": 2]))
    }

    @Test func readsAnAppSyncConditionObject() throws {
        let condition = try ConditionExpression(request: [
            "expression": "attribute_not_exists(#id) OR #v = :v",
            "expressionNames": ["#id": "id", "#v": "version"],
            "expressionValues": [":v": ["N": 2]],
        ])
        #expect(condition.evaluate([:]))
        #expect(condition.evaluate(["id": "1", "version": 2]))
        #expect(!condition.evaluate(["id": "1", "version": 3]))
        #expect(condition.placeholders == ExpressionPlaceholders(names: ["#id", "#v"], values: [":v"]))
        #expect(message { _ = try ConditionExpression(request: ["expressionNames": [:]]) } == "A ConditionExpression object needs an 'expression' string, not null")
    }
}
