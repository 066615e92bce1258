import DeltaSyncSchema

/// The declaration of a schema enum: a `String` enum whose raw values are the GraphQL values,
/// the form AppSync sends and stores.
struct EnumFileWriter {
    let enumType: EnumType
    let names: SwiftNames

    var declaration: SwiftSource {
        var source = SwiftSource()
        source.block("public enum \(enumType.name): String, \(names.library("ModelEnum"))") { body in
            for value in enumType.values {
                body.line("case \(names.enumCase(value, of: enumType.name)) = \(SwiftLiteral.string(value))")
            }
        }
        return source
    }
}
