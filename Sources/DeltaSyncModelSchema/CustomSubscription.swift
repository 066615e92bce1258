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
    public struct Argument: Sendable, Equatable {
        public var name: String
        /// The GraphQL type as written (`ID`, `[String]`, `PostStatus!`).
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

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
