import DeltaSyncCore
import Foundation
import OrderedCollections

/// `$util`'s encoding functions and its `str`, `math`, `list` and `map` families.
extension VTLUtil {
    /// The value of `$util.<path>(arguments)` for the functions here; `nil` for a name they do not have.
    static func family(_ name: String, _ arguments: [VTLValue], in evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue? {
        func argument(_ offset: Int) -> VTLValue { arguments.indices.contains(offset) ? arguments[offset] : .null }
        func text(_ offset: Int) -> String { argument(offset).rendered }
        func fail(_ message: String) -> VTLError { evaluation.failure("$util.\(name): \(message)", at: position) }
        func number(_ offset: Int) throws -> Double {
            switch argument(offset) {
            case .int(let value): return Double(value)
            case .double(let value): return value
            default: throw fail("argument \(offset + 1) must be a number")
            }
        }
        func list(_ offset: Int) throws -> VTLList {
            guard case .list(let list) = argument(offset) else { throw fail("argument \(offset + 1) must be a list") }
            return list
        }
        func map(_ offset: Int) throws -> VTLMap {
            guard case .map(let map) = argument(offset) else { throw fail("argument \(offset + 1) must be a map") }
            return map
        }
        switch name {
        case "urlEncode":
            var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
            allowed.insert(charactersIn: "-_.*")
            // Java's URLEncoder: a space is '+'.
            let encoded = text(0).addingPercentEncoding(withAllowedCharacters: allowed.union(CharacterSet(charactersIn: " "))) ?? ""
            return .string(encoded.replacingOccurrences(of: " ", with: "+"))
        case "urlDecode":
            return .string(text(0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text(0))
        case "base64Encode":
            return .string(Data(text(0).utf8).base64EncodedString())
        case "base64Decode":
            guard let data = Data(base64Encoded: text(0)) else { throw fail("'\(text(0))' is not base64") }
            return .string(String(decoding: data, as: UTF8.self))
        case "escapeJavaScript":
            var out = ""
            for scalar in text(0).unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "'": out += "\\'"
                case "\\": out += "\\\\"
                case "/": out += "\\/"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 || scalar.value > 0x7e {
                        out += String(format: "\\u%04X", scalar.value)
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return .string(out)
        case "str.toUpper": return .string(text(0).uppercased())
        case "str.toLower": return .string(text(0).lowercased())
        case "str.toReplace": return .string(text(0).replacingOccurrences(of: text(1), with: text(2)))
        case "str.normalize":
            switch text(1).lowercased() {
            case "nfc": return .string(text(0).precomposedStringWithCanonicalMapping)
            case "nfd": return .string(text(0).decomposedStringWithCanonicalMapping)
            case "nfkc": return .string(text(0).precomposedStringWithCompatibilityMapping)
            case "nfkd": return .string(text(0).decomposedStringWithCompatibilityMapping)
            default: throw fail("the form must be nfc, nfd, nfkc or nfkd")
            }
        case "math.roundNum":
            // Java's Math.round: halves go up (-2.5 gives -2).
            return .int(Int((try number(0) + 0.5).rounded(.down)))
        case "math.minVal": return .double(min(try number(0), try number(1)))
        case "math.maxVal": return .double(max(try number(0), try number(1)))
        case "math.randomDouble": return .double(Double.random(in: 0..<1))
        case "math.randomWithinRange":
            let low = Int(try number(0)), high = Int(try number(1))
            guard low <= high else { throw fail("the low end is above the high end") }
            return .int(Int.random(in: low...high))
        case "list.copyAndRetainAll":
            let keep = try list(1).items
            return .list(VTLList(try list(0).items.filter { keep.contains($0) }))
        case "list.copyAndRemoveAll":
            let drop = try list(1).items
            return .list(VTLList(try list(0).items.filter { !drop.contains($0) }))
        case "list.sortList":
            return .list(VTLList(try sorted(list(0).items, descending: argument(1).isTrue, by: text(2), at: position, in: evaluation)))
        case "map.copyAndRetainAllKeys":
            let keys = Set(try list(1).items.map(\.rendered))
            return .map(VTLMap(try map(0).entries.filter { keys.contains($0.key) }))
        case "map.copyAndRemoveAllKeys":
            let keys = Set(try list(1).items.map(\.rendered))
            return .map(VTLMap(try map(0).entries.filter { !keys.contains($0.key) }))
        default:
            return nil
        }
    }

    /// `$util.list.sortList(list, descending, property)`: strings or numbers by value, maps by
    /// their `property`; a list of mixed kinds comes back as it was (a copy), as AppSync says.
    /// Entries without the property sort first, ascending.
    private static func sorted(_ items: [VTLValue], descending: Bool, by property: String, at position: VTLPosition, in evaluation: VTLEvaluation) throws -> [VTLValue] {
        guard items.count <= 1000 else {
            throw evaluation.failure("$util.list.sortList sorts at most 1000 items, got \(items.count)", at: position)
        }
        func ascending(_ a: VTLValue, _ b: VTLValue) -> Bool? {
            switch (a, b) {
            case (.string(let x), .string(let y)): return x < y
            case (.null, .null): return false
            case (.null, _): return true
            case (_, .null): return false
            default:
                guard let (x, y) = VTLEvaluation.numbers(a, b) else { return nil }
                return x < y
            }
        }
        let kinds = Set(items.map(\.typeName))
        guard kinds.count <= 1, let kind = kinds.first, ["String", "Number", "Map"].contains(kind) else { return items }
        let key: (VTLValue) -> VTLValue = { value in
            if case .map(let map) = value { return map.entries[property] ?? .null }
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
