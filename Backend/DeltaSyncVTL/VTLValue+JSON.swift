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
            // Written here rather than with JSONWriter's generic writeArray and writeObject,
            // which are not specialised across modules: the same bytes.
            out.append(UInt8(ascii: "["))
            for (offset, item) in list.items.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                item.writeJSON(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .map(let map):
            let members = map.entries.elements
            // JSONWriter's key order: UTF-8 bytes, compared as unsigned.
            let ordered = members.count < 2 ? Array(members) : members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            out.append(UInt8(ascii: "{"))
            for (offset, member) in ordered.enumerated() {
                if offset > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.writeJSON(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
