@testable import DeltaSyncGraphQL
@testable import DeltaSyncRealtime
@testable import DeltaSyncServer
import DeltaSyncCore
import GraphQL
import Testing

@Suite struct ResponseJSONTests {
    @Test func writesValidJSONInKeyOrder() throws {
        let map: Map = .dictionary([
            "b": .string("quote \" backslash \\ newline \n tab \t bell \u{07} é 🎉"),
            "a": .array([.int(-3), .double(25.7), .double(2), .bool(true), .null, .undefined]),
            "skipped": .undefined,
            "nested": .dictionary(["x": .string("")]),
        ])
        let text = String(decoding: ResponseJSON.bytes(map), as: UTF8.self)
        #expect(text.hasPrefix(#"{"b":"#))
        #expect(!text.contains("skipped"))
        let parsed = try JSONValue(parsing: text)
        #expect(parsed["b"] == "quote \" backslash \\ newline \n tab \t bell \u{07} é 🎉")
        #expect(parsed["a"] == [-3, 25.7, 2, true, nil, nil])
        #expect(parsed["nested"] == ["x": ""])
    }
}
