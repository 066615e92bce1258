import DeltaSyncCore
import Testing

/// Indented JSON for files people read: the same key order and escaping as compact JSON.
struct JSONPrettyTextTests {
    @Test func indentsNestedValuesAndParsesBackToTheSameValue() throws {
        let value: JSONValue = ["b": [1, "two\n\"q\""], "a": ["x": .null, "empty": [:]], "c": []]
        #expect(value.prettyText == """
            {
                "a": {
                    "empty": {},
                    "x": null
                },
                "b": [
                    1,
                    "two\\n\\"q\\""
                ],
                "c": []
            }
            """)
        #expect(try JSONValue(parsing: value.prettyText) == value)
    }
}
