import DeltaSyncCore

/// One DynamoDB attribute value with its type: what `key`, `attributeValues` and
/// `expressionValues` hold as DynamoDB JSON (`{"S": "x"}`, `{"N": "12"}`, `{"SS": ["a"]}`).
///
/// Items in DeltaSync's stores are plain JSON (``Item``), as AppSync hands results to
/// templates: sets become lists, binary becomes its base64 text. A value read from an item
/// is therefore `S`, `N`, `BOOL`, `NULL`, `L` or `M`; the other types come from requests.
///
/// ```swift
/// let value = try AttributeValue(typed: ["N": "12"])  // .number(12)
/// value.plainValue                                    // 12
/// AttributeValue(plain: ["a", 1]).typedJSON           // {"L": [{"S": "a"}, {"N": "1"}]}
/// ```
public enum AttributeValue: Sendable, Hashable {
    /// `S`
    case string(String)
    /// `N`
    case number(DynamoDBNumber)
    /// `B`, as its base64 text.
    case binary(String)
    /// `BOOL`
    case bool(Bool)
    /// `NULL`
    case null
    /// `L`
    case list([AttributeValue])
    /// `M`
    case map([String: AttributeValue])
    /// `SS`: unique strings, never empty.
    case stringSet([String])
    /// `NS`: unique numbers, never empty.
    case numberSet([DynamoDBNumber])
    /// `BS`: unique base64 texts, never empty.
    case binarySet([String])

    /// The DynamoDB JSON key of the type: `S`, `N`, `B`, `BOOL`, `NULL`, `L`, `M`, `SS`, `NS`, `BS`.
    public var typeName: String {
        switch self {
        case .string: return "S"
        case .number: return "N"
        case .binary: return "B"
        case .bool: return "BOOL"
        case .null: return "NULL"
        case .list: return "L"
        case .map: return "M"
        case .stringSet: return "SS"
        case .numberSet: return "NS"
        case .binarySet: return "BS"
        }
    }

    /// The type as DynamoDB spells it in `ADD`/`DELETE` operand errors (`STRING`, `NUMBER_SET`).
    var longTypeName: String {
        switch self {
        case .string: return "STRING"
        case .number: return "NUMBER"
        case .binary: return "BINARY"
        case .bool: return "BOOLEAN"
        case .null: return "NULL"
        case .list: return "LIST"
        case .map: return "MAP"
        case .stringSet: return "STRING_SET"
        case .numberSet: return "NUMBER_SET"
        case .binarySet: return "BINARY_SET"
        }
    }

    /// Every type name `attribute_type` accepts.
    static let typeNames: Set<String> = ["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"]

    var isSet: Bool {
        switch self {
        case .stringSet, .numberSet, .binarySet: return true
        default: return false
        }
    }

    /// The elements of a set, as values.
    var setElements: [AttributeValue]? {
        switch self {
        case .stringSet(let elements): return elements.map(AttributeValue.string)
        case .numberSet(let elements): return elements.map(AttributeValue.number)
        case .binarySet(let elements): return elements.map(AttributeValue.binary)
        default: return nil
        }
    }
}
