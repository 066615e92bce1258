import DeltaSyncCore

/// An Amplify GraphQL schema after its directives are understood: the models, enums and
/// non-model types, with keys, indexes and relations made explicit.
///
/// Everything downstream (the AppSync SDL printer, storage, resolvers, client codegen) reads this
/// value instead of directives, so v1 (`@key`, `@connection`) and v2 (`@primaryKey`, `@index`,
/// `@hasMany`, ...) schemas behave the same.
///
/// ```swift
/// let schema = try AmplifySchema.parse(source: text, file: "schema.graphql")
/// let post = schema.model(named: "Post")!
/// print(post.primaryKey.fields)        // ["id"]
/// ```
public struct AmplifySchema: Sendable, Equatable {
    /// `@model` types in declaration order, followed by generated join models of `@manyToMany`.
    public var models: [ModelSchema]
    public var enums: [EnumType]
    /// Object types without `@model` (stored inline, as JSON, inside a model's item).
    public var nonModels: [NonModelType]
    /// Subscription fields declared on `type Subscription` with `@aws_subscribe`.
    public var customSubscriptions: [CustomSubscription]
    /// Fields declared on `type Query` and `type Mutation`, in the order written.
    public var customOperations: [CustomOperation]
    /// `input` types the schema declares (for its custom operations' arguments), then those
    /// `@http` fields generate.
    public var inputTypes: [InputType]
    /// Fields of models and non-model types resolved by `@function`, in the order written.
    public var functionFields: [FunctionField]
    /// The API's shape: versioned (DataStore's, the default) or plain. Set it with
    /// ``servingConflictDetection(_:)``, which also drops the sync queries of a plain API.
    public internal(set) var conflictDetection: ConflictDetection = .version

    public init(
        models: [ModelSchema], enums: [EnumType], nonModels: [NonModelType], customSubscriptions: [CustomSubscription] = [],
        customOperations: [CustomOperation] = [], inputTypes: [InputType] = [], functionFields: [FunctionField] = []
    ) {
        self.functionFields = functionFields
        self.models = models
        self.enums = enums
        self.nonModels = nonModels
        self.customSubscriptions = customSubscriptions
        self.customOperations = customOperations
        self.inputTypes = inputTypes
    }

    public func model(named name: String) -> ModelSchema? { models.first { $0.name == name } }
    public func enumType(named name: String) -> EnumType? { enums.first { $0.name == name } }
    public func nonModel(named name: String) -> NonModelType? { nonModels.first { $0.name == name } }
}

/// A GraphQL enum of the user's schema.
public struct EnumType: Sendable, Equatable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}

/// An object type without `@model`: a value stored inside a model item.
public struct NonModelType: Sendable, Equatable {
    public var name: String
    public var fields: [Field]

    public init(name: String, fields: [Field]) {
        self.name = name
        self.fields = fields
    }
}

extension AmplifySchema {
    /// The selection set DataStore sends for a model, as Amplify generates it: every stored
    /// field (non-model objects with all their fields), the sync metadata and `__typename`.
    ///
    ///     schema.syncSelection(of: post)   // "id title ... _version _deleted _lastChangedAt __typename"
    public func syncSelection(of model: ModelSchema) -> String {
        selection(of: model.storedFields) + " _version _deleted _lastChangedAt __typename"
    }

    private func selection(of fields: [Field]) -> String {
        fields.map { field in
            if case .nonModel(let name) = field.type, let type = nonModel(named: name) {
                return "\(field.name) { \(selection(of: type.fields)) }"
            }
            return field.name
        }.joined(separator: " ")
    }
}
