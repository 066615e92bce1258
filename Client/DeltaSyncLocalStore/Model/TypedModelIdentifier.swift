import DeltaSyncCore
import DeltaSyncModelSchema

/// The primary key of one model of type `M`: a ``ModelIdentifier`` that only `M`'s calls accept.
///
/// Generated models make them with `identifier(...)`, whose parameters are the model's key
/// fields, so a key with a field missing, misnamed or of the wrong model does not compile:
///
/// ```swift
/// let hello = try await dataStore.query(Post.self, byIdentifier: Post.identifier(id: "p1"))
/// let like = Reaction.identifier(postID: "p1", userID: "u1")
/// try await dataStore.delete(Reaction.self, withIdentifier: like)
/// for await change in dataStore.observe(Reaction.self, identifier: like) { print(change.model.emoji) }
/// ```
public struct TypedModelIdentifier<M: Model>: Sendable, Hashable, CustomStringConvertible {
    /// The key's fields and values, as the calls that take any model's key read them.
    ///
    /// ```swift
    /// let key: ModelIdentifier = Reaction.identifier(postID: "p1", userID: "u1").untyped
    /// print(key.item)                                   // ["postID": "p1", "userID": "u1"]
    /// ```
    public let untyped: ModelIdentifier

    /// The key of these fields and values, in the model's key order (partition field first);
    /// what generated `identifier(...)` functions call.
    ///
    /// A store call with a key whose fields are not exactly `M`'s key fields throws
    /// ``DataStoreError/invalidIdentifier(model:reason:)``.
    ///
    /// ```swift
    /// let like = TypedModelIdentifier<Reaction>(["postID": "p1", "userID": "u1"])
    /// ```
    public init(_ fields: KeyValuePairs<String, JSONValue>) {
        untyped = ModelIdentifier(fields)
    }

    /// The key of `model`.
    ///
    /// ```swift
    /// let key = TypedModelIdentifier(of: post)
    /// print(key == Post.identifier(id: post.id))        // true
    /// ```
    public init(of model: M) {
        untyped = model.identifier
    }

    /// The key as the outbox and events write it: the `id` alone, or `postID=p1#userID=u1`.
    ///
    /// ```swift
    /// print(Reaction.identifier(postID: "p1", userID: "u1"))   // postID=p1#userID=u1
    /// ```
    public var description: String { untyped.description }
}

extension ModelIdentifier {
    /// The key as an item of `model`'s key fields.
    ///
    /// - Throws: ``DataStoreError/invalidIdentifier(model:reason:)`` when the identifier's
    ///   fields are not exactly the model's key fields.
    func key(of model: ModelSchema) throws(DataStoreError) -> Item {
        let keyFields = model.primaryKey.fields
        let item = item
        guard item.count == fields.count, Set(item.keys) == Set(keyFields) else {
            let given = fields.map(\.name).joined(separator: ", ")
            throw .invalidIdentifier(
                model: model.name,
                reason: "its key is (\(keyFields.joined(separator: ", "))), the identifier names (\(given)). "
                    + "Make it with \(model.name).identifier(\(keyFields.map { $0 + ":" }.joined()))")
        }
        return item
    }

    /// The key of a model whose key is one field, from that field's value.
    ///
    /// - Throws: ``DataStoreError/invalidIdentifier(model:reason:)`` for a composite key, which
    ///   one `id` cannot name.
    static func single(_ id: String, of model: ModelSchema) throws(DataStoreError) -> ModelIdentifier {
        let keyFields = model.primaryKey.fields
        guard keyFields.count == 1 else {
            throw .invalidIdentifier(
                model: model.name,
                reason: "its key has \(keyFields.count) fields (\(keyFields.joined(separator: ", "))), so one id names none. "
                    + "Use \(model.name).identifier(\(keyFields.map { $0 + ":" }.joined())) and the identifier calls")
        }
        return ModelIdentifier([(keyFields[0], .string(id))])
    }
}
