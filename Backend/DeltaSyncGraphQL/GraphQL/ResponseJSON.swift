import DeltaSyncCore
import GraphQL

/// Writes a response `Map` as JSON bytes, keys in the executor's order, with ``JSONWriter``'s
/// rules for everything else.
///
/// A sync page of 1,000 items is some 15,000 values; `Codable` encoding of `Map` spent more time
/// on them than reading and projecting the items did, so responses are written directly.
package enum ResponseJSON {
    /// Pre-rendered JSON that replaces the value at `path` (keys from the top) when writing.
    package struct Splice: Sendable {
        var path: [String]
        var json: [UInt8]
    }

    package static func bytes(_ map: Map, splices: [Splice] = []) -> [UInt8] {
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
            JSONWriter.writeObject(fields.lazy.filter { !$0.value.isUndefined }.map { (key: $0.key, value: ($0.key, $0.value)) }, to: &out) {
                member, out in write(member.1, path: path + [member.0], splices: splices, to: &out)
            }
        } else if case .array(let elements) = map, splices.contains(where: { $0.path.count > path.count && $0.path.starts(with: path) }) {
            // A relation connection's items inside a list: splice paths name indices in digits.
            JSONWriter.writeArray(Array(elements.enumerated()), to: &out) { element, out in
                write(element.element, path: path + [String(element.offset)], splices: splices, to: &out)
            }
        } else {
            write(map, to: &out)
        }
    }

    package static func write(_ map: Map, to out: inout [UInt8]) {
        switch map {
        case .undefined, .null: JSONWriter.writeNull(to: &out)
        case .bool(let b): JSONWriter.writeBool(b, to: &out)
        case .number(let n):
            switch n.storageType {
            case .bool: JSONWriter.writeBool(n.boolValue, to: &out)
            case .int: JSONWriter.writeInt(n.intValue, to: &out)
            case .double, .unknown: JSONWriter.writeDouble(n.doubleValue, to: &out)
            }
        case .string(let s): JSONWriter.writeString(s, to: &out)
        case .array(let elements): JSONWriter.writeArray(elements, to: &out) { write($0, to: &$1) }
        case .dictionary(let fields):
            JSONWriter.writeObject(fields.lazy.filter { !$0.value.isUndefined }, to: &out) { write($0, to: &$1) }
        }
    }
}
