import DeltaSyncSchema

/// The declaration of a `@model` type: a struct conforming to `Model`, with its stored fields,
/// its relations as lazily loaded references and lists, its schema description and typed keys
/// for predicates.
struct ModelFileWriter {
    let model: ModelSchema
    let names: SwiftNames

    /// The nested type of typed keys: `Keys`, or `Fields` in a model named `Keys`.
    private var keysType: String { model.name == "Keys" ? "Fields" : "Keys" }

    var declaration: SwiftSource {
        let properties = StoredProperty.properties(of: model, names: names)
        var source = SwiftSource()
        source.block("public struct \(model.name): \(names.library("Model")), \(names.library("Equatable"))") { body in
            StoredMembersWriter.properties(properties, into: &body)
            body.line()
            StoredMembersWriter.memberwiseInitializer(properties, into: &body)
            body.line()
            StoredMembersWriter.itemConversion(properties, typeName: model.name, names: names, into: &body)
            body.line()
            rowInitializer(properties, into: &body)
            relations(into: &body)
            body.line()
            body.line("public static let schema = DeltaSyncModels.schema.generatedModel(\(SwiftLiteral.string(model.name)))")
            body.line()
            keys(properties, into: &body)
        }
        return source
    }

    /// `init(row:)`: fields by their position in the schema, the order the local table's
    /// columns follow.
    private func rowInitializer(_ properties: [StoredProperty], into source: inout SwiftSource) {
        let owner = SwiftLiteral.string(model.name)
        source.block("public init(row: \(names.library("ModelRow"))) throws(\(names.library("DataStoreError")))") { body in
            for (position, property) in properties.enumerated() {
                body.line("\(property.identifier) = try row.field(\(position), \(SwiftLiteral.string(property.name)), of: \(owner))")
            }
        }
    }

    /// Relations are computed from the stored foreign keys, so a model stays a plain value that
    /// never holds another model.
    private func relations(into source: inout SwiftSource) {
        let relationFields = model.relationFields.compactMap { field in field.relation.map { (field, $0) } }
        guard !relationFields.isEmpty else { return }
        source.line()
        for (field, relation) in relationFields {
            let wrapper = names.library(relation.isConnection ? "LazyList" : "LazyReference")
            let name = SwiftIdentifier.property(field.name, reserved: StoredProperty.modelMembers)
            source.line(
                "public var \(name): \(wrapper)<\(relation.relatedModel)> { \(wrapper)(from: self, relation: \(SwiftLiteral.string(field.name))) }"
            )
        }
    }

    private func keys(_ properties: [StoredProperty], into source: inout SwiftSource) {
        source.block("public struct \(keysType): \(names.library("Sendable"))") { body in
            let queryField = names.library("QueryField")
            for property in properties {
                body.line("public let \(property.identifier) = \(queryField)<\(property.valueType)>(\(SwiftLiteral.string(property.name)))")
            }
        }
        source.line()
        source.line("public static let keys = \(keysType)()")
    }
}
