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

    /// Splices replace the value at their path: a root page's items, and the items of a nested
    /// connection inside a list (indices in digits). A splice whose place is null or missing
    /// (an error nulled a parent) is not written; the rest of the response is as the map holds it.
    @Test func splicesReplaceTheValuesAtTheirPaths() throws {
        let parent: (String) -> Map = { id in .dictionary(["id": .string(id), "tags": .dictionary(["items": .array([])])]) }
        let map: Map = .dictionary([
            "data": .dictionary([
                "listBoards": .dictionary(["items": .array([parent("a"), .null, parent("c")]), "nextToken": .null]),
                "getBoard": .null,
            ])
        ])
        let splices = [
            ResponseJSON.Splice(path: ["data", "listBoards", "items", "0", "tags", "items"], json: Array(#"[{"t":1}]"#.utf8)),
            ResponseJSON.Splice(path: ["data", "listBoards", "items", "1", "tags", "items"], json: Array(#"["lost"]"#.utf8)),
            ResponseJSON.Splice(path: ["data", "listBoards", "items", "2", "tags", "items"], json: Array(#"[{"t":3}]"#.utf8)),
            ResponseJSON.Splice(path: ["data", "getBoard", "cards", "items"], json: Array(#"["lost"]"#.utf8)),
        ]
        let parsed = try JSONValue(parsing: String(decoding: ResponseJSON.bytes(map, splices: splices), as: UTF8.self))
        #expect(parsed["data"]["listBoards"]["items"] == [["id": "a", "tags": ["items": [["t": 1]]]], nil, ["id": "c", "tags": ["items": [["t": 3]]]]])
        #expect(parsed["data"]["listBoards"]["nextToken"].isNull)
        #expect(parsed["data"]["getBoard"].isNull)
        #expect(!parsed.jsonText.contains("lost"))

        let root = [ResponseJSON.Splice(path: ["data", "listBoards", "items"], json: Array("[1,2]".utf8))]
        let page = try JSONValue(parsing: String(decoding: ResponseJSON.bytes(map, splices: root), as: UTF8.self))
        #expect(page["data"]["listBoards"] == ["items": [1, 2], "nextToken": nil])
    }
}
