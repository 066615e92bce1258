import DeltaSyncSchema

/// The declaration of a non-model type: a struct conforming to `NonModel`, stored as a JSON
/// object inside its model's item.
struct NonModelFileWriter {
    let nonModel: NonModelType
    let names: SwiftNames

    var declaration: SwiftSource {
        let properties = StoredProperty.properties(of: nonModel, names: names)
        var source = SwiftSource()
        source.block("public struct \(nonModel.name): \(names.library("NonModel"))") { body in
            StoredMembersWriter.properties(properties, into: &body)
            body.line()
            StoredMembersWriter.memberwiseInitializer(properties, into: &body)
            body.line()
            StoredMembersWriter.itemConversion(properties, typeName: nonModel.name, names: names, into: &body)
        }
        return source
    }
}
