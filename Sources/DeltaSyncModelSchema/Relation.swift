/// A relation field, normalised so that every kind resolves the same way:
/// the related items are those of `relatedModel` whose `relatedFields` equal this item's
/// `localFields`, value by value.
///
/// - `@belongsTo` / v2 `@hasOne`: `localFields` hold the foreign key on this item,
///   `relatedFields` are the related model's primary key fields. One item.
/// - `@hasMany`: `localFields` are this item's key fields, `relatedFields` the child's foreign
///   key fields, served by the child's index `indexName`. A connection.
/// - `@manyToMany`: a `@hasMany` to the generated join model.
public struct Relation: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case hasMany, hasOne, belongsTo, manyToMany
    }

    public var kind: Kind
    /// The model the field points to (the join model for `@manyToMany`).
    public var relatedModel: String
    public var localFields: [String]
    public var relatedFields: [String]
    /// The related model's index that serves the lookup, when it is not the primary key.
    public var indexName: String?

    public init(kind: Kind, relatedModel: String, localFields: [String], relatedFields: [String], indexName: String? = nil) {
        self.kind = kind
        self.relatedModel = relatedModel
        self.localFields = localFields
        self.relatedFields = relatedFields
        self.indexName = indexName
    }

    /// `true` when the field is a connection (`Model<X>Connection`) rather than one item.
    public var isConnection: Bool { kind == .hasMany || kind == .manyToMany }
}
