/// A `@model` type: one table, its key, its secondary indexes and its generated operations.
public struct ModelSchema: Sendable, Equatable {
    /// The GraphQL type name, e.g. `Post`.
    public var name: String
    /// Every field of the type as the generated AppSync schema shows it, in order: the user's
    /// fields (relation fields included), implicit foreign keys, then `createdAt`/`updatedAt`
    /// when timestamps are on. The sync metadata (`_version`, `_deleted`, `_lastChangedAt`) is
    /// not listed here: it exists on every model.
    public var fields: [Field] {
        didSet { storedFields = fields.filter { $0.relation == nil } }
    }
    /// Fields that hold a value in the item (everything but relation fields). Kept with
    /// `fields`: every write reads it.
    public private(set) var storedFields: [Field]
    public var primaryKey: PrimaryKey
    /// `@index` (v2) or named `@key` (v1) secondary indexes, plus the indexes relations need.
    public var indexes: [Index]
    /// Names of the generated root fields; `nil` where `@model` turned an operation off.
    public var operations: Operations
    /// Field names Amplify sets to "now"; `nil` where `@model(timestamps:)` turned one off.
    public var timestamps: Timestamps
    /// `true` for the join model a `@manyToMany` generates.
    public var isJoinModel: Bool
    /// The model's `@auth` rules; `nil` when the model has no `@auth` (every caller a field's
    /// modes admit may do everything, as AppSync without authorization rules).
    public var authRules: [AuthRule]?
    /// AppSync mode directives written on the type itself (`type Post @model @aws_api_key`),
    /// in the order written; `nil` when none.
    public var modeDirectives: [AuthMode]?

    public init(
        name: String,
        fields: [Field],
        primaryKey: PrimaryKey,
        indexes: [Index] = [],
        operations: Operations,
        timestamps: Timestamps = Timestamps(),
        isJoinModel: Bool = false,
        authRules: [AuthRule]? = nil,
        modeDirectives: [AuthMode]? = nil
    ) {
        self.name = name
        self.fields = fields
        self.storedFields = fields.filter { $0.relation == nil }
        self.primaryKey = primaryKey
        self.indexes = indexes
        self.operations = operations
        self.timestamps = timestamps
        self.isJoinModel = isJoinModel
        self.authRules = authRules
        self.modeDirectives = modeDirectives
    }

    public func field(named name: String) -> Field? { fields.first { $0.name == name } }

    /// Relation fields (`@hasMany`, `@hasOne`, `@belongsTo`, `@manyToMany`).
    public var relationFields: [Field] { fields.filter { $0.relation != nil } }

    public func index(named name: String) -> Index? { indexes.first { $0.name == name } }
}

/// The key that identifies an item: a partition field plus optional sort key fields.
public struct PrimaryKey: Sendable, Equatable {
    public var partitionField: String
    public var sortKeyFields: [String]

    public init(partitionField: String = "id", sortKeyFields: [String] = []) {
        self.partitionField = partitionField
        self.sortKeyFields = sortKeyFields
    }

    /// All key fields, partition first.
    public var fields: [String] { [partitionField] + sortKeyFields }
}

/// A secondary index (a DynamoDB GSI in AppSync): query by partition field, ordered by sort keys.
public struct Index: Sendable, Equatable {
    public var name: String
    public var partitionField: String
    public var sortKeyFields: [String]
    /// The generated `Query` field (e.g. `postsByBlog`), if the schema asked for one.
    public var queryField: String?

    public init(name: String, partitionField: String, sortKeyFields: [String] = [], queryField: String? = nil) {
        self.name = name
        self.partitionField = partitionField
        self.sortKeyFields = sortKeyFields
        self.queryField = queryField
    }
}

/// Generated root field names of a model; `nil` = not generated.
public struct Operations: Sendable, Equatable {
    public var get: String?
    public var list: String?
    public var sync: String?
    public var create: String?
    public var update: String?
    public var delete: String?
    public var onCreate: String?
    public var onUpdate: String?
    public var onDelete: String?

    public init(
        get: String?, list: String?, sync: String?,
        create: String?, update: String?, delete: String?,
        onCreate: String?, onUpdate: String?, onDelete: String?
    ) {
        self.get = get
        self.list = list
        self.sync = sync
        self.create = create
        self.update = update
        self.delete = delete
        self.onCreate = onCreate
        self.onUpdate = onUpdate
        self.onDelete = onDelete
    }

    /// Amplify's default names for a type name and its plural (`Post`, `Posts`).
    public static func defaults(typeName: String, plural: String) -> Operations {
        Operations(
            get: "get\(typeName)", list: "list\(plural)", sync: "sync\(plural)",
            create: "create\(typeName)", update: "update\(typeName)", delete: "delete\(typeName)",
            onCreate: "onCreate\(typeName)", onUpdate: "onUpdate\(typeName)", onDelete: "onDelete\(typeName)"
        )
    }
}

/// The fields `@model(timestamps:)` maps `createdAt` / `updatedAt` to.
public struct Timestamps: Sendable, Equatable {
    public var createdAt: String?
    public var updatedAt: String?

    public init(createdAt: String? = "createdAt", updatedAt: String? = "updatedAt") {
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
