import DeltaSyncSchema

/// The Swift type a field holds in generated code.
enum SwiftTypeName {
    /// The Swift type of one value of `type`, before list and optional wrapping.
    static func named(_ type: FieldType) -> String {
        switch type {
        case .scalar(let scalar): return named(scalar)
        case .enumType(let name), .nonModel(let name), .model(let name): return name
        }
    }

    static func named(_ scalar: ScalarType) -> String {
        switch scalar {
        case .id, .string, .awsEmail, .awsURL, .awsPhone, .awsIPAddress: return "String"
        case .int: return "Int"
        case .float: return "Double"
        case .boolean: return "Bool"
        case .awsDate: return "Temporal.Date"
        case .awsTime: return "Temporal.Time"
        case .awsDateTime: return "Temporal.DateTime"
        case .awsTimestamp: return "Date"
        case .awsJSON: return "JSONValue"
        }
    }

    /// The field's value type without the outer optional: `Int`, `[String?]`, `[PostStatus]`.
    /// Typed predicate keys (`QueryField<Value>`) use this form.
    static func value(of field: Field) -> String {
        let element = named(field.type)
        guard field.isList else { return element }
        return field.isListElementRequired ? "[\(element)]" : "[\(element)?]"
    }

    /// The declared type of a property: ``value(of:)`` plus `?` when the property may be nil.
    static func declared(_ field: Field, isOptional: Bool) -> String {
        value(of: field) + (isOptional ? "?" : "")
    }
}
