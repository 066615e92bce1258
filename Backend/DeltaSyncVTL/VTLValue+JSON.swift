import DeltaSyncCore
import OrderedCollections

/// A value written as JSON text straight from the value, with ``JSONWriter``'s pieces and
/// rules: the same bytes as `value.json.jsonText`, without building the ``JSONValue`` (and its
/// dictionaries) in between. `$util.toJson`, `$util.dynamodb.*Json` and `$util.transform.*`
/// write with it.
extension VTLValue {
    /// Compact JSON, object keys in the order of their UTF-8 bytes, as ``JSONWriter`` writes.
    var jsonText: String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        writeJSON(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func writeJSON(to out: inout [UInt8]) {
        switch self {
        case .null: JSONWriter.writeNull(to: &out)
        case .bool(let value): JSONWriter.writeBool(value, to: &out)
        case .int(let value): JSONWriter.writeInt(value, to: &out)
        case .double(let value): JSONWriter.writeDouble(value, to: &out)
        case .string(let value): JSONWriter.writeString(value, to: &out)
        case .list(let list): Self.writeArray(list.items, to: &out)
        case .map(let map):
            switch map.form {
            case .json(let object):
                JSONWriter.write(.object(object), to: &out)
            case .typed(let type, let value):
                out.append(UInt8(ascii: "{"))
                Self.writeMember(type, value, first: true, to: &out)
                out.append(UInt8(ascii: "}"))
            case .entry(let key, let value):
                out.append(UInt8(ascii: "{"))
                Self.writeMember("key", .string(key), first: true, to: &out)
                Self.writeMember("value", value, first: false, to: &out)
                out.append(UInt8(ascii: "}"))
            case .entries, .loopScope:
                Self.writeObject(map.entries, to: &out)
            }
        }
    }

    // Arrays and objects are written here rather than with JSONWriter's writeArray and
    // writeObject; the same bytes. Their elements are read by index from the arrays passed in,
    // which borrows them rather than retaining each, and objects whose keys are already in
    // JSONWriter's order are not sorted.

    private static func writeArray(_ items: [VTLValue], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for offset in items.indices {
            if offset > 0 { out.append(UInt8(ascii: ",")) }
            items[offset].writeJSON(to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// JSONWriter's key order: UTF-8 bytes, compared as unsigned. Maps made from JSON, and most
    /// a template builds, have their keys in that order already and need no sorting.
    private static func writeObject(_ entries: OrderedDictionary<String, VTLValue>, to out: inout [UInt8]) {
        let keys = entries.keys, values = entries.values
        out.append(UInt8(ascii: "{"))
        if inUTF8Order(keys) {
            for offset in keys.indices { writeMember(keys[offset], values[offset], first: offset == 0, to: &out) }
        } else {
            let order = keys.indices.sorted { precedes(keys[$0], keys[$1]) }
            for (position, offset) in order.enumerated() { writeMember(keys[offset], values[offset], first: position == 0, to: &out) }
        }
        out.append(UInt8(ascii: "}"))
    }

    private static func writeMember(_ key: String, _ value: VTLValue, first: Bool, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        JSONWriter.writeString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        value.writeJSON(to: &out)
    }

    private static func inUTF8Order(_ keys: OrderedSet<String>) -> Bool {
        for offset in keys.indices.dropFirst() where !precedes(keys[offset - 1], keys[offset]) { return false }
        return true
    }

    /// Whether `a` comes before `b` in the order of their UTF-8 bytes.
    static func precedes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y in
                for offset in 0..<min(x.count, y.count) where x[offset] != y[offset] { return x[offset] < y[offset] }
                return x.count < y.count
            }
        }
        return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
