import Foundation

/// `$util`'s functions that read the embedder's ``VTLRuntime``: identifiers from its clock,
/// `authType()`, and `log.*` to its sink.
extension VTLUtil {
    /// The value of `$util.<name>(arguments)` for the functions here; `nil` for other names.
    static func runtime(_ name: String, _ arguments: [VTLValue], in evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue? {
        func expect(_ count: Int, orMore: Bool = false) throws {
            guard arguments.count == count || (orMore && arguments.count > count) else {
                throw evaluation.failure("$util.\(name) takes \(count)\(orMore ? " or more" : "") argument(s), got \(arguments.count)", at: position)
            }
        }
        switch name {
        case "autoUlid":
            try expect(0)
            return .string(VTLIdentifiers.ulid(at: evaluation.runtime.clock()))
        case "autoKsuid":
            try expect(0)
            return .string(VTLIdentifiers.ksuid(at: evaluation.runtime.clock()))
        case "authType":
            try expect(0)
            return evaluation.runtime.authType.map(VTLValue.string) ?? .null
        case "log.info", "log.debug", "log.error":
            try expect(1, orMore: true)
            log(VTLLogLine.Level(rawValue: String(name.dropFirst(4)))!, arguments, in: evaluation)
            return .string("")
        default:
            return nil
        }
    }

    /// `$util.log.<level>(value)` logs the value's text; `(format, values...)` fills each `{}`
    /// of the format with the next value's text, as SLF4J does.
    private static func log(_ level: VTLLogLine.Level, _ arguments: [VTLValue], in evaluation: VTLEvaluation) {
        func text(_ value: VTLValue) -> String { value.isNull ? "null" : value.rendered }
        var message = text(arguments[0])
        if arguments.count > 1 {
            var values = arguments.dropFirst().makeIterator()
            var filled = ""
            var rest = Substring(message)
            while let range = rest.range(of: "{}"), let value = values.next() {
                filled += rest[..<range.lowerBound] + text(value)
                rest = rest[range.upperBound...]
            }
            message = filled + rest
        }
        let line = VTLLogLine(level: level, message: message)
        evaluation.logLines.append(line)
        evaluation.runtime.log?(line)
    }
}
