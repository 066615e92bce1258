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

    /// Reads the tokens: the grammar is the scanner's (``JSONScanner``), so the two accept the
    /// same text; this builds the values.
    private var scanner: JSONScanner

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
        var parser = JSONParser(scanner: JSONScanner(bytes))
        let value = try parser.value()
        try parser.scanner.end()
        return value
    }

    private var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }

    private func failure(_ reason: String) -> Failure {
        scanner.failure(reason)
    }

    private mutating func value() throws(Failure) -> JSONValue {
        scanner.skipWhitespace()
        guard scanner.position < bytes.count else { throw failure("expected a value, the text ended") }
        switch bytes[scanner.position] {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "t"):
            _ = try scanner.literal("true", .true)
            return .bool(true)
        case UInt8(ascii: "f"):
            _ = try scanner.literal("false", .false)
            return .bool(false)
        case UInt8(ascii: "n"):
            _ = try scanner.literal("null", .null)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("expected a value")
        }
    }

    private mutating func nested<T>(_ body: (inout JSONParser) throws(Failure) -> T) throws(Failure) -> T {
        scanner.depth += 1
        guard scanner.depth <= JSONScanner.maximumDepth else { throw failure("nested deeper than \(JSONScanner.maximumDepth) levels") }
        defer { scanner.depth -= 1 }
        return try body(&self)
    }

    /// The byte at the scanner, after whitespace, if it is `byte` (then skipped).
    private mutating func skip(_ byte: UInt8) -> Bool {
        scanner.skipWhitespace()
        guard scanner.position < bytes.count, bytes[scanner.position] == byte else { return false }
        scanner.position += 1
        return true
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.scanner.position += 1
            var elements: [JSONValue] = []
            if parser.skip(UInt8(ascii: "]")) { return .array(elements) }
            while true {
                elements.append(try parser.value())
                if parser.skip(UInt8(ascii: ",")) { continue }
                if parser.skip(UInt8(ascii: "]")) { return .array(elements) }
                throw parser.failure(parser.scanner.position < parser.bytes.count ? "expected ',' or ']'" : "the list is not closed")
            }
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.scanner.position += 1
            var members: [String: JSONValue] = [:]
            if parser.skip(UInt8(ascii: "}")) { return .object(members) }
            while true {
                parser.scanner.skipWhitespace()
                guard parser.scanner.position < parser.bytes.count, parser.bytes[parser.scanner.position] == UInt8(ascii: "\"") else {
                    throw parser.failure("expected a member name in quotes")
                }
                let key = try parser.string()
                guard parser.skip(UInt8(ascii: ":")) else { throw parser.failure("expected ':' after a member name") }
                let value = try parser.value()
                // The first of two equal names wins, as JSONDecoder keeps it.
                if let first = members.updateValue(value, forKey: key) { members[key] = first }
                if parser.skip(UInt8(ascii: ",")) { continue }
                if parser.skip(UInt8(ascii: "}")) { return .object(members) }
                throw parser.failure(parser.scanner.position < parser.bytes.count ? "expected ',' or '}'" : "the object is not closed")
            }
        }
    }

    /// A string starting at the opening quote.
    private mutating func string() throws(Failure) -> String {
        let token = try scanner.string()
        let contents = UnsafeBufferPointer(rebasing: bytes[token.contents])
        // Most strings have no escapes: made in one go from their bytes.
        guard token.escaped else { return String(decoding: contents, as: UTF8.self) }
        return String(decoding: JSONScanner.unescaped(contents), as: UTF8.self)
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let token = try scanner.numberToken()
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[token.range]), as: UTF8.self)
        if token.isIntegerText, let integer = Int(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else {
            scanner.position = token.range.lowerBound
            throw failure("the number does not fit a 64-bit float")
        }
        // An integer written past 64 bits stays a double, as JSONDecoder reads it: rounded to
        // one, -9223372036854775809 would read as Int.min.
        if token.isIntegerText { return .double(double) }
        // As JSONDecoder: an integral value that fits an Int is an Int, however it is written.
        if double == double.rounded(), double >= -9_223_372_036_854_775_808, double < 9_223_372_036_854_775_808 {
            return .int(Int(double))
        }
        return .double(double)
    }
}
