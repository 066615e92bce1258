import DeltaSyncCore
import DeltaSyncModelSchema

/// A value of a `@model` type, generated from the schema by `deltasync codegen swift`.
///
/// A model converts to and from an ``Item``, the shape AppSync sends it in (field name to JSON
/// value, relation fields left out); `Codable` goes through the same shape, so a model decodes
/// straight from a GraphQL response.
///
/// ```swift
/// let post = Post(blogID: blog.id, title: "Hello")
/// try await dataStore.save(post)
/// let popular = try await dataStore.query(Post.self, where: Post.keys.rating > 4)
/// ```
public protocol Model: Codable, Sendable {
    /// The model's fields, key, indexes and relations.
    static var schema: ModelSchema { get }

    /// Reads a model from its stored fields.
    ///
    /// - Throws: ``DataStoreError/decoding(model:field:reason:)`` when a required field is
    ///   missing or a value has the wrong type.
    init(item: Item) throws(DataStoreError)

    /// Reads a model from its row in the local store, by field position; what queries use.
    ///
    /// - Throws: ``DataStoreError/decoding(model:field:reason:)`` as ``init(item:)``.
    init(row: ModelRow) throws(DataStoreError)

    /// The model's stored fields (relations left out), nil values as `null`.
    var item: Item { get }
}

extension Model {
    /// The GraphQL type name.
    public static var modelName: String { schema.name }

    /// This model's primary key.
    public var identifier: ModelIdentifier {
        ModelIdentifier(of: item, in: Self.schema)
    }
}

/// A non-model type (`type Location { ... }` without `@model`), stored inside its model.
public protocol NonModel: ModelValue, Codable, Equatable {
    init(item: Item) throws(DataStoreError)
    var item: Item { get }
}

extension NonModel {
    /// Reads the value from its JSON object; anything else is a decoding error.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard case .object(let item) = json else {
            throw DataStoreError.decoding(model: "\(Self.self)", field: nil, reason: "expected an object, got \(json.jsonText)")
        }
        try self.init(item: item)
    }

    /// The value as a JSON object, as it is stored inside its model.
    @inlinable public var json: JSONValue { .object(item) }
}

/// A schema enum, stored as its case name.
public protocol ModelEnum: ModelValue, RawRepresentable, CaseIterable, Codable, Hashable where RawValue == String {}

extension ModelEnum {
    /// Reads the case from its GraphQL name; an unknown name is a decoding error.
    @inlinable public init(json: JSONValue) throws(DataStoreError) {
        guard let name = json.stringValue, let value = Self(rawValue: name) else {
            throw DataStoreError.decoding(model: "\(Self.self)", field: nil, reason: "\(json.jsonText) is not a case of \(Self.self)")
        }
        self = value
    }

    /// The case's GraphQL name.
    @inlinable public var json: JSONValue { .string(rawValue) }
}
