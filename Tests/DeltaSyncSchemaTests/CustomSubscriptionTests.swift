import DeltaSyncSchema
import GraphQL
import Testing

/// Subscription fields the schema declares with `@aws_subscribe` are kept and printed.
struct CustomSubscriptionTests {
    static let source = """
        type Post @model {
          id: ID!
          blogID: ID!
          title: String
        }
        type Subscription {
          onBlogPost(blogID: ID): Post @aws_subscribe(mutations: ["createPost", "updatePost"])
        }
        """

    @Test func parsedAndPrintedBesideTheGeneratedOnes() throws {
        let schema = try AmplifySchema.parse(source: Self.source, file: "schema.graphql")
        #expect(schema.customSubscriptions == [
            CustomSubscription(
                name: "onBlogPost", arguments: [.init(name: "blogID", type: "ID")], returnType: "Post",
                mutations: ["createPost", "updatePost"])
        ])
        let sdl = schema.appSyncSDL()
        let fields = try #require(sdl.members(of: "type Subscription"))
        #expect(fields.contains(#"onBlogPost(blogID: ID): Post @aws_subscribe(mutations: ["createPost", "updatePost"])"#))
        #expect(fields.contains { $0.hasPrefix("onCreatePost(") })
        _ = try buildSchema(source: sdl)
    }

    @Test func aMutationOfAnotherTypeIsAnErrorAtTheField() throws {
        let source = Self.source.replacingOccurrences(of: #""updatePost""#, with: #""deleteBlog""#)
        #expect {
            try AmplifySchema.parse(source: source, file: "schema.graphql")
        } throws: { error in
            guard let error = error as? SchemaError else { return false }
            return error.line == 7 && error.column == 3 && error.message.contains("'deleteBlog'")
        }
    }

    @Test func anArgumentMustNameAField() throws {
        let source = Self.source.replacingOccurrences(of: "onBlogPost(blogID: ID)", with: "onBlogPost(blog: ID)")
        #expect {
            try AmplifySchema.parse(source: source, file: "schema.graphql")
        } throws: { error in
            (error as? SchemaError)?.message.contains("argument 'blog'") == true
        }
    }
}
