import DeltaSyncSchema

/// The Swift type a field holds in generated code.
struct SwiftTypeName {
    let names: SwiftNames

    /// The Swift type of one value of `type`, before list and optional wrapping.
    func named(_ type: FieldType) -> String {
        switch type {
        case .scalar(let scalar): return named(scalar)
        case .enumType(let name), .nonModel(let name), .model(let name): return name
        }
    }

    func named(_ scalar: ScalarType) -> String {
        switch scalar {
        case .id, .string, .awsEmail, .awsURL, .awsPhone, .awsIPAddress: return "String"
        case .int: return "Int"
        case .float: return names.library("Double")
        case .boolean: return names.library("Bool")
        case .awsDate: return names.library("Temporal") + ".Date"
        case .awsTime: return names.library("Temporal") + ".Time"
        case .awsDateTime: return names.library("Temporal") + ".DateTime"
        case .awsTimestamp: return names.library("Date")
        case .awsJSON: return names.library("JSONValue")
        }
    }

    /// The field's value type without the outer optional: `Int`, `[String?]`, `[PostStatus]`.
    /// Typed predicate keys (`QueryField<Value>`) use this form.
    func value(of field: Field) -> String {
        let element = named(field.type)
        guard field.isList else { return element }
        return field.isListElementRequired ? "[\(element)]" : "[\(element)?]"
    }

    /// The declared type of a property: ``value(of:)`` plus `?` when the property may be nil.
    func declared(_ field: Field, isOptional: Bool) -> String {
        value(of: field) + (isOptional ? "?" : "")
    }
}
