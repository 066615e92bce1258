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
    /// same text; this builds the values. (Not through the scanner's `members` and `elements`:
    /// their closures cost a tenth of a page's parse.)
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
        let start = scanner.position
        switch bytes[start] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""):
            let kind = try scanner.string()
            return .string(Self.string(JSONScanner.Span(kind: kind, range: start..<scanner.position), in: bytes))
        case UInt8(ascii: "t"):
            _ = try scanner.literal("true", .true)
            return .bool(true)
        case UInt8(ascii: "f"):
            _ = try scanner.literal("false", .false)
            return .bool(false)
        case UInt8(ascii: "n"):
            _ = try scanner.literal("null", .null)
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let span = JSONScanner.Span(kind: try scanner.number(), range: start..<scanner.position)
            if span.kind == .integer { return .int(span.integer(in: bytes)) }
            return Self.number(UnsafeBufferPointer(rebasing: bytes[span.range]))
        default: throw failure("expected a value")
        }
    }

    private mutating func nested<T>(_ body: (inout JSONParser) throws(Failure) -> T) throws(Failure) -> T {
        scanner.depth += 1
        guard scanner.depth <= JSONScanner.maximumDepth else { throw failure("nested deeper than \(JSONScanner.maximumDepth) levels") }
        defer { scanner.depth -= 1 }
        return try body(&self)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.scanner.position += 1
            var elements: [JSONValue] = []
            if parser.scanner.take(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                elements.append(try parser.value())
            } while try !parser.scanner.closes(UInt8(ascii: "]"), "list")
            return .array(elements)
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nested { parser throws(Failure) in
            parser.scanner.position += 1
            var members: [String: JSONValue] = [:]
            if parser.scanner.take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                parser.scanner.skipWhitespace()
                let start = parser.scanner.position
                guard start < parser.bytes.count, parser.bytes[start] == UInt8(ascii: "\"") else {
                    throw parser.failure("expected a member name in quotes")
                }
                let kind = try parser.scanner.string()
                let key = Self.string(JSONScanner.Span(kind: kind, range: start..<parser.scanner.position), in: parser.bytes)
                guard parser.scanner.take(UInt8(ascii: ":")) else { throw parser.failure("expected ':' after a member name") }
                let value = try parser.value()
                // The first of two equal names wins, as JSONDecoder keeps it.
                if let first = members.updateValue(value, forKey: key) { members[key] = first }
            } while try !parser.scanner.closes(UInt8(ascii: "}"), "object")
            return .object(members)
        }
    }

    /// The string a string span holds.
    private static func string(_ span: JSONScanner.Span, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let contents = UnsafeBufferPointer(rebasing: bytes[span.contents])
        // Most strings have no escapes: made in one go from their bytes.
        guard span.kind == .string, contents.contains(UInt8(ascii: "\\")) else { return String(decoding: contents, as: UTF8.self) }
        return String(decoding: JSONScanner.unescaped(contents), as: UTF8.self)
    }

    /// A number the scanner accepted (within a 64-bit float's range) that is not a short
    /// integer.
    private static func number(_ text: UnsafeBufferPointer<UInt8>) -> JSONValue {
        let isIntegerText = !text.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let string = String(decoding: text, as: UTF8.self)
        if isIntegerText, let integer = Int(string) { return .int(integer) }
        let double = Double(string) ?? 0
        // An integer written past 64 bits stays a double, as JSONDecoder reads it: rounded to
        // one, -9223372036854775809 would read as Int.min.
        if isIntegerText { return .double(double) }
        // As JSONDecoder: an integral value that fits an Int is an Int, however it is written.
        if double == double.rounded(), double >= -9_223_372_036_854_775_808, double < 9_223_372_036_854_775_808 {
            return .int(Int(double))
        }
        return .double(double)
    }
}
