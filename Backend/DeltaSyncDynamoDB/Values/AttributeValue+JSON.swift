import DeltaSyncCore
import Foundation

// MARK: - Plain JSON

extension AttributeValue {
    /// The value of a plain JSON value, as `$util.dynamodb.toDynamoDB` types it: strings `S`,
    /// numbers `N`, booleans `BOOL`, null `NULL`, arrays `L`, objects `M`.
    public init(plain: JSONValue) {
        switch plain {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .number(DynamoDBNumber(value))
        case .double(let value): self = .number(DynamoDBNumber(value))
        case .string(let value): self = .string(value)
        case .array(let elements): self = .list(elements.map(AttributeValue.init(plain:)))
        case .object(let members): self = .map(members.mapValues(AttributeValue.init(plain:)))
        }
    }

    /// The plain value AppSync hands templates: sets as arrays, `B` as its base64 text, `N` as
    /// an integer when integral, else a double.
    public var plainValue: JSONValue {
        switch self {
        case .string(let value), .binary(let value): return .string(value)
        case .number(let value): return value.jsonValue
        case .bool(let value): return .bool(value)
        case .null: return .null
        case .list(let elements): return .array(elements.map(\.plainValue))
        case .map(let members): return .object(members.mapValues(\.plainValue))
        case .stringSet(let elements), .binarySet(let elements): return .array(elements.map(JSONValue.string))
        case .numberSet(let elements): return .array(elements.map(\.jsonValue))
        }
    }

    /// The value as DynamoDB JSON: `{"S": "x"}`, `{"N": "12"}`, `{"NULL": true}`.
    public var typedJSON: JSONValue {
        switch self {
        case .string(let value): return ["S": .string(value)]
        case .number(let value): return ["N": .string(value.description)]
        case .binary(let value): return ["B": .string(value)]
        case .bool(let value): return ["BOOL": .bool(value)]
        case .null: return ["NULL": true]
        case .list(let elements): return ["L": .array(elements.map(\.typedJSON))]
        case .map(let members): return ["M": .object(members.mapValues(\.typedJSON))]
        case .stringSet(let elements): return ["SS": .array(elements.map(JSONValue.string))]
        case .numberSet(let elements): return ["NS": .array(elements.map { .string($0.description) })]
        case .binarySet(let elements): return ["BS": .array(elements.map(JSONValue.string))]
        }
    }
}

// MARK: - DynamoDB JSON

extension AttributeValue {
    /// Reads one DynamoDB JSON value. `N` may be a string or, as AppSync accepts, a JSON number;
    /// `NULL` is `true` (or `null`, as `$util.dynamodb.toNull` writes it).
    ///
    /// - Throws: ``DynamoDBError`` naming what is wrong: not exactly one type key, an unknown
    ///   type, a payload of the wrong JSON type, a number that is not one, an empty set or a set
    ///   with duplicates, binary that is not base64.
    public init(typed: JSONValue) throws(DynamoDBError) {
        guard case .object(let members) = typed, members.count == 1, let (type, payload) = members.first else {
            if case .object(let members) = typed, members.count > 1 {
                throw .validation(
                    "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes: \(typed.jsonText)")
            }
            throw .validation("Supplied AttributeValue is empty, must contain exactly one of the supported datatypes: \(typed.jsonText)")
        }
        func wrong(_ expected: String) -> DynamoDBError {
            .validation("The \(type) of a DynamoDB typed value must be \(expected), not \(payload.jsonText)")
        }
        switch (type, payload) {
        case ("S", .string(let value)): self = .string(value)
        case ("N", _): self = .number(try Self.number(payload))
        case ("B", .string(let value)): self = .binary(try Self.base64(value))
        case ("BOOL", .bool(let value)): self = .bool(value)
        case ("NULL", .bool(true)), ("NULL", .null): self = .null
        case ("NULL", .bool(false)):
            throw .validation("One or more parameter values were invalid: Null attribute value types must have the value of true")
        case ("L", .array(let elements)):
            var list: [AttributeValue] = []
            for element in elements { list.append(try AttributeValue(typed: element)) }
            self = .list(list)
        case ("M", .object(let map)):
            var members: [String: AttributeValue] = [:]
            for (name, value) in map { members[name] = try AttributeValue(typed: value) }
            self = .map(members)
        case ("SS", .array(let elements)), ("BS", .array(let elements)):
            var strings: [String] = []
            for element in elements {
                guard case .string(let text) = element else { throw wrong("an array of strings") }
                strings.append(type == "BS" ? try Self.base64(text) : text)
            }
            try Self.checkSet(strings, kind: type == "SS" ? "string" : "binary")
            self = type == "SS" ? .stringSet(strings) : .binarySet(strings)
        case ("NS", .array(let elements)):
            var numbers: [DynamoDBNumber] = []
            for element in elements { numbers.append(try Self.number(element)) }
            try Self.checkSet(numbers, kind: "number")
            self = .numberSet(numbers)
        case ("S", _), ("B", _): throw wrong("a string")
        case ("BOOL", _): throw wrong("a boolean")
        case ("NULL", _): throw wrong("true")
        case ("L", _), ("SS", _), ("NS", _), ("BS", _): throw wrong("an array")
        case ("M", _): throw wrong("an object")
        default:
            throw .validation(
                "Unknown DynamoDB type \"\(type)\" in \(typed.jsonText); a typed value is one of S, N, B, BOOL, NULL, L, M, SS, NS, BS")
        }
    }

