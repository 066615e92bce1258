/// The one JSON writer: stored items, the delta and conflict logs, the client's outbox, and
/// every response the server writes. Compact text with stated, platform-independent rules, so
/// stored text compares byte for byte wherever it was written:
///
/// - **No whitespace.**
/// - **Object keys** of a ``JSONValue`` in the order of their UTF-8 bytes (`"B" < "a" < "a1" <
///   "a10" < "a2" < "é"`). Callers that write ordered members (a GraphQL response follows its
///   selection) use ``writeObject(_:to:_:)`` with their own order.
/// - **Integers** in decimal. **Doubles** as Swift's shortest text that reads back as the same
///   double, without a trailing `.0` (`1`, `1.5`, `1e+20`, `1e-07`, `-0`); NaN and infinities,
///   which JSON cannot hold, as `null`.
/// - **Strings** escape `"` and `\` with a backslash, the controls U+0008, U+0009, U+000A,
///   U+000C and U+000D as `\b \t \n \f \r`, and the other controls below U+0020 as `\u00xx`
///   (lowercase hex). Everything else, `/` and non-ASCII included, is written as UTF-8.
///
/// These are the rules Foundation's `JSONEncoder` follows on Linux with `.sortedKeys` and
/// `.withoutEscapingSlashes`, which wrote DeltaSync's stored text before this writer; the tests
/// keep `JSONEncoder` as an oracle.
///
/// ```swift
/// var out: [UInt8] = []
/// JSONWriter.write(["tags": ["a", "b"], "rating": 4], to: &out)   // {"rating":4,"tags":["a","b"]}
/// ```
public enum JSONWriter {
    /// `value` as compact JSON bytes.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, to: &out)
        return out
    }

    public static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: writeNull(to: &out)
        case .bool(let b): writeBool(b, to: &out)
        case .int(let i): writeInt(i, to: &out)
        case .double(let d): writeDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements): writeArray(elements, to: &out) { write($0, to: &$1) }
        case .object(let fields):
            let members = fields.count < 2 ? Array(fields) : fields.sorted { precedes($0.key, $1.key) }
            writeObject(members, to: &out) { write($0, to: &$1) }
        }
    }

    /// Key order: UTF-8 bytes, compared as unsigned.
    fileprivate static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: - Pieces, for writers of other value types (a GraphQL response's map)

    private static let null = Array("null".utf8)
    private static let `true` = Array("true".utf8)
    private static let `false` = Array("false".utf8)

    public static func writeNull(to out: inout [UInt8]) {
        out.append(contentsOf: null)
    }

    public static func writeBool(_ b: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: b ? Self.true : Self.false)
    }

    /// Decimal digits, written in place: a page writes a few integers per item, and making a
    /// `String` of each showed in profiles.
    public static func writeInt(_ i: Int, to out: inout [UInt8]) {
        if i < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = i.magnitude
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[start...].reverse()
    }

    public static func writeDouble(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else { return writeNull(to: &out) }
        let text = d.description
        if text.hasSuffix(".0") {
            out.append(contentsOf: text.utf8.dropLast(2))
        } else {
            out.append(contentsOf: text.utf8)
        }
    }

    /// An array whose elements `element` writes. Inlinable, as ``writeObject(_:to:_:)``: a
    /// generic called from another module is otherwise not specialised, and responses iterate
    /// their values through witness tables (`docs/benchmarks.md`, the worst request).
    @inlinable
    public static func writeArray<Element>(
        _ elements: some Collection<Element>, to out: inout [UInt8], _ element: (Element, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "["))
        var first = true
        for value in elements {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            element(value, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// An object of `members`, in their order; `value` writes each member's value.
    @inlinable
    public static func writeObject<Value>(
        _ members: some Sequence<(key: String, value: Value)>, to out: inout [UInt8], _ value: (Value, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for member in members {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeString(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            value(member.value, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static let hex = Array("0123456789abcdef".utf8)

    public static func writeString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { writeEscaped($0, to: &out) }
    }

    /// ``writeString(_:to:)`` of text given as UTF-8 bytes (as SQLite returns it), without
    /// making a `String` of it first. Bytes that are not UTF-8 are repaired as
    /// `String(decoding:as:)` repairs them.
    public static func writeString(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        // Plain ASCII, the common case, is copied as it is after one look at each byte.
        guard bytes.contains(where: { $0 >= 0x80 || needsEscape($0) }) else {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        guard bytes.contains(where: { $0 >= 0x80 }) else { return writeEscaped(bytes, to: &out) }
        writeString(String(decoding: bytes, as: UTF8.self), to: &out)
    }

    /// A string of valid UTF-8, quoted and escaped.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy those in one go.
        guard bytes.contains(where: needsEscape) else {
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in bytes {
            guard needsEscape(byte) else {
                out.append(byte)
                continue
            }
            out.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(byte)
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            default:
                out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}

extension JSONValue {
    /// Indented JSON (four spaces) with ``JSONWriter``'s key order and escaping, for files
    /// people read (`amplifyconfiguration.json`).
    public var prettyText: String { pretty(indent: "") }

    private func pretty(indent: String) -> String {
        let inner = indent + "    "
        switch self {
        case .object(let object) where !object.isEmpty:
            let members = object.sorted { JSONWriter.precedes($0.key, $1.key) }.map { key, value in
                "\(inner)\(JSONValue.string(key).jsonText): \(value.pretty(indent: inner))"
            }
            return "{\n" + members.joined(separator: ",\n") + "\n\(indent)}"
        case .array(let list) where !list.isEmpty:
            return "[\n" + list.map { inner + $0.pretty(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        default:
            return jsonText
        }
    }
}
