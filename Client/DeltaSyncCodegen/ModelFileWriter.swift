import DeltaSyncSchema

/// The declaration of a `@model` type: a struct conforming to `Model` (and `Identifiable`), with
/// its stored fields, its relations as lazily loaded references and lists, its schema
/// description, its key as a typed identifier (`Post.identifier(id:)`) and typed keys for
/// predicates.
struct ModelFileWriter {
    let model: ModelSchema
    let names: SwiftNames

    /// The nested type of typed keys: `Keys`, or `Fields` in a model named `Keys`.
    private var keysType: String { model.name == "Keys" ? "Fields" : "Keys" }

    var declaration: SwiftSource {
        let properties = StoredProperty.properties(of: model, names: names)
        var source = SwiftSource()
        let conformances = ["Model", "Equatable"] + (identity(properties) == .notIdentifiable ? [] : ["Identifiable"])
        source.block("public struct \(model.name): \(conformances.map(names.library).joined(separator: ", "))") { body in
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
            identifier(properties, into: &body)
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

    /// How the model is `Identifiable`, which SwiftUI's lists need.
    private enum Identity {
        /// Its key is its stored `id`.
        case storedID
        /// It has no `id` field: a computed `id` is its typed key.
        case key
        /// An `id` field that is not the whole key: not `Identifiable`, since that `id` may not
        /// tell two models apart.
        case notIdentifiable
    }

    private func identity(_ properties: [StoredProperty]) -> Identity {
        if model.primaryKey.fields == ["id"] { return .storedID }
        return properties.contains { $0.identifier == "id" } ? .notIdentifiable : .key
    }

    /// `identifier(...)`, the model's key as a typed identifier with a parameter per key field,
    /// and the computed `id` of a model identified by its key.
    private func identifier(_ properties: [StoredProperty], into source: inout SwiftSource) {
        let key = model.primaryKey.fields.compactMap { name in properties.first { $0.name == name } }
        let typed = "\(names.library("TypedModelIdentifier"))<\(model.name)>"
        let parameters = key.map { "\($0.identifier): \($0.type)" }.joined(separator: ", ")
        source.block("public static func identifier(\(parameters)) -> \(typed)") { body in
            let fields = key.map { "\(SwiftLiteral.string($0.name)): \($0.identifier).json" }.joined(separator: ", ")
            body.line("\(typed)([\(fields)])")
        }
        guard identity(properties) == .key else { return }
        source.line()
        let arguments = key.map { "\($0.identifier): \($0.identifier)" }.joined(separator: ", ")
        source.line("public var id: \(typed) { Self.identifier(\(arguments)) }")
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
