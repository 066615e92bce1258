/// A subscription field the schema declares itself on `type Subscription`, fired by the
/// mutations its `@aws_subscribe(mutations:)` lists:
///
/// ```graphql
/// type Subscription {
///   onBlogPost(blogID: ID): Post @aws_subscribe(mutations: ["createPost", "updatePost"])
/// }
/// ```
///
/// Each argument filters events by the same-named field of the mutation's result.
public struct CustomSubscription: Sendable, Equatable {
    /// An argument and its GraphQL type as written (`ID`, `[String]`, `PostStatus!`).
    public typealias Argument = TypedName

    public var name: String
    public var arguments: [Argument]
    /// The model the field returns, the type of every listed mutation.
    public var returnType: String
    public var mutations: [String]

    public init(name: String, arguments: [Argument], returnType: String, mutations: [String]) {
        self.name = name
        self.arguments = arguments
        self.returnType = returnType
        self.mutations = mutations
    }
}
