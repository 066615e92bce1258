import DeltaSyncCore

/// A value written as JSON text straight from the value, with ``JSONWriter``'s pieces and
/// rules: the same bytes as `value.json.jsonText`, without building the ``JSONValue`` (and its
/// dictionaries) in between. `$util.toJson`, `$util.dynamodb.*Json` and `$util.transform.*`
/// write with it.
extension VTLValue {
    /// Compact JSON, object keys in the order of their UTF-8 bytes, as ``JSONWriter`` writes.
    var jsonText: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
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
        case .list(let list):
            JSONWriter.writeArray(list.items, to: &out) { $0.writeJSON(to: &$1) }
        case .map(let map):
            let members = map.entries.elements
            // JSONWriter's key order: UTF-8 bytes, compared as unsigned.
            let ordered = members.count < 2 ? Array(members) : members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            JSONWriter.writeObject(ordered, to: &out) { $0.writeJSON(to: &$1) }
        }
    }
}
