import DeltaSyncCore

/// Reading, deleting and observing one model by its key: a typed key (`Post.identifier(id:)`),
/// any model's ``ModelIdentifier``, or the `id` of a model whose key is one field, as Amplify
/// names these calls.
extension DataStore {
    // MARK: - Querying

    /// The model with this key, `nil` when there is none.
    ///
    /// ```swift
    /// let like = try await dataStore.query(Reaction.self, byIdentifier: Reaction.identifier(postID: post.id, userID: "u1"))
    /// ```
    public func query<M: Model>(_ type: M.Type, byIdentifier identifier: TypedModelIdentifier<M>) async throws(DataStoreError) -> M? {
        try await query(type, byIdentifier: identifier.untyped)
    }

    /// The model with this key, `nil` when there is none.
    ///
    /// - Throws: ``DataStoreError/invalidIdentifier(model:reason:)`` when the key's fields are
    ///   not `M`'s key fields.
    ///
    /// ```swift
    /// let same = try await dataStore.query(Post.self, byIdentifier: post.identifier)
    /// ```
    public func query<M: Model>(_ type: M.Type, byIdentifier identifier: ModelIdentifier) async throws(DataStoreError) -> M? {
        let key = try identifier.key(of: M.schema)
        sync?.ensureStarted()
        return try await store.fetch(M.modelName, key: key).map { item throws(DataStoreError) in try M(item: item) }
    }

    /// The model with this `id`, `nil` when there is none.
    ///
    /// - Throws: ``DataStoreError/invalidIdentifier(model:reason:)`` when `M`'s key has several
    ///   fields: use ``query(_:byIdentifier:)-(M.Type,TypedModelIdentifier<M>)``.
    ///
    /// ```swift
    /// let hello = try await dataStore.query(Post.self, byId: "p1")
    /// ```
    public func query<M: Model>(_ type: M.Type, byId id: String) async throws(DataStoreError) -> M? {
        try await query(type, byIdentifier: ModelIdentifier.single(id, of: M.schema))
    }

    // MARK: - Deleting

    /// Deletes the model with this key (nothing when there is none), cascading as
    /// ``delete(_:where:)-(M,_)``.
    ///
    /// - Parameter condition: checked locally against the stored model (not sent, as Amplify).
    /// - Throws: ``DataStoreError/conditionFailed(model:reason:)`` when the stored model does
    ///   not match `condition`; nothing is deleted.
    ///
    /// ```swift
    /// try await dataStore.delete(Reaction.self, withIdentifier: Reaction.identifier(postID: post.id, userID: "u1"))
    /// ```
    public func delete<M: Model>(
        _ type: M.Type, withIdentifier identifier: TypedModelIdentifier<M>, where condition: QueryPredicate? = nil
    ) async throws(DataStoreError) {
        try await delete(type, withIdentifier: identifier.untyped, where: condition)
    }

    /// Deletes the model with this key (nothing when there is none), cascading as
    /// ``delete(_:where:)-(M,_)``.
    ///
    /// - Parameter condition: checked locally against the stored model (not sent, as Amplify).
    /// - Throws: ``DataStoreError/invalidIdentifier(model:reason:)`` when the key's fields are
    ///   not `M`'s key fields; ``DataStoreError/conditionFailed(model:reason:)`` when the stored
    ///   model does not match `condition`.
    ///
    /// ```swift
    /// try await dataStore.delete(Post.self, withIdentifier: post.identifier)
    /// ```
    public func delete<M: Model>(
        _ type: M.Type, withIdentifier identifier: ModelIdentifier, where condition: QueryPredicate? = nil
    ) async throws(DataStoreError) {
        let key = try identifier.key(of: M.schema)
        sync?.ensureStarted()
        try await store.delete(key: key, of: M.schema, where: condition)
    }

    /// Deletes the model with this `id` (nothing when there is none), cascading as
    /// ``delete(_:where:)-(M,_)``.
    ///
    /// - Parameter condition: checked locally against the stored model (not sent, as Amplify).
    /// - Throws: ``DataStoreError/conditionFailed(model:reason:)`` when the stored model does
    ///   not match `condition`, and nothing is deleted; ``DataStoreError/invalidIdentifier(model:reason:)``
    ///   when `M`'s key has several fields.
    ///
    /// ```swift
    /// try await dataStore.delete(Post.self, withId: post.id, where: Post.keys.status == PostStatus.draft)
    /// ```
    public func delete<M: Model>(_ type: M.Type, withId id: String, where condition: QueryPredicate? = nil) async throws(DataStoreError) {
        try await delete(type, withIdentifier: ModelIdentifier.single(id, of: M.schema), where: condition)
    }

    // MARK: - Observing

    /// Every change of the model with this key from now on.
    ///
    /// ```swift
    /// for await change in dataStore.observe(Reaction.self, identifier: Reaction.identifier(postID: post.id, userID: "u1")) {
    ///     print(change.mutationType, change.model.emoji)
    /// }
    /// ```
    public func observe<M: Model>(_ type: M.Type, identifier: TypedModelIdentifier<M>) -> ModelChanges<M> {
        observe(type, identifier: identifier.untyped)
    }

    /// Every change of the model with this key from now on.
    ///
    /// A key whose fields are not `M`'s key fields observes nothing: the sequence ends at once
    /// and the error handler is given ``DataStoreError/invalidIdentifier(model:reason:)``.
    ///
    /// ```swift
    /// for await change in dataStore.observe(Post.self, identifier: post.identifier) { print(change.model.title) }
    /// ```
    public func observe<M: Model>(_ type: M.Type, identifier: ModelIdentifier) -> ModelChanges<M> {
        do {
            _ = try identifier.key(of: M.schema)
        } catch {
            return endedChanges(error)
        }
        sync?.ensureStarted()
        return ModelChanges(updates: store.feed.subscribe(), identifier: identifier, onError: store.errorHandler)
    }

    /// Every change of the model with this `id` from now on.
    ///
    /// For a model whose key has several fields the sequence ends at once and the error handler
    /// is given ``DataStoreError/invalidIdentifier(model:reason:)``.
    ///
    /// ```swift
    /// for await change in dataStore.observe(Post.self, id: post.id) { print(change.mutationType, change.model.title) }
    /// ```
    public func observe<M: Model>(_ type: M.Type, id: String) -> ModelChanges<M> {
        do {
            return observe(type, identifier: try ModelIdentifier.single(id, of: M.schema))
        } catch {
            return endedChanges(error)
        }
    }

    /// Changes that end at once, `error` given to the error handler.
    private func endedChanges<M: Model>(_ error: DataStoreError) -> ModelChanges<M> {
        store.report(error)
        return ModelChanges(updates: AsyncStream { $0.finish() }, identifier: nil, onError: store.errorHandler)
    }
}
