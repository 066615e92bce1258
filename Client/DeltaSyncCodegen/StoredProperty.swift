import DeltaSyncSchema

/// A stored field as a property of a generated struct: how it is declared, defaulted and read.
struct StoredProperty {
    /// The GraphQL field name, the key in the item.
    let name: String
    /// The Swift identifier, escaped when it is a keyword.
    let identifier: String
    /// The declared Swift type, `?` included.
    let type: String
    /// The type without the outer optional, for `QueryField<Value>`.
    let valueType: String
    /// Key fields are `let`: changing one would make the value a different item.
    let isConstant: Bool
    /// The initializer parameter's default expression, if it has one.
    let defaultExpression: String?

    init(field: Field, isOptional: Bool, isConstant: Bool, defaultExpression: String?, reserved: Set<String>, names: SwiftNames) {
        name = field.name
        identifier = SwiftIdentifier.property(field.name, reserved: reserved)
        let typeName = SwiftTypeName(names: names)
        type = typeName.declared(field, isOptional: isOptional)
        valueType = typeName.value(of: field)
        self.isConstant = isConstant
        self.defaultExpression = defaultExpression
    }

    /// The stored fields of a model, in the schema's order.
    ///
    /// Key fields are never optional. Timestamps Amplify adds are optional even though AppSync
    /// declares them non-null: the server sets them, so a model created on the device has none
    /// yet. A single `id: ID!` key defaults to a new UUID, as Amplify's clients create them.
    static func properties(of model: ModelSchema, names: SwiftNames) -> [StoredProperty] {
        let keyFields = model.primaryKey.fields
        let serverSet = [model.timestamps.createdAt, model.timestamps.updatedAt].compactMap { $0 }
        return model.storedFields.map { field in
            let isKey = keyFields.contains(field.name)
            let isServerSet = field.isGenerated && serverSet.contains(field.name)
            let isOptional = !isKey && (!field.isRequired || isServerSet)
            let isSingleID = keyFields == [field.name] && field.type == .scalar(.id) && !field.isList
            let defaultExpression = isSingleID ? "\(names.library("UUID"))().uuidString" : defaultExpression(field, isOptional: isOptional, names: names)
            return StoredProperty(
                field: field, isOptional: isOptional, isConstant: isKey, defaultExpression: defaultExpression,
                reserved: modelMembers, names: names)
        }
    }

    /// The fields of a non-model type: every field is stored and none is a key.
    static func properties(of nonModel: NonModelType, names: SwiftNames) -> [StoredProperty] {
        nonModel.fields.map { field in
            let isOptional = !field.isRequired
            return StoredProperty(
                field: field, isOptional: isOptional, isConstant: false,
                defaultExpression: defaultExpression(field, isOptional: isOptional, names: names), reserved: nonModelMembers, names: names
            )
        }
    }

    /// Instance members every generated model has (`Model.item`); a field named like one
    /// becomes a property with a trailing underscore.
    static let modelMembers: Set<String> = ["item"]
    /// Instance members every non-model type has (`NonModel.item`, `ModelValue.json`).
    static let nonModelMembers: Set<String> = ["item", "json"]

    private static func defaultExpression(_ field: Field, isOptional: Bool, names: SwiftNames) -> String? {
        if let value = field.defaultValue, let literal = SwiftLiteral.defaultValue(value, of: field, names: names) { return literal }
        return isOptional ? "nil" : nil
    }
}
