import Foundation
import OrderedCollections

/// `$util`'s `str`, `math`, `list` and `map` families.
extension VTLUtil {
    static let stringFunctions: [String: VTLUtilFunction] = [
        "str.toUpper": { _, call in .string(call.text(0).uppercased()) },
        "str.toLower": { _, call in .string(call.text(0).lowercased()) },
        "str.toReplace": { _, call in .string(call.text(0).replacingOccurrences(of: call.text(1), with: call.text(2))) },
        "str.normalize": { _, call in
            switch call.text(1).lowercased() {
            case "nfc": return .string(call.text(0).precomposedStringWithCanonicalMapping)
            case "nfd": return .string(call.text(0).decomposedStringWithCanonicalMapping)
            case "nfkc": return .string(call.text(0).precomposedStringWithCompatibilityMapping)
            case "nfkd": return .string(call.text(0).decomposedStringWithCompatibilityMapping)
            default: throw call.failure("the form must be nfc, nfd, nfkc or nfkd")
            }
        },
    ]

    static let mathFunctions: [String: VTLUtilFunction] = [
        // Java's Math.round: halves go up (-2.5 gives -2).
        "math.roundNum": { _, call in .int(Int((try number(call, 0) + 0.5).rounded(.down))) },
        "math.minVal": { _, call in .double(min(try number(call, 0), try number(call, 1))) },
        "math.maxVal": { _, call in .double(max(try number(call, 0), try number(call, 1))) },
        "math.randomDouble": { _, _ in .double(Double.random(in: 0..<1)) },
        "math.randomWithinRange": { _, call in
            let low = Int(try number(call, 0)), high = Int(try number(call, 1))
            guard low <= high else { throw call.failure("the low end is above the high end") }
            return .int(Int.random(in: low...high))
        },
    ]

    static let listAndMapFunctions: [String: VTLUtilFunction] = [
        "list.copyAndRetainAll": { _, call in
            let keep = try list(call, 1).items
            return .list(VTLList(try list(call, 0).items.filter { keep.contains($0) }))
        },
        "list.copyAndRemoveAll": { _, call in
            let drop = try list(call, 1).items
            return .list(VTLList(try list(call, 0).items.filter { !drop.contains($0) }))
        },
        "list.sortList": { _, call in .list(VTLList(try sorted(try list(call, 0).items, descending: call[1].isTrue, by: call.text(2), call))) },
        "map.copyAndRetainAllKeys": { _, call in
            let keys = KeySet(try list(call, 1).items.map(\.rendered))
            return .map(VTLMap(try map(call, 0).entries.filter { keys.contains($0.key) }))
        },
        "map.copyAndRemoveAllKeys": { _, call in
            let keys = KeySet(try list(call, 1).items.map(\.rendered))
            return .map(VTLMap(try map(call, 0).entries.filter { !keys.contains($0.key) }))
        },
    ]

    /// Keys to keep or drop: scanned when they are the few templates give, hashed when more.
    private struct KeySet {
        let keys: [String]
        let set: Set<String>?

        init(_ keys: [String]) {
            self.keys = keys
            set = keys.count > 16 ? Set(keys) : nil
        }

        func contains(_ key: String) -> Bool { set?.contains(key) ?? keys.contains(key) }
    }

    private static func number(_ call: VTLUtilCall, _ offset: Int) throws -> Double {
        switch call[offset] {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: throw call.failure("argument \(offset + 1) must be a number")
        }
    }

    private static func list(_ call: VTLUtilCall, _ offset: Int) throws -> VTLList {
        guard case .list(let list) = call[offset] else { throw call.failure("argument \(offset + 1) must be a list") }
        return list
    }

    private static func map(_ call: VTLUtilCall, _ offset: Int) throws -> VTLMap {
        guard case .map(let map) = call[offset] else { throw call.failure("argument \(offset + 1) must be a map") }
        return map
    }

    /// `$util.list.sortList(list, descending, property)`: strings or numbers by value, maps by
    /// their `property`; a list of mixed kinds comes back as it was (a copy), as AppSync says.
    /// Entries without the property sort first, ascending.
    private static func sorted(_ items: [VTLValue], descending: Bool, by property: String, _ call: VTLUtilCall) throws -> [VTLValue] {
        guard items.count <= 1000 else {
            throw VTLUtilFailure(.whole, "$util.list.sortList sorts at most 1000 items, got \(items.count)")
        }
        func ascending(_ a: VTLValue, _ b: VTLValue) -> Bool? {
            switch (a, b) {
            case (.string(let x), .string(let y)): return x < y
            case (.null, .null): return false
            case (.null, _): return true
            case (_, .null): return false
            default:
                guard let (x, y) = VTLValue.numbers(a, b) else { return nil }
                return x < y
            }
        }
        let kinds = Set(items.map(\.typeName))
        guard kinds.count <= 1, let kind = kinds.first, ["String", "Number", "Map"].contains(kind) else { return items }
        let key: (VTLValue) -> VTLValue = { value in
            if case .map(let map) = value { return map.value(forKey: property) ?? .null }
            return value
        }
        // Every key must compare with every other, or the list stays as it was.
        let keys = items.map(key)
        for pair in zip(keys, keys.dropFirst()) where ascending(pair.0, pair.1) == nil { return items }
        let order = items.indices.sorted { left, right in
            let (a, b) = (keys[left], keys[right])
            let before = descending ? ascending(b, a) ?? false : ascending(a, b) ?? false
            let after = descending ? ascending(a, b) ?? false : ascending(b, a) ?? false
            return before || (!after && left < right)
        }
        return order.map { items[$0] }
    }
}
