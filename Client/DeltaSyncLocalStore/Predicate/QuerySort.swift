/// One sort key of a query: a field and a direction.
///
/// ```swift
/// try await dataStore.query(Post.self, sort: [.descending(Post.keys.rating), .ascending(Post.keys.title)])
/// ```
public struct QuerySortDescriptor: Sendable, Equatable {
    public enum Order: Sendable, Equatable { case ascending, descending }

    public let field: String
    public let order: Order

    public init(field: String, order: Order) {
        self.field = field
        self.order = order
    }

    public static func ascending<Value>(_ field: QueryField<Value>) -> Self { Self(field: field.name, order: .ascending) }
    public static func descending<Value>(_ field: QueryField<Value>) -> Self { Self(field: field.name, order: .descending) }
}

/// A page of a query's results: `page` counts from 0.
public struct QueryPaginationInput: Sendable, Equatable {
    public let page: Int
    public let limit: Int

    /// Amplify's default page size.
    public static let defaultLimit = 100

    public static func page(_ page: Int, limit: Int = defaultLimit) -> Self { Self(page: page, limit: limit) }
    public static let firstResult = Self(page: 0, limit: 1)
}
