import DeltaSyncCore
import OrderedCollections

/// `$util.dynamodb`: values as DynamoDB's typed values (`{"S": "x"}`, `{"N": 12}` with the
/// number as a JSON number, lists as `L`, maps as `M`), each `toX` returning the map and
/// `toXJson` the same as JSON text.
extension VTLUtil {
    /// `$util.dynamodb`'s functions without their `Json` forms.
    private enum DynamoDBFunction: String, CaseIterable {
        case toDynamoDB, toString, toStringSet, toNumber, toNumberSet, toBinary, toBinarySet, toBoolean, toNull
        case toList, toMap, toMapValues, toS3Object, fromS3ObjectJson

        var arguments: ClosedRange<Int> {
            switch self {
            case .toNull: return 0...0
            case .toS3Object: return 3...4
            default: return 1...1
            }
        }
    }

    static let dynamodbFunctions: [String: VTLUtilFunction] = {
        var functions: [String: VTLUtilFunction] = [:]
        for function in DynamoDBFunction.allCases {
            functions["dynamodb." + function.rawValue] = { _, call in try dynamodb(function, call) }
            // `toXJson`: the same value as JSON text.
            if function != .fromS3ObjectJson {
                functions["dynamodb." + function.rawValue + "Json"] = { _, call in .string(try dynamodb(function, call).jsonText) }
            }
        }
        return functions
    }()

    private static func dynamodb(_ function: DynamoDBFunction, _ call: VTLUtilCall) throws -> VTLValue {
        let expected = function.arguments
        guard expected.contains(call.arguments.count) else {
            throw call.failure("takes \(expected.lowerBound == expected.upperBound ? "\(expected.lowerBound)" : "\(expected.lowerBound) or \(expected.upperBound)") argument(s), got \(call.arguments.count)")
        }
        let arguments = call.arguments
        func list(_ offset: Int) throws -> [VTLValue] {
            guard case .list(let list) = arguments[offset] else { throw call.failure("argument \(offset + 1) must be a list") }
            return list.items
        }
        func map(_ offset: Int) throws -> VTLMap {
            guard case .map(let map) = arguments[offset] else { throw call.failure("argument \(offset + 1) must be a map") }
            return map
        }
        func number(_ value: VTLValue) throws -> VTLValue { try VTLUtil.number(value, call) }
        switch function {
        case .toDynamoDB: return typedValue(arguments[0])
        case .toString: return typed("S", .string(arguments[0].rendered))
        case .toStringSet: return typed("SS", members(try list(0).map { .string($0.rendered) }))
        case .toNumber: return typed("N", try number(arguments[0]))
        case .toNumberSet: return typed("NS", members(try list(0).map(number)))
        case .toBinary: return typed("B", .string(arguments[0].rendered))
        case .toBinarySet: return typed("BS", members(try list(0).map { .string($0.rendered) }))
        case .toBoolean:
            guard case .bool = arguments[0] else { throw call.failure("argument 1 must be a boolean") }
            return typed("BOOL", arguments[0])
        case .toNull: return typed("NULL", .null)
        case .toList: return typed("L", .list(VTLList(try list(0).map(typedValue))))
        case .toMap: return typed("M", .map(VTLMap(try map(0).entries.mapValues(typedValue))))
        case .toMapValues: return .map(VTLMap(try map(0).entries.mapValues(typedValue)))
        case .toS3Object: return typed("S", .string(try s3ObjectText(arguments, call)))
        case .fromS3ObjectJson: return try s3Object(arguments[0], fail: call.failure)
        }
    }

    /// A DynamoDB number from a number or its text.
    private static func number(_ value: VTLValue, _ call: VTLUtilCall) throws -> VTLValue {
        switch value {
        case .int, .double: return value
        case .string(let text):
            if let int = Int(text) { return .int(int) }
            if let double = Double(text), double.isFinite { return .double(double) }
            throw call.failure("'\(text)' is not a number")
        default: throw call.failure("a \(value.typeName) is not a number")
        }
    }

    /// A set's members: distinct (DynamoDB refuses repeats), in their first order.
    private static func members(_ values: [VTLValue]) -> VTLValue {
        var seen: [VTLValue] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return .list(VTLList(seen))
    }

    /// `toS3Object`'s text: `{"s3":{"key":...,"bucket":...,"region":...[,"version":...]}}`.
    private static func s3ObjectText(_ arguments: VTLArguments, _ call: VTLUtilCall) throws -> String {
        var object: OrderedDictionary<String, JSONValue> = [:]
        for (offset, key) in ["key", "bucket", "region", "version"].enumerated() where offset < arguments.count {
            guard case .string(let text) = arguments[offset] else { throw call.failure("the \(key) must be a string") }
            object[key] = .string(text)
        }
        let members = object.map { "\(JSONValue.string($0.key).jsonText):\($0.value.jsonText)" }
        return "{\"s3\":{" + members.joined(separator: ",") + "}}"
    }

    /// `toDynamoDB`: strings `S`, numbers `N`, booleans `BOOL`, lists `L` (never sets), maps
    /// `M`, null `{"NULL": true}` (DynamoDB's own spelling; `toNull()` gives the documented
    /// `{"NULL": null}`).
    static func typedValue(_ value: VTLValue) -> VTLValue {
        switch value {
        case .null: return typed("NULL", .bool(true))
        case .bool: return typed("BOOL", value)
        case .int, .double: return typed("N", value)
        case .string: return typed("S", value)
        case .list(let list): return typed("L", .list(VTLList(list.items.map(typedValue))))
        case .map(let map): return typed("M", .map(VTLMap(map.entries.mapValues(typedValue))))
        }
    }

    /// `{type: value}`.
    private static func typed(_ type: String, _ value: VTLValue) -> VTLValue {
        .map(VTLMap(.typed(type: type, value: value)))
    }

    /// `fromS3ObjectJson`: the `{"s3": {...}}` text (or its `{"S": text}` typed value) back to
    /// a map of `key`, `bucket`, `region` and, when present, `version`.
    private static func s3Object(_ argument: VTLValue, fail: (String) -> VTLUtilFailure) throws -> VTLValue {
        var json: JSONValue
        switch argument {
        case .string(let text):
            guard let parsed = try? JSONValue(parsing: text) else { throw fail("'\(text)' is not JSON") }
            json = parsed
        default:
            json = argument.json
        }
        if case .string(let inner) = json["S"], let parsed = try? JSONValue(parsing: inner) { json = parsed }
        guard case .object(let s3) = json["s3"] else { throw fail("the value has no \"s3\" object of key, bucket and region") }
        var result: OrderedDictionary<String, VTLValue> = [:]
        for key in ["key", "bucket", "region", "version"] {
            if let value = s3[key], !value.isNull { result[key] = VTLValue(json: value) }
        }
        return .map(VTLMap(result))
    }
}
