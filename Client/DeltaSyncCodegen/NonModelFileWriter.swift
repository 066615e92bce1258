import DeltaSyncSchema

/// The declaration of a non-model type: a struct conforming to `NonModel`, stored as a JSON
/// object inside its model's item.
struct NonModelFileWriter {
    let nonModel: NonModelType

    var declaration: SwiftSource {
        let properties = StoredProperty.properties(of: nonModel)
        var source = SwiftSource()
        source.block("public struct \(nonModel.name): NonModel") { body in
            StoredMembersWriter.properties(properties, into: &body)
            body.line()
            StoredMembersWriter.memberwiseInitializer(properties, into: &body)
            body.line()
            StoredMembersWriter.itemConversion(properties, typeName: nonModel.name, into: &body)
        }
        return source
    }
}
