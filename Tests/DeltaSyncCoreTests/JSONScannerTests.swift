import DeltaSyncCore
import DeltaSyncTestSupport
import Foundation
import Testing

/// The scanner is checked against ``JSONParser``: it must accept exactly the text the parser
/// accepts, and the values its spans point at must be the values the parser reads.
@Suite("JSONScanner")
struct JSONScannerTests {
    /// Whether the scanner accepts `text` as one value, and if so the value rebuilt from its
    /// spans (objects through `members`, lists through `elements`, the rest parsed from a span).
    static func scanned(_ text: String) -> JSONValue? {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var scanner = JSONScanner(bytes)
            guard let value = try? rebuild(&scanner), (try? scanner.end()) != nil else { return nil }
            return value
        }
    }

    private static func rebuild(_ scanner: inout JSONScanner) throws(JSONParser.Failure) -> JSONValue {
        let bytes = scanner.bytes
        if scanner.atObject() {
            var object: [String: JSONValue] = [:]
            try scanner.members { name, scanner throws(JSONParser.Failure) in
                let key = try name.parse(in: bytes).stringValue!
                let value = try rebuild(&scanner)
                if object[key] == nil { object[key] = value }
            }
            return .object(object)
        }
        if scanner.atArray() {
            var array: [JSONValue] = []
            try scanner.elements { element throws(JSONParser.Failure) in array.append(try rebuild(&element)) }
            return .array(array)
        }
        let span = try scanner.value()
        let value = try span.parse(in: bytes)
        switch span.kind {
        case .plainString:
            #expect(value == .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[span.contents]), as: UTF8.self)))
        case .integer:
            #expect(value == .int(span.integer(in: bytes)))
        case .string: #expect(value.stringValue != nil)
        case .number: #expect(value.intValue != nil || value.doubleValue != nil)
        case .true: #expect(value == true)
        case .false: #expect(value == false)
        case .null: #expect(value == .null)
        case .object, .array: Issue.record("a container reached as a leaf")
        }
        return value
    }

    @Test("accepts what the parser accepts and finds the values it reads", arguments: [
        "[]", #"["a","b"]"#, #"["a",null,true,false,-3,0,42]"#, #"["ünï 🎉"]"#, #"[1.5]"#, #"[1e3]"#, #"["esc\"aped"]"#,
        #"[ "spaced" ]"#, #"[["nested"]]"#, #"[{"k":1}]"#, "[01]", "[-]", #"["unterminated]"#, "[nul]", "[99999999999999999999]",
        "[-0]", "[-01]", "[0,10]", "[1.0, -1.0e0, 0.1e1, 1E2, 2.5e-3, 1E-400, -0.0]", "[123456789012345678, 1234567890123456789]",
        "[9223372036854775807, 9223372036854775808, -9223372036854775808]", "[1e400]", "[1.]", #"{"a":1,"a":2}"#,
        #""\u00e9\uD83D\uDE00\n\t\/\b\f\r\\""#, #""\ud800""#, #""\udc00""#, #""\u12""#, #""\x""#, "\"a\u{01}b\"", " 1 ", "1 2", "", "{}",
        #"{"a":{}}"#, "tru", #"["a",]"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{1:1}"#, "[1 2]", #"{"a":1 "b":2}"#, "\"\u{7F}\"", #""eight by""#,
        #""a long plain string, longer than a word or two""#, #""a long string with an escape \n past the first word""#,
    ])
    func agreesWithTheParser(text: String) {
        #expect(Self.scanned(text) == (try? JSONValue(parsing: text)), "\(text)")
    }

    @Test("random documents, whole and damaged, are accepted and read as the parser reads them")
    func randomDocuments() throws {
        var random = SeededRandom(seed: 21)
        let damage: [UInt8] = Array(#"{}[],:"\ 0-e.tnu"#.utf8) + [0x01, 0xC3, 0xFF]
        for _ in 0..<3_000 {
            let value = JSONTextTests.randomValue(depth: 0, using: &random)
            let encoder = JSONEncoder()
            encoder.outputFormatting = Bool.random(using: &random) ? [.prettyPrinted] : []
            var bytes = Array(try encoder.encode(value))
            if Bool.random(using: &random), !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = damage.randomElement(using: &random)!
                case 1: bytes.insert(damage.randomElement(using: &random)!, at: at)
                default: bytes.removeSubrange(at...)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(Self.scanned(text) == (try? JSONValue(parsing: text)), "\(text)")
        }
    }

    @Test("a plain run ends at the first byte that needs a look, eight bytes at a time or one")
    func plainRuns() {
        var random = SeededRandom(seed: 22)
        let bytes: [UInt8] = [0x61, 0x20, 0x7E, 0x22, 0x5C, 0x1F, 0x00, 0x7F, 0x80, 0xFF, 0x21, 0x23, 0x5B, 0x5D]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...40, using: &random)).map { _ in
                Int.random(in: 0..<4, using: &random) == 0 ? bytes.randomElement(using: &random)! : UInt8(ascii: "a")
            }
            text.withUnsafeBufferPointer { buffer in
                for start in 0...text.count {
                    let expected = text[start...].firstIndex { !(0x20..<0x80).contains($0) || $0 == 0x22 || $0 == 0x5C } ?? text.count
                    #expect(JSONScanner.endOfPlainRun(buffer, from: start) == expected, "\(text) from \(start)")
                }
            }
        }
    }

    @Test("a member is found by name, and reading stops at the page's parts that are asked for")
    func membersByName() throws {
        let text = #"{"data":{"syncPosts":{"items":[{"id":"a"},{"id":"b"}],"nextToken":"t"}},"errors":[]}"#
        let items = try Array(text.utf8).withUnsafeBufferPointer { bytes throws(JSONParser.Failure) -> [String] in
            var scanner = JSONScanner(bytes)
            var ids: [String] = []
            try scanner.members { name, scanner throws(JSONParser.Failure) in
                guard name.isPlainString("data", in: bytes) else { return _ = try scanner.value() }
                try scanner.members { _, scanner throws(JSONParser.Failure) in
                    try scanner.members { name, scanner throws(JSONParser.Failure) in
                        guard name.isPlainString("items", in: bytes) else { return _ = try scanner.value() }
                        try scanner.elements { element throws(JSONParser.Failure) in
                            try element.members { _, scanner throws(JSONParser.Failure) in
                                let id = try scanner.value()
                                ids.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[id.contents]), as: UTF8.self))
                            }
                        }
                    }
                }
            }
            try scanner.end()
            return ids
        }
        #expect(items == ["a", "b"])
    }
}
