import DeltaSyncCore
import DeltaSyncSchema

/// Swift literals for values taken from the schema.
enum SwiftLiteral {
    /// A string literal that reads back as `text`.
    static func string(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": literal += "\\\\"
            case "\"": literal += "\\\""
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case "\0": literal += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }

    /// The Swift expression for a field's `@default(value:)`, or `nil` when the generated type
    /// has no literal form for it (lists, `AWSJSON`, `AWSTimestamp`, non-model values): such a
    /// field then has no default in the initializer and the server applies it.
    static func defaultValue(_ value: JSONValue, of field: Field, names: SwiftNames) -> String? {
        guard !field.isList else { return nil }
        switch (field.type, value) {
        case (.enumType(let enumName), .string(let name)):
            return "." + names.enumCase(name, of: enumName)
        case (.scalar(let scalar), _):
            return scalarDefault(value, scalar)
        default:
            return nil
        }
    }

    /// Scalars whose Swift type is written as a string literal (`String` and the `Temporal` types).
    private static let textScalars: Set<ScalarType> = [
        .id, .string, .awsEmail, .awsURL, .awsPhone, .awsIPAddress, .awsDate, .awsTime, .awsDateTime,
    ]

    private static func scalarDefault(_ value: JSONValue, _ scalar: ScalarType) -> String? {
        switch value {
        case .string(let text) where textScalars.contains(scalar): return string(text)
        case .int(let number) where scalar == .int: return String(number)
        case .int(let number) where scalar == .float: return String(Double(number))
        case .double(let number) where scalar == .float && number.isFinite: return String(number)
        case .bool(let flag) where scalar == .boolean: return String(flag)
        default: return nil
        }
    }
}
