import DeltaSyncCore
import GraphQL

/// Writes a response `Map` as JSON bytes, keys in the executor's order.
///
/// A sync page of 1,000 items is some 15,000 values; `Codable` encoding of `Map` spent more time
/// on them than reading and projecting the items did, so responses are written directly.
enum ResponseJSON {
    /// Pre-rendered JSON that replaces the value at `path` (keys from the top) when writing.
    struct Splice: Sendable {
        var path: [String]
        var json: [UInt8]
    }

    static func bytes(_ map: Map, splices: [Splice] = []) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096 + splices.reduce(0) { $0 + $1.json.count })
        write(map, path: [], splices: splices, to: &out)
        return out
    }

    /// Writes `map`, substituting the splices whose path is at or below `path`.
    private static func write(_ map: Map, path: [String], splices: [Splice], to out: inout [UInt8]) {
        if let splice = splices.first(where: { $0.path == path }) {
            out.append(contentsOf: splice.json)
        } else if case .dictionary(let fields) = map, splices.contains(where: { $0.path.starts(with: path) }) {
            writeObject(fields.filter { !$0.value.isUndefined }.map { ($0.key, $0.value) }, to: &out) { member, out in
                write(member.1, path: path + [member.0], splices: splices, to: &out)
            }
        } else {
            write(map, to: &out)
        }
    }

    static func write(_ map: Map, to out: inout [UInt8]) {
        switch map {
        case .undefined, .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): writeBool(b, to: &out)
        case .number(let n):
            switch n.storageType {
            case .bool: writeBool(n.boolValue, to: &out)
            case .int: out.append(contentsOf: String(n.intValue).utf8)
            case .double, .unknown: writeDouble(n.doubleValue, to: &out)
            }
        case .string(let s): writeString(s, to: &out)
        case .array(let elements): writeArray(elements, to: &out) { write($0, to: &$1) }
        case .dictionary(let fields):
            writeObject(fields.filter { !$0.value.isUndefined }.map { ($0.key, $0.value) }, to: &out) { write($0.1, to: &$1) }
        }
    }

    /// A stored value, written as the executor would serialise it for its scalar.
    static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): writeBool(b, to: &out)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): writeDouble(d, to: &out)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements): writeArray(elements, to: &out) { write($0, to: &$1) }
        case .object(let fields):
            writeObject(fields.keys.sorted().map { ($0, fields[$0]!) }, to: &out) { write($0.1, to: &$1) }
        }
    }

    // MARK: - Pieces

    private static func writeArray<Element>(
        _ elements: [Element], to out: inout [UInt8], _ each: (Element, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "["))
        for (i, element) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            each(element, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func writeObject<Value>(
        _ members: [(String, Value)], to out: inout [UInt8], _ each: ((String, Value), inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "{"))
        for (i, member) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            writeString(member.0, to: &out)
            out.append(UInt8(ascii: ":"))
            each(member, &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func writeBool(_ b: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: (b ? "true" : "false").utf8)
    }

    /// JSON has no infinities or NaN; GraphQL's Float cannot hold them either.
    private static func writeDouble(_ d: Double, to out: inout [UInt8]) {
        out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy those in one go.
        let copied = s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            out.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: Array("\\u00".utf8))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default:
                out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
