import DeltaSyncSchema

/// The declaration of a schema enum: a `String` enum whose raw values are the GraphQL values,
/// the form AppSync sends and stores.
struct EnumFileWriter {
    let enumType: EnumType

    var declaration: SwiftSource {
        var source = SwiftSource()
        source.block("public enum \(enumType.name): String, ModelEnum") { body in
            for value in enumType.values {
                body.line("case \(SwiftIdentifier.enumCase(value)) = \(SwiftLiteral.string(value))")
            }
        }
        return source
    }
}
