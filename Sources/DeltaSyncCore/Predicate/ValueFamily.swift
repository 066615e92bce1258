/// The JSON kinds DynamoDB compares within: values of different families never compare. Every
/// store's filter compiler sorts operands into these (SQLite's and PostgreSQL's alike).
package enum ValueFamily: Int, Comparable, CaseIterable, Sendable {
    case string, number, bool, list, map

    package init?(_ value: JSONValue) {
        switch value {
        case .null: return nil
        case .string: self = .string
        case .int, .double: self = .number
        case .bool: self = .bool
        case .array: self = .list
        case .object: self = .map
        }
    }

    /// The family of an `attributeType` name (``JSONValue/dynamoDBType``).
    package init?(typeName: String) {
        guard let family = Self.allCases.first(where: { $0.typeName == typeName }) else { return nil }
        self = family
    }

    package var typeName: String {
        switch self {
        case .string: return "string"
        case .number: return "number"
        case .bool: return "bool"
        case .list: return "list"
        case .map: return "map"
        }
    }

    /// Lists and maps compare only for equality.
    package var isEqualityOnly: Bool { self == .list || self == .map }

    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}
