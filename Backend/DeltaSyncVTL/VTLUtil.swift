import DeltaSyncCore
import Foundation

/// One `$util` call as its function sees it: the argument values, and where the call is.
struct VTLUtilCall {
    let arguments: VTLArguments
    let position: VTLPosition

    /// The argument at `offset`; null past the last one.
    subscript(_ offset: Int) -> VTLValue { offset < arguments.count ? arguments[offset] : .null }

    /// The text of the argument at `offset`, as Java's `toString()`.
    func text(_ offset: Int) -> String { self[offset].rendered }

    /// `$util.<name>: message`.
    func failure(_ message: String) -> VTLUtilFailure { VTLUtilFailure(.detail, message) }

    /// Fails unless the call has `counts` arguments.
    func expect(_ counts: ClosedRange<Int>) throws {
        guard counts.contains(arguments.count) else {
            let expected = counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" : "\(counts.lowerBound) to \(counts.upperBound)"
            throw VTLUtilFailure(.takes, "\(expected) argument(s), got \(arguments.count)")
        }
    }
}

/// Why a `$util` function refused its call; the call site makes it a ``VTLError`` with the
/// template, the function's name and the place, so the functions need not carry them.
struct VTLUtilFailure: Error {
    enum Form {
        /// `$util.<name>: message`.
        case detail
        /// `$util.<name> takes message`.
        case takes
        /// The message as it is.
        case whole
    }

    let form: Form
    let message: String

    init(_ form: Form, _ message: String) {
        self.form = form
        self.message = message
    }

    /// The message the template's error carries, for the function `name`.
    func message(for name: String) -> String {
        switch form {
        case .detail: return "$util.\(name): \(message)"
        case .takes: return "$util.\(name) takes \(message)"
        case .whole: return message
        }
    }
}

/// A `$util` function: what it returns for a call, or the error it throws.
typealias VTLUtilFunction = @Sendable (inout VTLEvaluation, VTLUtilCall) throws -> VTLValue

/// `$util` (and `$utils`): AppSync's built-in functions, by their name under `$util`, found
/// once when a template is parsed. The general, null, type and error functions are here; the
/// families are in their own files: those that read the ``VTLRuntime`` (`autoUlid`,
/// `autoKsuid`, `authType`, `log`), the encodings, `str`, `math`, `list`, `map`, `time`,
/// `dynamodb`, `transform`, `http`, `xml` and `rds`. Not here: `transform.toElasticsearchQueryDSL`.
enum VTLUtil {
    static let functions: [String: VTLUtilFunction] = {
        var functions = generalFunctions
        for family in [
            runtimeFunctions, encodingFunctions, stringFunctions, mathFunctions, listAndMapFunctions, timeFunctions,
            dynamodbFunctions, transformFunctions, httpFunctions, xmlFunctions, rdsFunctions,
        ] {
            functions.merge(family) { _, _ in preconditionFailure("a $util function is defined twice") }
        }
        return functions
    }()

    private static let generalFunctions: [String: VTLUtilFunction] = [
        "qr": quiet, "quiet": quiet,
        "toJson": { _, call in
            try call.expect(1...1)
            return .string(call[0].jsonText)
        },
        "parseJson": { _, call in
            try call.expect(1...1)
            guard case .string(let text) = call[0], let json = try? JSONValue(parsing: text) else {
                throw VTLUtilFailure(.whole, "$util.parseJson needs a string of JSON")
            }
            return VTLValue(json: json)
        },
        "isNull": { _, call in
            try call.expect(1...1)
            return .bool(call[0].isNull)
        },
        "isNullOrEmpty": { _, call in
            try call.expect(1...1)
            return .bool(isEmpty(call[0], blank: false))
        },
        "isNullOrBlank": { _, call in
            try call.expect(1...1)
            return .bool(isEmpty(call[0], blank: true))
        },
        "defaultIfNull": { _, call in
            try call.expect(2...2)
            return call[0].isNull ? call[1] : call[0]
        },
        "defaultIfNullOrEmpty": { _, call in
            try call.expect(2...2)
            return isEmpty(call[0], blank: false) ? call[1] : call[0]
        },
        "defaultIfNullOrBlank": { _, call in
            try call.expect(2...2)
            return isEmpty(call[0], blank: true) ? call[1] : call[0]
        },
        "isString": { try isType("String", $1) }, "isNumber": { try isType("Number", $1) }, "isBoolean": { try isType("Boolean", $1) },
        "isList": { try isType("List", $1) }, "isMap": { try isType("Map", $1) },
        "typeOf": { _, call in
            try call.expect(1...1)
            return .string(call[0].typeName)
        },
        "matches": { e, call in
            try call.expect(2...2)
            return try VTLMethods.call("matches", on: .string(call.text(1)), [call[0]], &e, at: call.position)
        },
        "autoId": { _, call in
            try call.expect(0...0)
            return .string(UUID().uuidString.lowercased())
        },
        "validate": { _, call in
            try call.expect(2...4)
            guard !call[0].isTrue else { return .string("") }
            throw VTLRaisedError(
                message: call.text(1), errorType: call[2].isNull ? "CustomTemplateException" : call.text(2), data: call[3], errorInfo: .null)
        },
        "error": { _, call in throw try raised(call) },
        "appendError": { e, call in
            e.appendedErrors.append(try raised(call))
            return .string("")
        },
        "unauthorized": { _, call in
            try call.expect(0...0)
            // The resolver layer names the field: "Not Authorized to access <field> on type <Type>".
            throw VTLRaisedError(message: "Not Authorized to access this field", errorType: "Unauthorized", data: .null, errorInfo: .null)
        },
    ]

    /// `qr` and `quiet`: empty, not null, since a null would print the reference's own text.
    private static func quiet(_ e: inout VTLEvaluation, _ call: VTLUtilCall) throws -> VTLValue {
        try call.expect(1...1)
        return .string("")
    }

    private static func isType(_ type: String, _ call: VTLUtilCall) throws -> VTLValue {
        try call.expect(1...1)
        return .bool(call[0].typeName == type)
    }

    /// `error` and `appendError`: the message, then the optional type, data and info.
    private static func raised(_ call: VTLUtilCall) throws -> VTLRaisedError {
        try call.expect(1...4)
        return VTLRaisedError(
            message: call.text(0), errorType: call.arguments.count > 1 ? call.text(1) : nil, data: call[2], errorInfo: call[3])
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
