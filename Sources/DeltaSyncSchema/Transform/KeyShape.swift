/// A key the AppSync schema queries by, primary or index, with the names of its generated
/// key-condition inputs.
///
/// A single sort key field is compared with a shared `Model<Scalar>KeyConditionInput`. Two or
/// more sort key fields form one composite sort key (stored joined, compared as a whole) with
/// its own inputs, named like Amplify's: `Model<Type><IndexName>CompositeKeyConditionInput`
/// for an index (`ModelPostByStatusCompositeKeyConditionInput`) and
/// `Model<Type>PrimaryCompositeKeyConditionInput` for the primary key. Index names that are not
/// identifiers (`gsi-Blog.posts`) are made PascalCase identifiers first.
struct KeyShape {
    let model: ModelSchema
    /// `nil` for the primary key.
    let indexName: String?
    let partitionField: String
    let sortKeyFields: [String]

    init(model: ModelSchema, index: Index?) {
        self.model = model
        self.indexName = index?.name
        self.partitionField = index?.partitionField ?? model.primaryKey.partitionField
        self.sortKeyFields = index?.sortKeyFields ?? model.primaryKey.sortKeyFields
    }

    /// The key a relation looks items up by: the named index, or the primary key.
    init(model: ModelSchema, indexName: String?) {
        self.init(model: model, index: indexName.flatMap(model.index(named:)))
    }

    var keyFields: [String] { [partitionField] + sortKeyFields }

    var isComposite: Bool { sortKeyFields.count > 1 }

    private var compositePrefix: String {
        "Model\(model.name)\(indexName.map(Naming.pascalIdentifier) ?? "Primary")Composite"
    }

    var compositeConditionInputName: String { compositePrefix + "KeyConditionInput" }

    var compositeKeyInputName: String { compositePrefix + "KeyInput" }

    /// The argument that narrows the sort key once the first `boundFields` key fields are given
    /// by equality: `publishedAt: ModelStringKeyConditionInput`, `ratingTitle:
    /// Model...CompositeKeyConditionInput`, or `nil` when nothing is left to narrow.
    func sortKeyArgument(boundFields: Int) -> (name: String, type: String)? {
        let remaining = Array(keyFields.dropFirst(boundFields))
        if boundFields == 1, isComposite {
            return (Naming.sortKeyArgumentName(sortKeyFields), compositeConditionInputName)
        }
        guard remaining.count == 1, let field = model.field(named: remaining[0]) else { return nil }
        return (field.name, Self.keyConditionInputName(for: field.type))
    }

    /// `ModelIDKeyConditionInput`, `ModelIntKeyConditionInput`, ... for one sort key field.
    static func keyConditionInputName(for type: FieldType) -> String {
        switch type.keyKind {
        case "Int": return "ModelIntKeyConditionInput"
        case "Float": return "ModelFloatKeyConditionInput"
        default: return type == .scalar(.id) ? "ModelIDKeyConditionInput" : "ModelStringKeyConditionInput"
        }
    }

    /// Every composite key of the schema, in model order, primary key first.
    static func compositeKeys(in schema: AmplifySchema) -> [KeyShape] {
        schema.models.flatMap { model in
            [KeyShape(model: model, index: nil)] + model.indexes.map { KeyShape(model: model, index: $0) }
        }.filter(\.isComposite)
    }
}
