import DeltaSyncCore
import Foundation

/// DynamoDB's typed values (`{"S": "x"}`, `{"N": "12"}`, `{"L": [...]}`) and the plain JSON
/// AppSync hands templates as results: strings, numbers, booleans, null, lists and maps, sets
/// as lists, binary as base64 text.
enum DynamoDBAttributeValue {
    /// The plain value of a typed one.
    ///
    /// - Throws: ``DataSourceFailure`` (`DynamoDB:ValidationException`) for a value that is not
    ///   one typed DynamoDB value.
    static func plain(_ typed: JSONValue) throws(DataSourceFailure) -> JSONValue {
        guard case .object(let members) = typed, members.count == 1, let (type, value) = members.first else {
            throw invalid(typed)
        }
        switch (type, value) {
        case ("S", .string), ("B", .string): return value
        case ("N", _): return try number(value)
        case ("BOOL", .bool): return value
        // `{"NULL": true}` is DynamoDB's spelling; `$util.dynamodb.toNull` writes `{"NULL": null}`.
        case ("NULL", .bool(true)), ("NULL", .null): return .null
        case ("L", .array(let elements)):
            var plain: [JSONValue] = []
            for element in elements { plain.append(try self.plain(element)) }
            return .array(plain)
        case ("M", .object(let map)):
            return .object(try item(map))
        case ("SS", .array(let elements)), ("BS", .array(let elements)):
            guard elements.allSatisfy({ $0.stringValue != nil }) else { throw invalid(typed) }
            return .array(elements)
        case ("NS", .array(let elements)):
            var numbers: [JSONValue] = []
            for element in elements { numbers.append(try number(element)) }
            return .array(numbers)
        default:
            throw invalid(typed)
        }
    }

    /// The plain item of a typed map (`attributeValues`, `key`).
    static func item(_ typed: [String: JSONValue]) throws(DataSourceFailure) -> Item {
        var item: Item = [:]
        for (name, value) in typed { item[name] = try plain(value) }
        return item
    }

    /// A typed value of a plain one, as `$util.dynamodb.toDynamoDB` makes it.
    static func typed(_ plain: JSONValue) -> JSONValue {
        switch plain {
        case .null: return ["NULL": true]
        case .bool: return ["BOOL": plain]
        case .int(let number): return ["N": .string(String(number))]
        case .double(let number): return ["N": .string(String(number))]
        case .string: return ["S": plain]
        case .array(let elements): return ["L": .array(elements.map(typed))]
        case .object(let map): return ["M": .object(map.mapValues(typed))]
        }
    }

    /// An `N` value: a number, or the text of one.
    private static func number(_ value: JSONValue) throws(DataSourceFailure) -> JSONValue {
        switch value {
        case .int, .double: return value
        case .string(let text):
            if let integer = Int(text) { return .int(integer) }
            if let decimal = Double(text), decimal.isFinite { return .double(decimal) }
            throw DataSourceFailure.validation("A value provided cannot be converted into a number: \(text)")
        default:
            throw invalid(["N": value])
        }
    }

    private static func invalid(_ value: JSONValue) -> DataSourceFailure {
        .validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes: \(value.jsonText)")
    }
}
