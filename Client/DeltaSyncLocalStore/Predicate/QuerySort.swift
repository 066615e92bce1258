/// One sort key of a query: a field and a direction.
///
/// ```swift
/// try await dataStore.query(Post.self, sort: [.descending(Post.keys.rating), .ascending(Post.keys.title)])
/// ```
public struct QuerySortDescriptor: Sendable, Equatable {
    /// Smallest first, or largest first.
    public enum Order: Sendable, Equatable { case ascending, descending }

    /// The field's GraphQL name.
    public let field: String
    /// Which way the field sorts.
    public let order: Order

    /// Sorts by the field named `field`; ``ascending(_:)`` and ``descending(_:)`` take a typed key.
    public init(field: String, order: Order) {
        self.field = field
        self.order = order
    }

    /// Smallest first by `field`.
    public static func ascending<Value>(_ field: QueryField<Value>) -> Self { Self(field: field.name, order: .ascending) }
    /// Largest first by `field`.
    public static func descending<Value>(_ field: QueryField<Value>) -> Self { Self(field: field.name, order: .descending) }
}

/// A page of a query's results: `page` counts from 0.
public struct QueryPaginationInput: Sendable, Equatable {
    /// The page, from 0.
    public let page: Int
    /// The most models a page holds.
    public let limit: Int

    /// Amplify's default page size.
    public static let defaultLimit = 100

    /// Page `page` (from 0) of `limit` models.
    public static func page(_ page: Int, limit: Int = defaultLimit) -> Self { Self(page: page, limit: limit) }
    /// The first model only.
    public static let firstResult = Self(page: 0, limit: 1)
}
