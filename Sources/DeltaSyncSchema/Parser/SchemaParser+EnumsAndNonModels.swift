import GraphQL

/// Enums and non-model object types: built before models, whose fields refer to them.
extension SchemaParser {
    func buildEnums() throws(SchemaError) -> [EnumType] {
        var enums: [EnumType] = []
        for definition in enumDefinitions {
            try DirectiveCheck.check(definition.directives, allowed: [], place: "an enum", declared: declaredDirectives)
            var values: [String] = []
            for value in definition.values {
                guard !values.contains(value.name.value) else {
                    throw SchemaError(
                        at: value.name.loc,
                        "duplicate value '\(value.name.value)' in enum '\(definition.name.value)'"
                    )
                }
                try DirectiveCheck.check(value.directives, allowed: [], place: "an enum value", declared: declaredDirectives)
                values.append(value.name.value)
            }
            enums.append(EnumType(name: definition.name.value, values: values))
        }
        return enums
    }

    func buildNonModels(catalog: TypeCatalog) throws(SchemaError) -> [NonModelType] {
        var nonModels: [NonModelType] = []
        for definition in nonModelDefinitions {
            let typeName = definition.name.value
            try DirectiveCheck.check(
                definition.directives, allowed: [], place: "a non-model type", declared: declaredDirectives
            )
            var fields: [Field] = []
            for node in definition.fields {
                let path = "\(typeName).\(node.name.value)"
                guard !fields.contains(where: { $0.name == node.name.value }) else {
                    throw SchemaError(at: node.name.loc, "duplicate field '\(path)'")
                }
                try DirectiveCheck.check(
                    node.directives, allowed: [], place: "a field of a non-model type", declared: declaredDirectives
                )
                let field = try catalog.field(node, path: path)
                if case .model(let model) = field.type {
                    throw SchemaError(
                        at: node.type.loc,
                        "non-model type field '\(path)' cannot hold @model type '\(model)'; use a relation on a model"
                    )
                }
                fields.append(field)
            }
            nonModels.append(NonModelType(name: typeName, fields: fields))
        }
        return nonModels
    }
}