    private static func number(_ payload: JSONValue) throws(DynamoDBError) -> DynamoDBNumber {
        let number: DynamoDBNumber?
        switch payload {
        case .string(let text): number = DynamoDBNumber(text: text)
        default: number = DynamoDBNumber(json: payload)
        }
        guard let number else {
            throw .validation("A value provided cannot be converted into a number: \(payload.jsonText)")
        }
        return number
    }

    private static func base64(_ text: String) throws(DynamoDBError) -> String {
        guard Data(base64Encoded: text) != nil else {
            throw .validation("A B (binary) value must be base64 text, not \"\(text)\"")
        }
        return text
    }

    private static func checkSet<Element: Hashable & CustomStringConvertible>(_ elements: [Element], kind: String) throws(DynamoDBError) {
        guard !elements.isEmpty else {
            // DynamoDB's wording, double space included.
            throw .validation("One or more parameter values were invalid: An \(kind) set  may not be empty")
        }
        guard Set(elements).count == elements.count else {
            let list = elements.map(\.description).joined(separator: ", ")
            throw .validation("One or more parameter values were invalid: Input collection [\(list)] contains duplicates.")
        }
    }
}

// MARK: - Conversions of whole values and items

extension AttributeValue {
    /// The plain value of a DynamoDB JSON value, as AppSync hands results to templates.
    ///
    /// ```swift
    /// try AttributeValue.plain(fromTyped: ["SS": ["a", "b"]])  // ["a", "b"]
    /// ```
    public static func plain(fromTyped typed: JSONValue) throws(DynamoDBError) -> JSONValue {
        try AttributeValue(typed: typed).plainValue
    }

    /// The DynamoDB JSON of a plain value, as `$util.dynamodb.toDynamoDB` writes it.
    public static func typed(fromPlain plain: JSONValue) -> JSONValue {
        AttributeValue(plain: plain).typedJSON
    }

    /// The plain item of a map of typed values (a request's `key` or `attributeValues`).
    ///
    /// - Parameter what: the request field, for the error message.
    public static func plainItem(fromTyped typed: JSONValue, what: String = "attributeValues") throws(DynamoDBError) -> Item {
        guard case .object(let members) = typed else {
            throw .validation("'\(what)' must be a map of attribute names to typed values, not \(typed.jsonText)")
        }
        var item: Item = [:]
        for (name, value) in members { item[name] = try plain(fromTyped: value) }
        return item
    }

    /// The typed map (`{"id": {"S": "1"}}`) of a plain item.
    public static func typedItem(_ item: Item) -> JSONValue {
        .object(item.mapValues(typed(fromPlain:)))
    }
}
