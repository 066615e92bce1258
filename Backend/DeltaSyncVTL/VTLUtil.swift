import DeltaSyncCore
import Foundation

/// `$util` (and `$utils`): AppSync's built-in functions: the general, null, type and error
/// functions here, those that read the ``VTLRuntime`` (`autoUlid`, `autoKsuid`, `authType`,
/// `log`) in ``runtime(_:_:in:at:)``, the encoding functions and the `str`, `math`, `list` and `map`
/// families in ``family(_:_:in:at:)``, `time` in ``time(_:_:in:at:)``, `dynamodb` in
/// ``dynamodb(_:_:in:at:)`` and `transform` in ``transform(_:_:in:at:)``. Not here:
/// `transform.toElasticsearchQueryDSL`, `rds`, `http`, `xml`.
enum VTLUtil {
    /// `$util.<name>(arguments)`, `name` with its namespace (`dynamodb.toDynamoDB`).
    static func call(_ name: String, _ arguments: [VTLValue], in evaluation: VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        func argument(_ offset: Int) -> VTLValue { arguments.indices.contains(offset) ? arguments[offset] : .null }
        func expect(_ counts: ClosedRange<Int>) throws {
            guard counts.contains(arguments.count) else {
                throw evaluation.failure("$util.\(name) takes \(counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)") argument(s), got \(arguments.count)", at: position)
            }
        }
        switch name {
        case "qr", "quiet":
            try expect(1...1)
            // Empty, not null: a null would print the reference's own text.
            return .string("")
        case "toJson":
            try expect(1...1)
            return .string(argument(0).jsonText)
        case "parseJson":
            try expect(1...1)
            guard case .string(let text) = argument(0), let json = try? JSONValue(parsing: text) else {
                throw evaluation.failure("$util.parseJson needs a string of JSON", at: position)
            }
            return VTLValue(json: json)
        case "isNull":
            try expect(1...1)
            return .bool(argument(0).isNull)
        case "isNullOrEmpty":
            try expect(1...1)
            return .bool(isEmpty(argument(0), blank: false))
        case "isNullOrBlank":
            try expect(1...1)
            return .bool(isEmpty(argument(0), blank: true))
        case "defaultIfNull":
            try expect(2...2)
            return argument(0).isNull ? argument(1) : argument(0)
        case "defaultIfNullOrEmpty":
            try expect(2...2)
            return isEmpty(argument(0), blank: false) ? argument(1) : argument(0)
        case "defaultIfNullOrBlank":
            try expect(2...2)
            return isEmpty(argument(0), blank: true) ? argument(1) : argument(0)
        case "isString", "isNumber", "isBoolean", "isList", "isMap":
            try expect(1...1)
            let expected = ["isString": "String", "isNumber": "Number", "isBoolean": "Boolean", "isList": "List", "isMap": "Map"][name]
            return .bool(argument(0).typeName == expected)
        case "typeOf":
            try expect(1...1)
            return .string(argument(0).typeName)
        case "matches":
            try expect(2...2)
            return try VTLMethods.call("matches", on: .string(argument(1).rendered), [argument(0)], evaluation: evaluation, at: position)
        case "autoId":
            try expect(0...0)
            return .string(UUID().uuidString.lowercased())
        case "validate":
            try expect(2...4)
            guard !argument(0).isTrue else { return .string("") }
            throw VTLRaisedError(
                message: argument(1).rendered, errorType: argument(2).isNull ? "CustomTemplateException" : argument(2).rendered,
                data: argument(3), errorInfo: .null)
        case "error", "appendError":
            try expect(1...4)
            let raised = VTLRaisedError(
                message: argument(0).rendered, errorType: arguments.count > 1 ? argument(1).rendered : nil,
                data: argument(2), errorInfo: argument(3))
            if name == "appendError" {
                evaluation.appendedErrors.append(raised)
                return .string("")
            }
            throw raised
        case "unauthorized":
            try expect(0...0)
            // The resolver layer names the field: "Not Authorized to access <field> on type <Type>".
            throw VTLRaisedError(message: "Not Authorized to access this field", errorType: "Unauthorized", data: .null, errorInfo: .null)
        default:
            // The families, each `nil` for a name it lacks.
            if let value = try runtime(name, arguments, in: evaluation, at: position) { return value }
            if let value = try family(name, arguments, in: evaluation, at: position) { return value }
            if let value = try time(name, arguments, in: evaluation, at: position) { return value }
            if let value = try dynamodb(name, arguments, in: evaluation, at: position) { return value }
            if let value = try transform(name, arguments, in: evaluation, at: position) { return value }
            throw evaluation.failure("$util.\(name) is not a function DeltaSync has", at: position)
        }
    }


    /// `isNullOrEmpty` on strings, lists and maps (Amplify calls it on maps); `blank` also
    /// counts a string of whitespace.
    private static func isEmpty(_ value: VTLValue, blank: Bool) -> Bool {
        switch value {
        case .null: return true
        case .string(let text): return blank ? text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty : text.isEmpty
        case .list(let list): return list.items.isEmpty
        case .map(let map): return map.entries.isEmpty
        default: return false
        }
    }
}
