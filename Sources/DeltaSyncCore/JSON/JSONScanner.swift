/// Finds where the values of JSON text lie without building them: what lets a sync page be
/// stored from the bytes the server sent instead of from a ``JSONValue`` per record.
///
/// It accepts exactly the text ``JSONParser`` accepts (the tests compare the two on generated
/// text): strings are checked for control characters and escapes, numbers for their grammar,
/// containers for nesting. What a value holds is read with ``JSONValue/init(parsingUTF8:)`` on its
/// ``Span`` when the caller needs it.
///
/// ```swift
/// var scanner = JSONScanner(bytes)
/// var items: JSONScanner.Span?
/// try scanner.members { name, scanner in
///     let value = try scanner.value()
///     if items == nil, name.isPlainString("items", in: bytes) { items = value }
/// }
/// ```
package struct JSONScanner {
    /// What kind of value a ``Span`` holds, with what a byte-level reader can use as it stands.
    package enum Kind: UInt8, Sendable {
        /// A string of ASCII without escapes: its bytes, inside the quotes, are its UTF-8.
        case plainString
        /// Any other string (escapes or non-ASCII bytes): parse it to read it.
        case string
        /// An integer of at most 18 digits with no fraction or exponent: ``integer(_:)`` reads it.
        case integer
        /// Any other number.
        case number
        case `true`, `false`, null, object, array
    }

    /// Where one value lies in the text.
    package struct Span: Sendable, Equatable {
        package var kind: Kind
        /// The whole value, quotes and brackets included.
        package var range: Range<Int>

        package init(kind: Kind, range: Range<Int>) {
            self.kind = kind
            self.range = range
        }

        /// A ``Kind/plainString``'s bytes without the quotes.
        package var contents: Range<Int> { range.lowerBound + 1..<range.upperBound - 1 }

        /// Whether this is a ``Kind/plainString`` of exactly `text`.
        package func isPlainString(_ text: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard kind == .plainString, contents.count == text.utf8.count else { return false }
            let own = UnsafeBufferPointer(rebasing: bytes[contents])
            return text.utf8.withContiguousStorageIfAvailable { JSONScanner.equal(own, $0) } ?? own.elementsEqual(text.utf8)
        }

        /// The value of an ``Kind/integer`` span.
        package func integer(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var index = range.lowerBound
            let negative = bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var magnitude = 0
            while index < range.upperBound {
                magnitude = magnitude &* 10 &+ Int(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return negative ? -magnitude : magnitude
        }

        /// The value this span holds, as ``JSONParser`` reads it.
        package func parse(in bytes: UnsafeBufferPointer<UInt8>) throws(JSONParser.Failure) -> JSONValue {
            try JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[range]))
        }
    }

    package let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next value is read.
    package var position: Int
    var depth = 0
    /// As ``JSONParser``'s limit.
    static let maximumDepth = 512

    /// A scanner at `start` of `bytes`.
    package init(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int = 0) {
        self.bytes = bytes
        position = start
    }

    func failure(_ reason: String) -> JSONParser.Failure {
        JSONParser.Failure(reason: reason, offset: position)
    }

    /// Skips the value at the current position (and the whitespace before it) and says where
    /// it lies.
    package mutating func value() throws(JSONParser.Failure) -> Span {
        skipWhitespace()
        guard position < bytes.count else { throw failure("expected a value, the text ended") }
        let start = position
        let kind: Kind
        switch bytes[position] {
        case UInt8(ascii: "\""): kind = try string()
        case UInt8(ascii: "{"):
            try members { _, scanner throws(JSONParser.Failure) in _ = try scanner.value() }
            kind = .object
        case UInt8(ascii: "["):
            try elements { element throws(JSONParser.Failure) in _ = try element.value() }
            kind = .array
        case UInt8(ascii: "t"): kind = try literal("true", .true)
        case UInt8(ascii: "f"): kind = try literal("false", .false)
        case UInt8(ascii: "n"): kind = try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = try number()
        default: throw failure("expected a value")
        }
        return Span(kind: kind, range: start..<position)
    }

    /// Reads the object at the current position, calling `body` with each member's name (a
    /// string's span) and the scanner at its value, in the text's order, duplicates included:
    /// `body` reads the value (``value()``, or ``members(_:)`` or ``elements(_:)`` to look
    /// inside it), so that text is read once however deep the caller looks.
    ///
    /// - Returns: where the object lies.
    @discardableResult
    package mutating func members(_ body: (Span, inout JSONScanner) throws(JSONParser.Failure) -> Void) throws(JSONParser.Failure)
        -> Range<Int>
    {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { throw failure("expected an object") }
        let start = position
        try nested { scanner throws(JSONParser.Failure) in
            scanner.position += 1
            if scanner.take(UInt8(ascii: "}")) { return }
            repeat {
                scanner.skipWhitespace()
                guard scanner.position < scanner.bytes.count, scanner.bytes[scanner.position] == UInt8(ascii: "\"") else {
                    throw scanner.failure("expected a member name in quotes")
                }
                let nameStart = scanner.position
                let name = Span(kind: try scanner.string(), range: nameStart..<scanner.position)
                guard scanner.take(UInt8(ascii: ":")) else { throw scanner.failure("expected ':' after a member name") }
                try body(name, &scanner)
            } while try !scanner.closes(UInt8(ascii: "}"), "object")
        }
        return start..<position
    }

    /// Reads the array at the current position, calling `body` with the scanner at each
    /// element in turn: `body` reads the element (``value()``, or ``members(_:)`` when
    /// ``atObject()``).
    package mutating func elements(_ body: (inout JSONScanner) throws(JSONParser.Failure) -> Void) throws(JSONParser.Failure) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "[") else { throw failure("expected a list") }
        try nested { scanner throws(JSONParser.Failure) in
            scanner.position += 1
            if scanner.take(UInt8(ascii: "]")) { return }
            repeat {
                try body(&scanner)
            } while try !scanner.closes(UInt8(ascii: "]"), "list")
        }
    }

    /// Whether the next value is an object.
    package mutating func atObject() -> Bool {
        skipWhitespace()
        return position < bytes.count && bytes[position] == UInt8(ascii: "{")
    }

    /// Whether the next value is a list.
    package mutating func atArray() -> Bool {
        skipWhitespace()
        return position < bytes.count && bytes[position] == UInt8(ascii: "[")
    }

    /// Checks that only whitespace follows the current position.
    package mutating func end() throws(JSONParser.Failure) {
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected text after the value") }
    }
}
