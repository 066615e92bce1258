import DeltaSyncCore
import OrderedCollections

/// A Java `LinkedHashMap`: keys in insertion order, shared by every reference to it.
///
/// Maps a template makes in numbers and mostly only reads (a JSON object of the context,
/// `entrySet()`'s entries, DynamoDB typed values, `$foreach`) start in a compact ``Form`` that
/// answers ``value(forKey:)`` and is written as JSON without building the entries; the
/// entries are made the first time anything else needs them.
public final class VTLMap {
    /// What the map holds before its entries are made.
    enum Form {
        /// ``stored`` holds the entries.
        case entries
        /// A JSON object: its members, keys sorted, as ``VTLValue/init(json:)`` makes them.
        case json([String: JSONValue])
        /// `entrySet()`'s `{key=..., value=...}`.
        case entry(key: String, value: VTLValue)
        /// A DynamoDB typed value, `{S=...}`.
        case typed(type: String, value: VTLValue)
        /// `$foreach` at the item `offset` of `count`: `count`, `index`, `hasNext`, `first`, `last`.
        case loopScope(offset: Int, count: Int)
    }

    /// The entries, in insertion order; a map made from a JSON object has its keys sorted.
    public var entries: OrderedDictionary<String, VTLValue> {
        _read {
            if case .entries = form {} else { makeEntries() }
            yield stored
        }
        _modify {
            if case .entries = form {} else { makeEntries() }
            yield &stored
        }
    }

    // Unchecked: every access is through `entries` and the reads below, which do not overlap
    // one another, and the dynamic checks a class's properties get otherwise cost on every lookup.
    @exclusivity(unchecked) private var stored: OrderedDictionary<String, VTLValue>
    @exclusivity(unchecked) private(set) var form: Form

    /// A map of `entries`.
    public init(_ entries: OrderedDictionary<String, VTLValue> = [:]) {
        stored = entries
        form = .entries
    }

    init(_ form: Form) {
        stored = [:]
        self.form = form
    }

    /// The value of `key`, without making the entries of a compact map.
    func value(forKey key: String) -> VTLValue? {
        switch form {
        case .entries: return stored[key]
        case .json: return entries[key]
        case .entry(let entryKey, let value):
            if key == "key" { return .string(entryKey) }
            return key == "value" ? value : nil
        case .typed(let type, let value): return key == type ? value : nil
        case .loopScope(let offset, let count): return Self.loopScopeValue(key, offset, count)
        }
    }

    // MARK: - Making the entries

    private func makeEntries() {
        switch form {
        case .entries: return
        case .json(let json): stored = Self.entries(of: json)
        case .entry(let key, let value): stored = ["key": .string(key), "value": value]
        case .typed(let type, let value): stored = [type: value]
        case .loopScope(let offset, let count):
            stored = OrderedDictionary(uncheckedUniqueKeys: Self.loopScopeKeys, values: Self.loopScopeValues(offset, count))
        }
        form = .entries
    }

    /// A JSON object's members, keys and values sorted together in place by insertion
    /// (objects are small) rather than through an array of pairs.
    private static func entries(of json: [String: JSONValue]) -> OrderedDictionary<String, VTLValue> {
        var keys = ContiguousArray<String>()
        var values = ContiguousArray<VTLValue>()
        keys.reserveCapacity(json.count)
        values.reserveCapacity(json.count)
        for (key, value) in json {
            var offset = keys.count
            keys.append(key)
            values.append(VTLValue(json: value))
            while offset > 0, key < keys[offset - 1] {
                keys.swapAt(offset, offset - 1)
                values.swapAt(offset, offset - 1)
                offset -= 1
            }
        }
        return OrderedDictionary(uncheckedUniqueKeys: keys, values: values)
    }

    /// `$foreach`'s keys, in Velocity's order.
    private static let loopScopeKeys = ["count", "index", "hasNext", "first", "last"]

    private static func loopScopeValues(_ offset: Int, _ count: Int) -> [VTLValue] {
        loopScopeKeys.map { loopScopeValue($0, offset, count)! }
    }

    private static func loopScopeValue(_ key: String, _ offset: Int, _ count: Int) -> VTLValue? {
        switch key {
        case "count": return .int(offset + 1)
        case "index": return .int(offset)
        case "hasNext": return .bool(offset + 1 < count)
        case "first": return .bool(offset == 0)
        case "last": return .bool(offset + 1 == count)
        default: return nil
        }
    }

    // MARK: - Copies and JSON

    /// The map as JSON; a JSON object never changed is the object as it came.
    var json: JSONValue {
        if case .json(let json) = form { return .object(json) }
        return .object(Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value.json) }))
    }

    /// A new map of copies of the entries.
    var copied: VTLMap {
        switch form {
        case .json, .loopScope: return VTLMap(form)
        case .entry(let key, let value): return VTLMap(.entry(key: key, value: value.copied))
        case .typed(let type, let value): return VTLMap(.typed(type: type, value: value.copied))
        case .entries: return VTLMap(stored.mapValues(\.copied))
        }
    }
}
