/// Reads JSON text into a ``JSONValue`` in one pass over its UTF-8 bytes.
///
/// Going through `JSONDecoder` cost a thrown error for every value that was not a string (the
/// `Codable` conformance has to guess each value's kind), which made a 1,000-item sync page the
/// slowest part of a client's sync. The result is the value `JSONDecoder` gives: integral
/// numbers that fit an `Int` (`3`, `3.0`, `3e2`) are `.int`, other numbers `.double`, and
/// of two equal keys the first wins. Unlike `JSONDecoder`, a trailing comma is an error, as
/// JSON has none.
package struct JSONParser {
    /// What is wrong with the text, and where.
    package struct Failure: Error, CustomStringConvertible {
        package let reason: String
        /// Byte offset in the UTF-8 text.
        package let offset: Int
        package var description: String { "Invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var depth = 0
    /// Deeper nesting is refused rather than risking the stack on hostile input.
    private static let maximumDepth = 512

    /// Parses the whole of `text`: one value, surrounded by whitespace only.
    static func parse(_ text: String) throws(Failure) -> JSONValue {
        var text = text
        let result: Result<JSONValue, Failure> = text.withUTF8 { bytes in
            Result { () throws(Failure) -> JSONValue in try parse(bytes) }
        }
        return try result.get()
    }

    /// ``parse(_:)-(String)`` for UTF-8 bytes, without making a `String` of them first.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private func failure(_ reason: String) -> Failure {
        Failure(reason: reason, offset: position)
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard position < bytes.count else { throw failure("expected a value, the text ended") }
        switch bytes[position] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            UnsafeBufferPointer(rebasing: bytes[position..<position + count]).elementsEqual(
                UnsafeBufferPointer(start: word.utf8Start, count: count))
        else { throw failure("expected a value") }
        position += count
        return value
    }

    private mutating func nested<T>(_ body: (inout JSONParser) throws(Failure) -> T) throws(Failure) -> T {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.position += 1
            var elements: [JSONValue] = []
            parser.skipWhitespace()
            if parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "]") {
                parser.position += 1
                return .array(elements)
            }
            while true {
                elements.append(try parser.value())
                parser.skipWhitespace()
                guard parser.position < parser.bytes.count else { throw parser.failure("the list is not closed") }
                switch parser.bytes[parser.position] {
                case UInt8(ascii: ","): parser.position += 1
                case UInt8(ascii: "]"):
                    parser.position += 1
                    return .array(elements)
                default: throw parser.failure("expected ',' or ']'")
                }
            }
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.position += 1
            var members: [String: JSONValue] = [:]
            parser.skipWhitespace()
            if parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "}") {
                parser.position += 1
                return .object(members)
            }
            while true {
                parser.skipWhitespace()
                guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: "\"") else {
                    throw parser.failure("expected a member name in quotes")
                }
                let key = try parser.string()
                parser.skipWhitespace()
                guard parser.position < parser.bytes.count, parser.bytes[parser.position] == UInt8(ascii: ":") else {
                    throw parser.failure("expected ':' after a member name")
                }
                parser.position += 1
                let value = try parser.value()
                // The first of two equal names wins, as JSONDecoder keeps it.
                if let first = members.updateValue(value, forKey: key) { members[key] = first }
                parser.skipWhitespace()
                guard parser.position < parser.bytes.count else { throw parser.failure("the object is not closed") }
                switch parser.bytes[parser.position] {
                case UInt8(ascii: ","): parser.position += 1
                case UInt8(ascii: "}"):
                    parser.position += 1
                    return .object(members)
                default: throw parser.failure("expected ',' or '}'")
                }
            }
        }
    }

    /// A string starting at the opening quote.
    private mutating func string() throws(Failure) -> String {
        position += 1
        let start = position
        // Most strings have no escapes: copied in one go.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw failure("a control character must be escaped in a string") }
            position += 1
        }
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"): utf8.append(contentsOf: try unicodeEscape())
                default:
                    position -= 1
                    throw failure("unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            default:
                if byte < 0x20 { throw failure("a control character must be escaped in a string") }
                utf8.append(byte)
                position += 1
            }
        }
        throw failure("the string is not closed")
    }

    /// The UTF-8 of a `\uXXXX` escape (after the `u`), with its low surrogate when it is a high
    /// one.
    private mutating func unicodeEscape() throws(Failure) -> [UInt8] {
        var unit = try hexUnit()
        if (0xD800...0xDBFF).contains(unit) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate must be followed by a low one")
            }
            position += 2
            let low = try hexUnit()
            guard (0xDC00...0xDFFF).contains(low) else { throw failure("a high surrogate must be followed by a low one") }
            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw failure("a low surrogate without a high one")
        }
        guard let scalar = Unicode.Scalar(unit) else { throw failure("not a Unicode scalar") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func hexUnit() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("expected four hex digits") }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hex digits")
            }
            unit = unit << 4 | UInt32(digit)
            position += 1
        }
        return unit
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        guard skipDigits() > 0 else { throw failure("expected a digit") }
        if bytes[integerStart] == UInt8(ascii: "0"), position - integerStart > 1 {
            position = integerStart
            throw failure("a number cannot start with 0")
        }
        var isIntegerText = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard skipDigits() > 0 else { throw failure("expected a digit after '.'") }
            isIntegerText = false
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard skipDigits() > 0 else { throw failure("expected a digit in the exponent") }
            isIntegerText = false
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isIntegerText, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            position = start
            throw failure("the number does not fit a 64-bit float")
        }
        // An integer written past 64 bits stays a double, as JSONDecoder reads it: rounded to
        // one, -9223372036854775809 would read as Int.min.
        if isIntegerText { return .double(double) }
        // As JSONDecoder: an integral value that fits an Int is an Int, however it is written.
        if double == double.rounded(), double >= -9_223_372_036_854_775_808, double < 9_223_372_036_854_775_808 {
            return .int(Int(double))
        }
        return .double(double)
    }

    /// Skips decimal digits; returns how many.
    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - start
    }
}
