import Foundation
import OrderedCollections

/// Java's methods on the values templates hold (`String`, `List`, `Map`, numbers), and
/// Velocity's property shorthand (`$map.key`, `$list.empty` for `isEmpty()`).
enum VTLMethods {
    /// `$value.name`: a map's entry (null when absent), else the getter `name()`, `getName()`
    /// or `isName()`.
    static func property(_ name: String, of value: VTLValue, evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        if case .map(let map) = value { return map.entries[name] ?? .null }
        if case .null = value { return .null }
        let capitalized = name.prefix(1).uppercased() + name.dropFirst()
        for candidate in [name, "get" + capitalized, "is" + capitalized] where knows(candidate, on: value) {
            return try call(candidate, on: value, [], evaluation: evaluation, at: position)
        }
        return .null
    }

    /// `$list[0]`, `$map["key"]`.
    static func element(_ key: VTLValue, of value: VTLValue, evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        switch (value, key) {
        case (.map(let map), _): return map.entries[key.rendered] ?? .null
        case (.list(let list), .int(let index)): return list.items.indices.contains(index) ? list.items[index] : .null
        case (.null, _): return .null
        default: throw evaluation.failure("a \(value.typeName) cannot be indexed with a \(key.typeName)", at: position)
        }
    }

    private static func knows(_ name: String, on value: VTLValue) -> Bool {
        switch value {
        case .string: return ["length", "isEmpty", "toUpperCase", "toLowerCase", "trim", "toString"].contains(name)
        case .list: return ["size", "isEmpty", "toString"].contains(name)
        default: return name == "toString"
        }
    }

    static func call(_ name: String, on value: VTLValue, _ arguments: [VTLValue], evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        try call(VTLMethodName(name), on: value, arguments, evaluation: evaluation, at: position)
    }

