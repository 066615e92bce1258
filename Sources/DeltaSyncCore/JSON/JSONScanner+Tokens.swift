/// The tokens of JSON text: whitespace, literals, strings and numbers, each checked by JSON's
/// grammar and skipped. ``JSONScanner`` reads values with them, and ``JSONParser`` reads its
/// tokens through them too, so the two accept the same text by construction.
extension JSONScanner {
    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace and then `byte`, if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// After a member or an element: `true` when `closing` ends the container (skipped),
    /// `false` after a comma.
    mutating func closes(_ closing: UInt8, _ container: String) throws(JSONParser.Failure) -> Bool {
        if take(UInt8(ascii: ",")) { return false }
        if take(closing) { return true }
        guard position < bytes.count else { throw failure("the \(container) is not closed") }
        throw failure("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
    }

    mutating func nested(_ body: (inout JSONScanner) throws(JSONParser.Failure) -> Void) throws(JSONParser.Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        defer { depth -= 1 }
        try body(&self)
    }

    mutating func literal(_ word: StaticString, _ kind: Kind) throws(JSONParser.Failure) -> Kind {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            Self.equal(UnsafeBufferPointer(rebasing: bytes[position..<position + count]), UnsafeBufferPointer(start: word.utf8Start, count: count))
        else { throw failure("expected a value") }
        position += count
        return kind
    }

    /// Whether `a` and `b` hold the same bytes: for names and literals, a few bytes each, where
    /// the standard library's `elementsEqual` cost more than the rest of the scan.
    package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] { return false }
        return true
    }

    /// A string starting at its opening quote; escapes are checked as ``unescaped(_:)`` reads
    /// them.
    mutating func string() throws(JSONParser.Failure) -> Kind {
        position += 1
        var plain = true
        while position < bytes.count {
            position = Self.endOfPlainRun(bytes, from: position)
            guard position < bytes.count else { break }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return plain ? .plainString : .string
            case UInt8(ascii: "\\"):
                plain = false
                position += 1
                guard position < bytes.count else { throw failure("the string is not closed") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                    UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"): try unicodeEscape()
                default:
                    position -= 1
                    throw failure("unknown escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            default:
                if byte < 0x20 { throw failure("a control character must be escaped in a string") }
                plain = false
                position += 1
            }
        }
        throw failure("the string is not closed")
    }

    /// The UTF-8 of string contents ``string()`` accepted, escapes replaced by what they stand
    /// for.
    static func unescaped(_ contents: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(contents.count)
        var index = 0
        while index < contents.count {
            let byte = contents[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                continue
            }
            let escape = contents[index]
            index += 1
            switch escape {
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var unit = hexValue(contents, at: index)
                index += 4
                if (0xD800...0xDBFF).contains(unit) {
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (hexValue(contents, at: index + 2) - 0xDC00)
                    index += 6
                }
                // `string()` let through only units that make a scalar.
                utf8.append(contentsOf: String(Character(Unicode.Scalar(unit)!)).utf8)
            default: utf8.append(escape)  // `"`, `\`, `/`
            }
        }
        return utf8
    }

    /// Where the run of bytes from `start` that need no second look in a string ends: printable
    /// ASCII other than the quote and the backslash. Most of a page's bytes are such runs; they
    /// are skipped eight at a time.
    package static func endOfPlainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let end = bytes.count
        var index = start
        while index + 8 <= end {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if needsLook(word) { break }
            index += 8
        }
        while index < end {
            let byte = base[index]
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
            index += 1
        }
        return index
    }

    /// Whether any byte of `word` is not printable ASCII, or is a quote or a backslash (the
    /// word-wide tests for a zero byte and for a byte below a bound).
    private static func needsLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let quotes = (quote &- ones) & ~quote
        let backslashes = (backslash &- ones) & ~backslash
        return (word | control | quotes | backslashes) & highs != 0
    }

    /// A `\uXXXX` escape after the `u`, with its low surrogate when it is a high one.
    mutating func unicodeEscape() throws(JSONParser.Failure) {
        let unit = try hexUnit()
        if (0xD800...0xDBFF).contains(unit) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw failure("a high surrogate must be followed by a low one")
            }
            position += 2
            guard (0xDC00...0xDFFF).contains(try hexUnit()) else { throw failure("a high surrogate must be followed by a low one") }
        } else if (0xDC00...0xDFFF).contains(unit) {
            throw failure("a low surrogate without a high one")
        }
    }

    mutating func hexUnit() throws(JSONParser.Failure) -> UInt32 {
        guard position + 4 <= bytes.count, (position..<position + 4).allSatisfy({ Self.hexDigit(bytes[$0]) != nil }) else {
            throw failure("expected four hex digits")
        }
        defer { position += 4 }
        return Self.hexValue(bytes, at: position)
    }

    /// The four hex digits at `index`, which are known to be hex digits.
    private static func hexValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32 {
        (index..<index + 4).reduce(0) { unit, i in unit << 4 | UInt32(hexDigit(bytes[i]) ?? 0) }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// A number, by JSON's grammar; one past a 64-bit float's range is refused, as the parser
    /// cannot read it.
    mutating func number() throws(JSONParser.Failure) -> Kind {
        let start = position
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let digits = skipDigits()
        guard digits > 0 else { throw failure("expected a digit") }
        if bytes[integerStart] == UInt8(ascii: "0"), digits > 1 {
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
        if isIntegerText, digits <= 18 { return .integer }
        guard let double = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)), double.isFinite else {
            position = start
            throw failure("the number does not fit a 64-bit float")
        }
        return .number
    }

    /// Skips decimal digits; returns how many.
    mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position - start
    }
}
