import Foundation

/// `java.lang.String`'s methods. Java counts and indexes strings in UTF-16 code units.
extension VTLMethods {
    static func string(_ string: String, _ method: VTLMethodName, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        func text(_ offset: Int) -> String { arguments.indices.contains(offset) ? arguments[offset].rendered : "" }
        switch (method.known, arguments.count) {
        case (.length?, 0): return .int(string.utf16.count)
        case (.isEmpty?, 0): return .bool(string.isEmpty)
        case (.contains?, 1): return .bool(string.contains(text(0)))
        case (.startsWith?, 1): return .bool(string.hasPrefix(text(0)))
        case (.endsWith?, 1): return .bool(string.hasSuffix(text(0)))
        case (.toUpperCase?, 0): return .string(string.uppercased())
        case (.toLowerCase?, 0): return .string(string.lowercased())
        case (.trim?, 0): return .string(string.trimmingCharacters(in: .whitespacesAndNewlines))
        case (.indexOf?, 1):
            guard let range = string.range(of: text(0)) else { return .int(-1) }
            return .int(string.utf16.distance(from: string.startIndex, to: range.lowerBound))
        case (.substring?, 1), (.substring?, 2):
            let utf16 = Array(string.utf16)
            let from = try int(arguments, 0, method, on: .string(string), e, at: position)
            let to = arguments.count == 2 ? try int(arguments, 1, method, on: .string(string), e, at: position) : utf16.count
            guard from >= 0, to <= utf16.count, from <= to else {
                throw e.failure("substring(\(from), \(to)) is outside a string of \(utf16.count) characters", at: position)
            }
            return .string(String(decoding: utf16[from..<to], as: UTF16.self))
        case (.replace?, 2): return .string(string.replacingOccurrences(of: text(0), with: text(1)))
        case (.replaceAll?, 2):
            return .string(try regex(text(0), e, at: position).stringByReplacingMatches(
                in: string, range: NSRange(string.startIndex..., in: string), withTemplate: text(1)))
        case (.matches?, 1):
            let pattern = try regex("^(?:" + text(0) + ")$", e, at: position)
            return .bool(pattern.firstMatch(in: string, range: NSRange(string.startIndex..., in: string)) != nil)
        case (.split?, 1):
            return .list(VTLList(split(string, by: try regex(text(0), e, at: position))))
        default:
            throw noMethod(method, on: .string(string), arguments, e, at: position)
        }
    }

    /// `String.split(regex)`: the parts between matches, trailing empty parts dropped as Java does.
    private static func split(_ string: String, by pattern: NSRegularExpression) -> [VTLValue] {
        var parts: [VTLValue] = []
        var start = string.startIndex
        for match in pattern.matches(in: string, range: NSRange(string.startIndex..., in: string)) {
            guard let range = Range(match.range, in: string), !range.isEmpty else { continue }
            parts.append(.string(String(string[start..<range.lowerBound])))
            start = range.upperBound
        }
        parts.append(.string(String(string[start...])))
        while parts.count > 1, parts.last == .string("") { parts.removeLast() }
        return parts
    }
}
