import GraphQL

/// What every type name of the schema is, so a field's GraphQL type can become a ``FieldType``.
struct TypeCatalog {
    var enums: [String: EnumType]
    var nonModelNames: Set<String>
    var modelNames: Set<String>
    /// Directives the schema declares itself (`directive @custom on FIELD_DEFINITION`).
    var declaredDirectives: Set<String>

    /// The field a field definition declares, without directives applied.
    ///
    /// - Parameter path: `Type.field`, for messages.
    /// - Throws: ``SchemaError`` at the type for an unknown type name or a nested list.
    func field(_ node: FieldDefinition, path: String) throws(SchemaError) -> Field {
        let shape = try TypeShape(node.type, path: path)
        return Field(
            name: node.name.value,
            type: try fieldType(shape.named, path: path),
            isList: shape.isList,
            isRequired: shape.isRequired,
            isListElementRequired: shape.isListElementRequired
        )
    }

    private func fieldType(_ named: NamedType, path: String) throws(SchemaError) -> FieldType {
        let name = named.name.value
        if let scalar = ScalarType(rawValue: name) { return .scalar(scalar) }
        if enums[name] != nil { return .enumType(name) }
        if nonModelNames.contains(name) { return .nonModel(name) }
        if modelNames.contains(name) { return .model(name) }
        throw SchemaError(at: named.loc, "unknown type '\(name)' for field '\(path)'")
    }
}

/// A GraphQL type reference taken apart: `[String!]!` is a required list of required `String`.
struct TypeShape {
    var named: NamedType
    var isList = false
    var isRequired = false
    var isListElementRequired = false

    init(_ type: GraphQL.`Type`, path: String) throws(SchemaError) {
        var current = type
        if let nonNull = current as? NonNullType {
            isRequired = true
            current = nonNull.type
        }
        if let list = current as? ListType {
            isList = true
            current = list.type
            if let nonNull = current as? NonNullType {
                isListElementRequired = true
                current = nonNull.type
            }
        }
        guard let named = current as? NamedType else {
            throw SchemaError(at: current.loc, "field '\(path)' has a nested list type, which Amplify does not support")
        }
        self.named = named
    }
}

/// Checks that every directive is known and allowed where it is written.
enum DirectiveCheck {
    /// - Parameters:
    ///   - allowed: Directives the parser understands in this place.
    ///   - place: Where the directives are, for messages ("a non-model type").
    ///   - declared: Directives the schema declares itself.
    static func check(
        _ directives: [Directive], allowed: Set<String>, place: String, declared: Set<String>
    ) throws(SchemaError) {
        for directive in directives {
            let name = directive.name.value
            if allowed.contains(name) || KnownDirectives.ignored.contains(name) || declared.contains(name) {
                continue
            }
            if KnownDirectives.modelType.contains(name) || KnownDirectives.modelField.contains(name) {
                throw SchemaError(at: directive.loc, "@\(name) is not allowed on \(place)")
            }
            throw SchemaError(at: directive.loc, "unknown directive @\(name)")
        }
    }
}
