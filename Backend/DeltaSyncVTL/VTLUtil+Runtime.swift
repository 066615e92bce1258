import Foundation

/// `$util`'s functions that read the embedder's ``VTLRuntime``: identifiers from its clock,
/// `authType()`, and `log.*` to its sink.
extension VTLUtil {
    static let runtimeFunctions: [String: VTLUtilFunction] = [
        "autoUlid": { e, call in
            try expect(0, call)
            return .string(VTLIdentifiers.ulid(at: e.runtime.clock()))
        },
        "autoKsuid": { e, call in
            try expect(0, call)
            return .string(VTLIdentifiers.ksuid(at: e.runtime.clock()))
        },
        "authType": { e, call in
            try expect(0, call)
            return e.runtime.authType.map(VTLValue.string) ?? .null
        },
        "log.info": { try log(.info, &$0, $1) },
        "log.debug": { try log(.debug, &$0, $1) },
        "log.error": { try log(.error, &$0, $1) },
    ]

    private static func expect(_ count: Int, orMore: Bool = false, _ call: VTLUtilCall) throws {
        guard call.arguments.count == count || (orMore && call.arguments.count > count) else {
            throw VTLUtilFailure(.takes, "\(count)\(orMore ? " or more" : "") argument(s), got \(call.arguments.count)")
        }
    }

    /// `$util.log.<level>(value)` logs the value's text; `(format, values...)` fills each `{}`
    /// of the format with the next value's text, as SLF4J does.
    private static func log(_ level: VTLLogLine.Level, _ e: inout VTLEvaluation, _ call: VTLUtilCall) throws -> VTLValue {
        try expect(1, orMore: true, call)
        func text(_ value: VTLValue) -> String { value.isNull ? "null" : value.rendered }
        var message = text(call.arguments[0])
        if call.arguments.count > 1 {
            var values = call.arguments.dropFirst().makeIterator()
            var filled = ""
            var rest = Substring(message)
            while let range = rest.range(of: "{}"), let value = values.next() {
                filled += rest[..<range.lowerBound] + text(value)
                rest = rest[range.upperBound...]
            }
            message = filled + rest
        }
        let line = VTLLogLine(level: level, message: message)
        e.logLines.append(line)
        e.runtime.log?(line)
        return .string("")
    }
}
