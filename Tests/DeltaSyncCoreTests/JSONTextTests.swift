import DeltaSyncCore
import Foundation
import Testing

@Suite("JSONValue.jsonText")
struct JSONTextTests {
    static func encoderText(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("writes exactly what JSONEncoder writes, so stored text keeps comparing equal", arguments: [
        JSONValue.null, true, false, 0, -42, .int(Int.max), "", "plain", "ünïcödé 🎉 \u{2028}", "a/b", "quote\"d", "back\\slash",
        "tab\tand\nnewline\u{1}", ["a", "b", nil, 1, true], [], [["nested", 2], []], 3.5, [1.0, 2.25], ["k": "v", "a": [1]],
        ["Z": 1, "a": 2, "B": 3, "10": 4, "9": 5], ["a_b": 1, "aB": 2, "a-b": 3, "a b": 4, "ä": 5, "_x": 6, "A": 7, "": 8],
        ["item10": 1, "item9": 2, "Item2": 3, "item2": 4], ["nested": ["z": [1, "x"], "y": nil]],
    ] as [JSONValue])
    func sameAsEncoder(value: JSONValue) throws {
        #expect(value.jsonText == (try Self.encoderText(value)))
    }

    @Test("parses exactly what JSONDecoder parses", arguments: [
        "[]", #"["a","b"]"#, #"["a",null,true,false,-3,0,42]"#, #"["ünï 🎉"]"#, #"[1.5]"#, #"[1e3]"#, #"["esc\"aped"]"#,
        #"[ "spaced" ]"#, #"[["nested"]]"#, #"[{"k":1}]"#, "[01]", #"["a",]"#, "[-]", #"["unterminated]"#, "[nul]",
        "[99999999999999999999]", "[-0]", "[-01]", "[0,10]",
    ])
    func parsesAsDecoder(text: String) throws {
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect((try? JSONValue(parsing: text)) == decoded)
    }
}
