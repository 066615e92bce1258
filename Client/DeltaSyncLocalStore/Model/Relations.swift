import DeltaSyncCore

/// A `@belongsTo` or `@hasOne` related model, loaded when asked for.
///
/// ```swift
/// let blog = try await post.blog.get(from: dataStore)
/// ```
public struct LazyReference<Related: Model>: Sendable {
    /// The related model's key, `nil` when the foreign key is not set.
    public let identifier: ModelIdentifier?
    /// For `@hasOne`, whose key lives on the related model: the related items that point here.
    private let predicate: QueryPredicate?

    /// The reference a generated model's relation field `relation` describes.
    public init<Owner: Model>(from owner: Owner, relation name: String) {
        let relation = Owner.schema.field(named: name)?.relation
        let item = owner.item
        let values = relation?.localFields.map { item[$0] ?? .null } ?? []
        guard let relation, !values.isEmpty, !values.contains(where: \.isNull) else {
            identifier = nil
            predicate = nil
            return
        }
        let pairs = Array(zip(relation.relatedFields, values))
        if relation.relatedFields == Related.schema.primaryKey.fields {
            identifier = ModelIdentifier(pairs)
            predicate = nil
        } else {
            identifier = nil
            predicate = pairs.reduce(QueryPredicate.all) { $0 && .field($1.0, .eq($1.1)) }
        }
    }

    /// The related model, `nil` when there is none.
    public func get(from store: DataStore) async throws(DataStoreError) -> Related? {
        if let identifier { return try await store.query(Related.self, byIdentifier: identifier) }
        guard let predicate else { return nil }
        return try await store.query(Related.self, where: predicate, paginate: .firstResult).first
    }
}

/// A `@hasMany` (or `@manyToMany`, through its join model) list, loaded when asked for.
///
/// ```swift
/// for comment in try await post.comments.fetch(from: dataStore) { print(comment.content) }
/// ```
public struct LazyList<Element: Model>: Sendable {
    /// Selects the related items: their foreign key equals this model's key.
    public let predicate: QueryPredicate

    /// The items related to `owner` through its relation field `name` (`@hasMany`, `@manyToMany` join rows); a field that is not a relation selects nothing.
    public init<Owner: Model>(from owner: Owner, relation name: String) {
        let item = owner.item
        guard let relation = Owner.schema.field(named: name)?.relation else {
            predicate = .not(.all)
            return
        }
        predicate = zip(relation.relatedFields, relation.localFields).reduce(QueryPredicate.all) {
            $0 && .field($1.0, .eq(item[$1.1] ?? .null))
        }
    }

    /// Queries the related items in `store`, in `sort` order, one page when `paginate` is given.
    public func fetch(
        from store: DataStore, sort: [QuerySortDescriptor] = [], paginate: QueryPaginationInput? = nil
    ) async throws(DataStoreError) -> [Element] {
        try await store.query(Element.self, where: predicate, sort: sort, paginate: paginate)
    }
}
