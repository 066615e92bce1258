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
        if splices.isEmpty {
            write(map, to: &out)
        } else {
            write(map, path: [], splices: splices, to: &out)
        }
        return out
    }

    private static func write(_ map: Map, path: [String], splices: [Splice], to out: inout [UInt8]) {
        if let splice = splices.first(where: { $0.path == path }) {
            out.append(contentsOf: splice.json)
            return
        }
        guard case .dictionary(let fields) = map, splices.contains(where: { $0.path.starts(with: path) }) else {
            write(map, to: &out)
            return
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in fields where !value.isUndefined {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            write(value, path: path + [key], splices: splices, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A stored value, written as the executor would serialise it for its scalar.
    static func write(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
        case .string(let s): writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(fields[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func write(_ map: Map, to out: inout [UInt8]) {
        switch map {
        case .undefined, .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n):
            switch n.storageType {
            case .bool: out.append(contentsOf: (n.boolValue ? "true" : "false").utf8)
            case .int: out.append(contentsOf: String(n.intValue).utf8)
            case .double, .unknown:
                let d = n.doubleValue
                out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
            }
        case .string(let s):
            writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .dictionary(let fields):
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, value) in fields where !value.isUndefined {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(value, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
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
