import Foundation
import OrderedCollections

/// The XML reader of `$util.xml`: a document as a map of its root element, as AppSync's
/// documented outputs show it (and as the org.json reader they match does).
///
/// An element with child elements is a map of them, in document order; a name repeated among
/// siblings is a list of their values. An element of text alone is its text, trimmed, read as
/// a number, `true`, `false` or `null` when it is one (`<id>1</id>` is `1`; `007` stays text);
/// CDATA stays text; an empty element is `""`. Text beside child elements is under `content`
/// (a list when in several pieces). Attributes, comments, processing instructions and the
/// document type are read and left out. What is not well-formed XML is a ``Failure`` naming
/// its line and column.
///
/// ```swift
/// try VTLXMLReader.read("<posts><post><id>1</id></post></posts>")   // {posts={post={id=1}}}
/// ```
struct VTLXMLReader {
    /// Why the text is not XML, and where (lines and columns from 1).
    struct Failure: Error {
        let message: String
        let line: Int
        let column: Int
    }

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    /// Elements may nest this deep: a reader that recurses must stop somewhere.
    static let depthLimit = 256

    /// The document `text` as `{root: value}`.
    static func read(_ text: String) throws(Failure) -> VTLValue {
        var reader = VTLXMLReader(bytes: Array(text.utf8))
        return try reader.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func document() throws(Failure) -> VTLValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
        try skipMarkupBetweenElements()
        guard current == UInt8(ascii: "<") else { throw failure("the XML has no root element") }
        let (name, value) = try element()
        try skipMarkupBetweenElements()
        guard offset == bytes.count else { throw failure("text after the root element <\(name)>") }
        return .map(VTLMap([name: value]))
    }

    // MARK: - Elements

    /// `<name attributes>content</name>` or `<name attributes/>`.
    private mutating func element() throws(Failure) -> (String, VTLValue) {
        let start = offset
        offset += 1
        let name = try self.name()
        try skipAttributes()
        if consume("/>") { return (name, .string("")) }
        try expect(">", "<\(name) needs its '>'")
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.depthLimit else { throw failure("elements nest deeper than \(Self.depthLimit)") }
        var children = OrderedDictionary<String, VTLValue>()
        var repeated = Set<String>()
        var pieces: [String] = []
        var text = ""
        var hasCDATA = false
        while true {
            guard offset < bytes.count else { throw failure("<\(name)> is never closed", at: start) }
            let tagStart = offset
            if consume("</") {
                let closing = try self.name()
                skipWhitespace()
                try expect(">", "</\(closing) needs its '>'")
                guard closing == name else { throw failure("</\(closing)> closes <\(name)>", at: tagStart) }
                break
            } else if starts(with: "<!--") {
                try skip(past: "-->", "a comment is never closed")
            } else if starts(with: "<?") {
                try skip(past: "?>", "a processing instruction is never closed")
            } else if consume("<![CDATA[") {
                text += try cdata()
                hasCDATA = true
            } else if current == UInt8(ascii: "<") {
                Self.end(&text, into: &pieces)
                let (childName, value) = try element()
                Self.add(value, as: childName, to: &children, repeated: &repeated)
            } else {
                text += try characters()
            }
        }
        Self.end(&text, into: &pieces)
        if children.isEmpty {
            let whole = pieces.joined(separator: " ")
            return (name, hasCDATA ? .string(whole) : Self.value(ofText: whole))
        }
        for piece in pieces { Self.add(Self.value(ofText: piece), as: "content", to: &children, repeated: &repeated) }
        return (name, .map(VTLMap(children)))
    }

    /// A sibling's value: the first of a name is the value, a second makes a list.
    private static func add(_ value: VTLValue, as name: String, to children: inout OrderedDictionary<String, VTLValue>, repeated: inout Set<String>) {
        guard let existing = children[name] else { return children[name] = value }
        if repeated.contains(name), case .list(let list) = existing {
            list.items.append(value)
        } else {
            children[name] = .list(VTLList([existing, value]))
            repeated.insert(name)
        }
    }

