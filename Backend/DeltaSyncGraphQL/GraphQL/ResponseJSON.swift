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
        write(map, depth: 0, splices: splices, to: &out)
        return out
    }

    /// Writes `map`, the value at `depth` of every splice's path (all of them lie at or below
    /// it), substituting them. Each level hands a child only the splices below that child, so a
    /// list of n parents with a nested connection each costs O(n), not a search of all n
    /// splices at every value. Splice paths name list indices in digits.
    private static func write(_ map: Map, depth: Int, splices: [Splice], to out: inout [UInt8]) {
        guard !splices.isEmpty else { return write(map, to: &out) }
        if let splice = splices.first(where: { $0.path.count == depth }) {
            out.append(contentsOf: splice.json)
            return
        }
        let below = Dictionary(grouping: splices) { $0.path[depth] }
        switch map {
        case .dictionary(let fields):
            let members = fields.lazy.filter { !$0.value.isUndefined }.map { (key: $0.key, value: ($0.key, $0.value)) }
            JSONWriter.writeObject(members, to: &out) { member, out in
                write(member.1, depth: depth + 1, splices: below[member.0] ?? [], to: &out)
            }
        case .array(let elements):
            JSONWriter.writeArray(Array(elements.enumerated()), to: &out) { element, out in
                write(element.element, depth: depth + 1, splices: below[String(element.offset)] ?? [], to: &out)
            }
        default:
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
