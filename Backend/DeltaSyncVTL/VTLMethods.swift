import Foundation

/// Java's methods on the values templates hold (`String`, `List`, `Map`, numbers), and
/// Velocity's property shorthand (`$map.key`, `$list.empty` for `isEmpty()`). Each receiver
/// type's methods are in their own function: ``string(_:_:_:_:at:)``, ``list(_:_:_:_:at:)``,
/// ``map(_:_:_:_:at:)``, ``number(_:_:_:_:at:)``.
enum VTLMethods {
    /// Whether `$value.name` reads the getter `name` of a value that is not a map: the
    /// argument-less methods Java's types have as getters.
    static func isGetter(_ name: VTLMethodName, of value: VTLValue) -> Bool {
        switch (value, name.known) {
        case (_, .toString?): return true
        case (.string, .length?), (.string, .isEmpty?), (.string, .toUpperCase?), (.string, .toLowerCase?), (.string, .trim?): return true
        case (.list, .size?), (.list, .isEmpty?): return true
        default: return false
        }
    }

    /// `$list[0]`, `$map["key"]`.
    static func element(_ key: VTLValue, of value: VTLValue, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        switch (value, key) {
        case (.map(let map), _): return map.value(forKey: key.rendered) ?? .null
        case (.list(let list), .int(let index)): return list.items.indices.contains(index) ? list.items[index] : .null
        case (.null, _): return .null
        default: throw e.failure("a \(value.typeName) cannot be indexed with a \(key.typeName)", at: position)
        }
    }

    static func call(_ name: String, on value: VTLValue, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        try call(VTLMethodName(name), on: value, arguments, &e, at: position)
    }

    /// `value.method(arguments)`; a method of null is null (Velocity prints the reference as
    /// written).
    static func call(_ method: VTLMethodName, on value: VTLValue, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        if case .null = value { return .null }
        switch (method.known, arguments.count) {
        case (.equals?, 1): return .bool(value == arguments[0])
        case (.toString?, 0): return .string(value.rendered)
        default: break
        }
        switch value {
        case .null: return .null
        case .string(let string): return try self.string(string, method, arguments, &e, at: position)
        case .list(let list): return try self.list(list, method, arguments, &e, at: position)
        case .map(let map): return try self.map(map, method, arguments, &e, at: position)
        case .int, .double: return try number(value, method, arguments, &e, at: position)
        case .bool: throw noMethod(method, on: value, arguments, e, at: position)
        }
    }

    /// `Integer`'s and `Double`'s `intValue()`, `longValue()`, `doubleValue()`.
    private static func number(_ value: VTLValue, _ method: VTLMethodName, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        switch (value, method.known, arguments.count) {
        case (.int, .intValue?, 0), (.int, .longValue?, 0): return value
        case (.int(let number), .doubleValue?, 0): return .double(Double(number))
        case (.double(let number), .intValue?, 0), (.double(let number), .longValue?, 0): return number.isFinite ? .int(Int(number)) : .null
        case (.double, .doubleValue?, 0): return value
        default: throw noMethod(method, on: value, arguments, e, at: position)
        }
    }

    static func noMethod(_ method: VTLMethodName, on value: VTLValue, _ arguments: VTLArguments, _ e: VTLEvaluation, at position: VTLPosition) -> VTLError {
        e.failure("a \(value.typeName) has no method \(method.text) taking \(arguments.count) argument\(arguments.count == 1 ? "" : "s")", at: position)
    }

    /// The argument at `offset` as a whole number.
    static func int(_ arguments: VTLArguments, _ offset: Int, _ method: VTLMethodName, on value: VTLValue, _ e: VTLEvaluation, at position: VTLPosition) throws -> Int {
        guard arguments.indices.contains(offset), case .int(let number) = arguments[offset] else {
            throw noMethod(method, on: value, arguments, e, at: position)
        }
        return number
    }

    /// Lists and maps a template grows are bounded like loops, so a template cannot fill memory.
    static func grow(_ count: Int, _ e: inout VTLEvaluation, at position: VTLPosition) throws {
        let limit = e.limits.iterationsPerLoop * 100
        guard count <= limit else { throw e.failure("a list or map may hold at most \(limit) entries", at: position) }
    }

    static func regex(_ pattern: String, _ e: VTLEvaluation, at position: VTLPosition) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern)
        } catch {
            throw e.failure("'\(pattern)' is not a regular expression", at: position)
        }
    }
}