    static func call(_ method: VTLMethodName, on value: VTLValue, _ arguments: [VTLValue], evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        let name = method.text
        func fail() -> VTLError {
            evaluation.failure("a \(value.typeName) has no method \(name) taking \(arguments.count) argument\(arguments.count == 1 ? "" : "s")", at: position)
        }
        func argument(_ offset: Int) -> VTLValue { arguments.indices.contains(offset) ? arguments[offset] : .null }
        func int(_ offset: Int) throws -> Int {
            guard case .int(let number) = argument(offset) else { throw fail() }
            return number
        }
        if case .null = value { return .null }
        switch (method.known, arguments.count) {
        case (.equals?, 1): return .bool(value == arguments[0])
        case (.toString?, 0): return .string(value.rendered)
        default: break
        }
        switch value {
        case .string(let string):
            // Java counts and indexes strings in UTF-16 code units.
            switch (method.known, arguments.count) {
            case (.length?, 0): return .int(string.utf16.count)
            case (.isEmpty?, 0): return .bool(string.isEmpty)
            case (.contains?, 1): return .bool(string.contains(argument(0).rendered))
            case (.startsWith?, 1): return .bool(string.hasPrefix(argument(0).rendered))
            case (.endsWith?, 1): return .bool(string.hasSuffix(argument(0).rendered))
            case (.toUpperCase?, 0): return .string(string.uppercased())
            case (.toLowerCase?, 0): return .string(string.lowercased())
            case (.trim?, 0): return .string(string.trimmingCharacters(in: .whitespacesAndNewlines))
            case (.indexOf?, 1):
                guard let range = string.range(of: argument(0).rendered) else { return .int(-1) }
                return .int(string.utf16.distance(from: string.startIndex, to: range.lowerBound))
            case (.substring?, 1), (.substring?, 2):
                let utf16 = Array(string.utf16)
                let from = try int(0)
                let to = arguments.count == 2 ? try int(1) : utf16.count
                guard from >= 0, to <= utf16.count, from <= to else {
                    throw evaluation.failure("substring(\(from), \(to)) is outside a string of \(utf16.count) characters", at: position)
                }
                return .string(String(decoding: utf16[from..<to], as: UTF16.self))
            case (.replace?, 2): return .string(string.replacingOccurrences(of: argument(0).rendered, with: argument(1).rendered))
            case (.replaceAll?, 2): return .string(try regex(argument(0).rendered, evaluation, position).stringByReplacingMatches(
                in: string, range: NSRange(string.startIndex..., in: string), withTemplate: argument(1).rendered))
            case (.matches?, 1):
                let pattern = try regex("^(?:" + argument(0).rendered + ")$", evaluation, position)
                return .bool(pattern.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil)
            case (.split?, 1):
                let pattern = try regex(argument(0).rendered, evaluation, position)
                var parts: [VTLValue] = []
                var start = string.startIndex
                for match in pattern.matches(in: string, range: NSRange(string.startIndex..., in: string)) {
                    guard let range = Range(match.range, in: string), !range.isEmpty else { continue }
                    parts.append(.string(String(string[start..<range.lowerBound])))
                    start = range.upperBound
                }
                parts.append(.string(String(string[start...])))
                // Java drops trailing empty strings.
                while parts.count > 1, parts.last == .string("") { parts.removeLast() }
                return .list(VTLList(parts))
            default: throw fail()
            }
        case .list(let list):
            switch (method.known, arguments.count) {
            case (.size?, 0): return .int(list.items.count)
            case (.isEmpty?, 0): return .bool(list.items.isEmpty)
            case (.get?, 1):
                let index = try int(0)
                guard list.items.indices.contains(index) else {
                    throw evaluation.failure("get(\(index)) is outside a list of \(list.items.count) items", at: position)
                }
                return list.items[index]
            case (.add?, 1):
                try grow(list.items.count + 1, evaluation, position)
                list.items.append(arguments[0])
                return .bool(true)
            case (.addAll?, 1):
                guard case .list(let more) = arguments[0] else { throw fail() }
                try grow(list.items.count + more.items.count, evaluation, position)
                list.items.append(contentsOf: more.items)
                return .bool(true)
            case (.contains?, 1): return .bool(list.items.contains(arguments[0]))
            case (.indexOf?, 1): return .int(list.items.firstIndex(of: arguments[0]) ?? -1)
            case (.set?, 2):
                let index = try int(0)
                guard list.items.indices.contains(index) else { throw evaluation.failure("set(\(index), ...) is outside the list", at: position) }
                let previous = list.items[index]
                list.items[index] = arguments[1]
                return previous
            case (.remove?, 1):
                if case .int(let index) = arguments[0] {
                    guard list.items.indices.contains(index) else { throw evaluation.failure("remove(\(index)) is outside the list", at: position) }
                    return list.items.remove(at: index)
                }
                guard let found = list.items.firstIndex(of: arguments[0]) else { return .bool(false) }
                list.items.remove(at: found)
                return .bool(true)
            default: throw fail()
            }
        case .map(let map):
            switch (method.known, arguments.count) {
            // `$foreach` is Velocity's loop scope, whose getters templates also call as methods.
            case (.hasNext?, 0), (.count?, 0), (.index?, 0), (.first?, 0), (.last?, 0):
                guard let value = map.entries[name] else { throw fail() }
                return value
            case (.size?, 0): return .int(map.entries.count)
            case (.isEmpty?, 0): return .bool(map.entries.isEmpty)
            case (.get?, 1): return map.entries[arguments[0].rendered] ?? .null
            case (.containsKey?, 1): return .bool(map.entries[arguments[0].rendered] != nil)
            case (.containsValue?, 1): return .bool(map.entries.values.contains(arguments[0]))
            case (.put?, 2):
                try grow(map.entries.count + 1, evaluation, position)
                return map.entries.updateValue(arguments[1], forKey: arguments[0].rendered) ?? .null
            case (.putAll?, 1):
                guard case .map(let more) = arguments[0] else { throw fail() }
                try grow(map.entries.count + more.entries.count, evaluation, position)
                for (key, entry) in more.entries { map.entries[key] = entry }
                return .null
            case (.remove?, 1): return map.entries.removeValue(forKey: arguments[0].rendered) ?? .null
            case (.keySet?, 0): return .list(VTLList(map.entries.keys.map(VTLValue.string)))
            case (.values?, 0): return .list(VTLList(Array(map.entries.values)))
            case (.entrySet?, 0):
                return .list(VTLList(map.entries.map { .map(VTLMap(["key": .string($0.key), "value": $0.value])) }))
            default: throw fail()
            }
        case .int(let number):
            switch (method.known, arguments.count) {
            case (.intValue?, 0), (.longValue?, 0): return .int(number)
            case (.doubleValue?, 0): return .double(Double(number))
            default: throw fail()
            }
        case .double(let number):
            switch (method.known, arguments.count) {
            case (.intValue?, 0), (.longValue?, 0): return number.isFinite ? .int(Int(number)) : .null
            case (.doubleValue?, 0): return .double(number)
            default: throw fail()
            }
        case .bool:
            throw fail()
        case .null:
            // Velocity: a method of a null reference is null, and the reference prints as written.
            return .null
        }
    }

    /// Lists and maps a template grows are bounded like loops, so a template cannot fill memory.
    private static func grow(_ count: Int, _ evaluation: VTLEvaluation, _ position: VTLPosition) throws {
        let limit = evaluation.limits.iterationsPerLoop * 100
        guard count <= limit else { throw evaluation.failure("a list or map may hold at most \(limit) entries", at: position) }
    }

    private static func regex(_ pattern: String, _ evaluation: VTLEvaluation, _ position: VTLPosition) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw evaluation.failure("'\(pattern)' is not a regular expression", at: position)
        }
    }
}
