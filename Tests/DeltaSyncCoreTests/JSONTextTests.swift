import DeltaSyncCore
import DeltaSyncTestSupport
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
        JSONValue.null, true, false, 0, -42, 7, 10, -100, .int(Int.max), .int(Int.min), "", "plain", "ünïcödé 🎉 \u{2028}", "a/b", "quote\"d", "back\\slash",
        "tab\tand\nnewline\u{1}", ["a", "b", nil, 1, true], [], [["nested", 2], []], 3.5, [1.0, 2.25], ["k": "v", "a": [1]],
        ["Z": 1, "a": 2, "B": 3, "10": 4, "9": 5], ["a_b": 1, "aB": 2, "a-b": 3, "a b": 4, "ä": 5, "_x": 6, "A": 7, "": 8],
        ["item10": 1, "item9": 2, "Item2": 3, "item2": 4], ["nested": ["z": [1, "x"], "y": nil]],
    ] as [JSONValue])
    func sameAsEncoder(value: JSONValue) throws {
        #expect(value.jsonText == (try Self.encoderText(value)))
    }

    @Test("parses exactly what JSONDecoder parses", arguments: [
        "[]", #"["a","b"]"#, #"["a",null,true,false,-3,0,42]"#, #"["ünï 🎉"]"#, #"[1.5]"#, #"[1e3]"#, #"["esc\"aped"]"#,
        #"[ "spaced" ]"#, #"[["nested"]]"#, #"[{"k":1}]"#, "[01]", "[-]", #"["unterminated]"#, "[nul]",
        "[99999999999999999999]", "[-0]", "[-01]", "[0,10]", "[1.0, -1.0e0, 0.1e1, 1E2, 2.5e-3, 1E-400, -0.0]",
        "[9223372036854775807, 9223372036854775808, -9223372036854775808]", "[1e400]", "[1.]", #"{"a":1,"a":2}"#,
        #""\u00e9\uD83D\uDE00\n\t\/\b\f\r\\""#, #""\ud800""#, "\"a\u{01}b\"", " 1 ", "1 2", "", "{}", #"{"a":{}}"#, "tru",
    ])
    func parsesAsDecoder(text: String) throws {
        let decoded = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect((try? JSONValue(parsing: text)) == decoded)
        #expect(Array(text.utf8).withUnsafeBufferPointer { try? JSONValue(parsingUTF8: $0) } == decoded)
    }

    @Test("UTF-8 bytes that are not valid read as the String made of them would")
    func invalidUTF8Bytes() throws {
        let bytes: [UInt8] = [0x5B, 0x22, 0x61, 0xFF, 0x62, 0x22, 0x5D]  // ["a\xFFb"]
        let parsed = try bytes.withUnsafeBufferPointer { try JSONValue(parsingUTF8: $0) }
        #expect(parsed == (try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))))
        #expect(parsed == ["a\u{FFFD}b"])
    }

    @Test("random documents parse as JSONDecoder parses them")
    func randomDocuments() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<500 {
            let value = Self.randomValue(depth: 0, using: &random)
            let encoder = JSONEncoder()
            encoder.outputFormatting = Bool.random(using: &random) ? [.prettyPrinted] : []
            let text = String(decoding: try encoder.encode(value), as: UTF8.self)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(try JSONValue(parsing: text) == decoded, "\(text)")
        }
    }

    @Test("a trailing comma is an error, unlike JSONDecoder, as JSON has none", arguments: [#"["a",]"#, #"{"a":1,}"#])
    func trailingComma(text: String) {
        #expect(throws: (any Error).self) { try JSONValue(parsing: text) }
    }

    @Test("an error says what is wrong and at which byte")
    func errorsNameTheByte() {
        #expect(throws: (any Error).self) { try JSONValue(parsing: #"{"a": tru}"#) }
        do {
            _ = try JSONValue(parsing: #"{"a": [1, 2,, 3]}"#)
        } catch {
            #expect("\(error)" == "Invalid JSON at byte 12: expected a value")
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: (any Error).self, "nesting is bounded") { try JSONValue(parsing: deep) }
    }

    @Test("JSONWriter writes what JSONEncoder writes for random documents: JSONEncoder is the oracle")
    func writerMatchesTheEncoderOracle() throws {
        var random = SeededRandom(seed: 11)
        for _ in 0..<2000 {
            let value = Self.randomValue(depth: 0, using: &random)
            #expect(value.jsonText == (try Self.encoderText(value)), "\(value)")
        }
    }

    @Test("doubles of every magnitude and every control character, as JSONEncoder writes them")
    func writerMatchesTheEncoderOnNumbersAndControls() throws {
        var random = SeededRandom(seed: 12)
        var doubles: [Double] = [0, -0.0, 1, -1, 0.1, 1e15, 1e16, 1e21, 5e-324, .greatestFiniteMagnitude, 9_007_199_254_740_993]
        for _ in 0..<500 {
            doubles.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random)))
            doubles.append(Double.random(in: -1...1, using: &random) * pow(10, Double(Int.random(in: -30...30, using: &random))))
        }
        for double in doubles where double.isFinite {
            #expect(JSONValue.double(double).jsonText == (try Self.encoderText(.double(double))), "\(double)")
        }
        let controls = String(String.UnicodeScalarView((0..<0x20).compactMap(Unicode.Scalar.init) + ["\u{7F}"]))
        #expect(JSONValue.string(controls).jsonText == (try Self.encoderText(.string(controls))))
    }

    @Test("a string written from its UTF-8 bytes is the String's text, invalid bytes repaired as String repairs them")
    func stringFromBytes() {
        var random = SeededRandom(seed: 11)
        let pieces: [[UInt8]] = [[0x61], [0x22], [0x5C], [0x0A], [0x01], [0x7F], [0xC3, 0xA9], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC3], [0x80]]
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...10, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
            var fromBytes: [UInt8] = []
            bytes.withUnsafeBufferPointer { JSONWriter.writeString(utf8: $0, to: &fromBytes) }
            var fromString: [UInt8] = []
            JSONWriter.writeString(String(decoding: bytes, as: UTF8.self), to: &fromString)
            #expect(fromBytes == fromString, "\(bytes)")
        }
    }

    @Test("the rules the encoder cannot show: non-finite numbers, and keys in UTF-8 byte order")
    func writerCanonicalRules() {
        #expect(JSONValue.array([.double(.nan), .double(.infinity), .double(-.infinity)]).jsonText == "[null,null,null]")
        #expect(JSONValue.object(["é": 1, "z": 2, "\u{1F600}": 3, "\u{FF21}": 4, "Z": 5]).jsonText == #"{"Z":5,"z":2,"é":1,"Ａ":4,"😀":3}"#)
        var out: [UInt8] = []
        JSONWriter.writeObject([(key: "b", value: 1), (key: "a", value: 2)], to: &out) { JSONWriter.writeInt($0, to: &$1) }
        #expect(String(decoding: out, as: UTF8.self) == #"{"b":1,"a":2}"#, "ordered members keep their order")
    }

    static func randomValue(depth: Int, using random: inout SeededRandom) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(Int.random(in: -1_000_000...Int.max, using: &random) / Int.random(in: 1...1_000, using: &random))
        case 3: return .double(Double.random(in: -1e6...1e6, using: &random))
        case 4:
            let pieces = ["a", "é", "🎉", "\"", "\\", "\n", "\u{1}", "/", " ", "\u{2028}", "日本"]
            return .string((0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        case 5: return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var object: [String: JSONValue] = [:]
            for n in 0..<Int.random(in: 0...4, using: &random) { object["k\(n)\(["", "é", "\""].randomElement(using: &random)!)"] = randomValue(depth: depth + 1, using: &random) }
            return .object(object)
        }
    }
}
