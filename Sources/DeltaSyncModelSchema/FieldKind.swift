/// What kind of value a stored field holds, as every store classifies it: what a column is
/// declared as (SQLite's `ColumnKind`), which typed expression indexes a PostgreSQL table
/// (`PostgresModelTable`), and what a write must fit.
package enum FieldKind: Sendable, Equatable {
    /// `Int`, `AWSTimestamp`.
    case integer
    /// `Float`.
    case real
    /// `Boolean`.
    case boolean
    /// `ID`, `String`, enums and the string-like AWS scalars.
    case text
    /// `AWSJSON`: the JSON text as the client sent it, read back as a string.
    case jsonString
    /// Any list.
    case list
    /// A non-model object.
    case object

    package init(_ field: Field) {
        if field.isList {
            self = .list
            return
        }
        switch field.type {
        case .scalar(.int), .scalar(.awsTimestamp): self = .integer
        case .scalar(.float): self = .real
        case .scalar(.boolean): self = .boolean
        case .scalar(.awsJSON): self = .jsonString
        case .scalar, .enumType: self = .text
        case .nonModel, .model: self = .object
        }
    }

    /// What the values look like, for error messages.
    package var expectation: String {
        switch self {
        case .integer: return "an integer"
        case .real: return "a number"
        case .boolean: return "a boolean"
        case .text: return "a string"
        case .jsonString: return "a JSON string"
        case .list: return "a list"
        case .object: return "an object"
        }
    }
}