    /// A run of text ended by markup: kept, trimmed, when it is more than blanks.
    private static func end(_ text: inout String, into pieces: inout [String]) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { pieces.append(trimmed) }
        text = ""
    }

    /// Text read as org.json reads it: a number in JSON's spelling, `true`, `false`, `null`.
    static func value(ofText text: String) -> VTLValue {
        switch text.lowercased() {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        guard text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil else {
            return .string(text)
        }
        if let integer = Int(text) { return .int(integer) }
        return Double(text).map(VTLValue.double) ?? .string(text)
    }

    // MARK: - Characters and markup

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        return text.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[offset + $0] == expected[$0] } }
    }

    private mutating func consume(_ text: StaticString) -> Bool {
        guard starts(with: text) else { return false }
        offset += text.utf8CodeUnitCount
        return true
    }

    private mutating func expect(_ text: StaticString, _ message: @autoclosure () -> String) throws(Failure) {
        guard consume(text) else { throw failure(message()) }
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }

    private mutating func skip(past end: StaticString, _ message: String) throws(Failure) {
        let start = offset
        while offset < bytes.count, !starts(with: end) { offset += 1 }
        guard consume(end) else { throw failure(message, at: start) }
    }

    /// Blanks, comments, processing instructions (the `<?xml ...?>` declaration) and the
    /// document type, before and after the root element.
    private mutating func skipMarkupBetweenElements() throws(Failure) {
        while true {
            skipWhitespace()
            if starts(with: "<?") {
                try skip(past: "?>", "a processing instruction is never closed")
            } else if starts(with: "<!--") {
                try skip(past: "-->", "a comment is never closed")
            } else if starts(with: "<!DOCTYPE") {
                let start = offset
                var brackets = 0
                while let byte = current, !(byte == UInt8(ascii: ">") && brackets == 0) {
                    if byte == UInt8(ascii: "[") { brackets += 1 }
                    if byte == UInt8(ascii: "]") { brackets -= 1 }
                    offset += 1
                }
                guard current != nil else { throw failure("the document type is never closed", at: start) }
                offset += 1
            } else {
                return
            }
        }
    }

    /// An element's or attribute's name: letters, digits, `-`, `_`, `.`, `:` and any
    /// character past ASCII, not starting with a digit, `-` or `.`.
    private mutating func name() throws(Failure) -> String {
        let start = offset
        func isNameByte(_ byte: UInt8) -> Bool {
            byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
        }
        while let byte = current, isNameByte(byte) { offset += 1 }
        guard offset > start, !"0123456789-.".utf8.contains(bytes[start]) else { throw failure("a name is missing", at: start) }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// Attributes up to `>` or `/>`: read to check them, then left out.
    private mutating func skipAttributes() throws(Failure) {
        while true {
            skipWhitespace()
            if current == UInt8(ascii: ">") || starts(with: "/>") || current == nil { return }
            let name = try self.name()
            skipWhitespace()
            try expect("=", "the attribute \(name) needs '=' and a quoted value")
            skipWhitespace()
            guard let quote = current, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw failure("the attribute \(name) needs a quoted value")
            }
            let start = offset
            offset += 1
            while let byte = current, byte != quote {
                guard byte != UInt8(ascii: "<") else { throw failure("'<' inside the value of the attribute \(name)") }
                offset += 1
            }
            guard current == quote else { throw failure("the value of the attribute \(name) is never closed", at: start) }
            offset += 1
        }
    }

    /// Text up to the next `<`, its entities decoded.
    private mutating func characters() throws(Failure) -> String {
        var text: [UInt8] = []
        while let byte = current, byte != UInt8(ascii: "<") {
            if byte == UInt8(ascii: "&") {
                text.append(contentsOf: try entity().utf8)
            } else {
                text.append(byte)
                offset += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#65;` and `&#x41;`.
    private mutating func entity() throws(Failure) -> String {
        let start = offset
        guard let end = bytes[offset...].firstIndex(of: UInt8(ascii: ";")), end - offset <= 10 else {
            throw failure("'&' starts no entity; write &amp; for an ampersand")
        }
        let name = String(decoding: bytes[(offset + 1)..<end], as: UTF8.self)
        offset = end + 1
        switch name {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let number = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : name.hasPrefix("#") ? UInt32(name.dropFirst()) : nil
            guard let number, let scalar = Unicode.Scalar(number) else {
                throw failure("&\(name); is no entity XML defines", at: start)
            }
            return String(Character(scalar))
        }
    }

    /// `<![CDATA[...]]>`'s text, after its opening.
    private mutating func cdata() throws(Failure) -> String {
        let start = offset
        while offset < bytes.count, !starts(with: "]]>") { offset += 1 }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        guard consume("]]>") else { throw failure("a CDATA section is never closed", at: start) }
        return text
    }

    private func failure(_ message: String, at position: Int? = nil) -> Failure {
        let position = min(position ?? offset, bytes.count)
        let lineStart = bytes[..<position].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = bytes[..<position].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        // Columns count characters: UTF-8 bytes that do not continue one.
        let column = bytes[lineStart..<position].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return Failure(message: message, line: line, column: column)
    }
}
