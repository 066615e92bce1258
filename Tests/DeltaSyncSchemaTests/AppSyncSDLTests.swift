import DeltaSyncSchema
import GraphQL
import Testing

/// The printed AppSync schema, checked against the shapes of the spec's §1.
struct AppSyncSDLTests {
    @Test func smallSchemaMatchesGoldenFile() throws {
        let schema = try AmplifySchema.parse(source: "type Post @model { id: ID! str: String }")
        #expect(schema.appSyncSDL() == (try Fixture.text("post.appsync.graphql")))
    }

    @Test(arguments: Fixture.schemas)
    func printedSchemaBuilds(fixture: String) throws {
        let sdl = try Fixture.schema(fixture).appSyncSDL()
        let built = try buildSchema(source: sdl)
        #expect(built.queryType?.name == "Query")
    }

    @Test func printingIsDeterministic() throws {
        let first = try Fixture.schema("blog.graphql").appSyncSDL()
        let second = try Fixture.schema("blog.graphql").appSyncSDL()
        #expect(first == second)
    }

    @Test func blogPostTypeHasFieldsRelationsAndMetadata() throws {
        let sdl = try Fixture.schema("blog.graphql").appSyncSDL()
        #expect(sdl.members(of: "type Post") == [
            "id: ID!", "blogID: ID!", "title: String!", "body: String", "status: PostStatus!", "rating: Int",
            "views: Float", "featured: Boolean", "tags: [String]", "location: Location", "metadata: AWSJSON",
            "publishedAt: AWSDateTime", "publishDay: AWSDate", "readingTime: AWSTime", "expiresAt: AWSTimestamp",
            "authorPhone: AWSPhone", "authorIp: AWSIPAddress",
            "blog: Blog",
            "comments(filter: ModelCommentFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelCommentConnection",
            "labels(filter: ModelPostLabelFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelPostLabelConnection",
            "createdAt: AWSDateTime!", "updatedAt: AWSDateTime!",
            "_version: Int!", "_deleted: Boolean", "_lastChangedAt: AWSTimestamp!",
        ])
        #expect(sdl.member("posts", of: "type Blog")
            == "posts(publishedAt: ModelStringKeyConditionInput, filter: ModelPostFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelPostConnection")
        #expect(sdl.members(of: "type ModelPostConnection") == ["items: [Post]!", "nextToken: String", "startedAt: AWSTimestamp"])
        #expect(sdl.members(of: "enum PostStatus") == ["DRAFT", "PUBLISHED", "ARCHIVED"])
        #expect(sdl.members(of: "type Location") == ["lat: Float!", "lon: Float!", "name: String"])
    }

    @Test func blogQueries() throws {
        let sdl = try Fixture.schema("blog.graphql").appSyncSDL()
        #expect(sdl.member("getPost", of: "type Query") == "getPost(id: ID!): Post")
        #expect(sdl.member("listPosts", of: "type Query")
            == "listPosts(filter: ModelPostFilterInput, limit: Int, nextToken: String): ModelPostConnection")
        #expect(sdl.member("syncPosts", of: "type Query")
            == "syncPosts(filter: ModelPostFilterInput, limit: Int, nextToken: String, lastSync: AWSTimestamp): ModelPostConnection")
        #expect(sdl.member("postsByBlog", of: "type Query")
            == "postsByBlog(blogID: ID!, publishedAt: ModelStringKeyConditionInput, sortDirection: ModelSortDirection, filter: ModelPostFilterInput, limit: Int, nextToken: String): ModelPostConnection")
        #expect(sdl.member("postsByStatus", of: "type Query")
            == "postsByStatus(status: PostStatus!, rating: ModelIntKeyConditionInput, sortDirection: ModelSortDirection, filter: ModelPostFilterInput, limit: Int, nextToken: String): ModelPostConnection")
        #expect(sdl.member("getReaction", of: "type Query") == "getReaction(postID: ID!, userID: ID!): Reaction")
        #expect(sdl.member("listReactions", of: "type Query")
            == "listReactions(postID: ID, userID: ModelIDKeyConditionInput, filter: ModelReactionFilterInput, limit: Int, nextToken: String, sortDirection: ModelSortDirection): ModelReactionConnection")
        #expect(sdl.member("syncPostLabels", of: "type Query") != nil)
        #expect(sdl.members(of: "input ModelStringKeyConditionInput") == [
            "eq: String", "le: String", "lt: String", "ge: String", "gt: String", "between: [String]", "beginsWith: String",
        ])
    }

    @Test func blogMutationsAndInputs() throws {
        let sdl = try Fixture.schema("blog.graphql").appSyncSDL()
        #expect(sdl.member("createPost", of: "type Mutation")
            == "createPost(input: CreatePostInput!, condition: ModelPostConditionInput): Post")
        #expect(sdl.member("deleteReaction", of: "type Mutation")
            == "deleteReaction(input: DeleteReactionInput!, condition: ModelReactionConditionInput): Reaction")
        let create = try #require(sdl.members(of: "input CreatePostInput"))
        #expect(create.first == "id: ID")
        #expect(create.contains("blogID: ID!"))
        #expect(create.contains("status: PostStatus"), "a @default field is optional on create")
        #expect(create.contains("location: LocationInput"))
        #expect(create.contains("createdAt: AWSDateTime"))
        #expect(create.last == "_version: Int")
        #expect(!create.contains { $0.hasPrefix("blog:") || $0.hasPrefix("comments:") }, "relation fields are not inputs")
        let update = try #require(sdl.members(of: "input UpdatePostInput"))
        #expect(update.first == "id: ID!")
        #expect(update.contains("blogID: ID"))
        #expect(update.contains("title: String"))
        #expect(update.last == "_version: Int")
        #expect(sdl.members(of: "input DeletePostInput") == ["id: ID!", "_version: Int"])
        #expect(sdl.members(of: "input DeleteReactionInput") == ["postID: ID!", "userID: ID!", "_version: Int"])
        #expect(sdl.members(of: "input CreateReactionInput")?.prefix(2) == ["postID: ID!", "userID: ID!"])
        #expect(sdl.members(of: "input LocationInput") == ["lat: Float!", "lon: Float!", "name: String"])
        #expect(sdl.members(of: "input CreateCommentInput")?.contains("postCommentsId: ID") == true)
    }

    @Test func blogFilterAndConditionInputs() throws {
        let sdl = try Fixture.schema("blog.graphql").appSyncSDL()
        let filter = try #require(sdl.members(of: "input ModelPostFilterInput"))
        #expect(filter.prefix(2) == ["id: ModelIDInput", "blogID: ModelIDInput"])
        #expect(filter.contains("status: ModelPostStatusInput"))
        #expect(filter.contains("rating: ModelIntInput"))
        #expect(filter.contains("views: ModelFloatInput"))
        #expect(filter.contains("featured: ModelBooleanInput"))
        #expect(filter.contains("expiresAt: ModelIntInput"))
        #expect(filter.contains("publishedAt: ModelStringInput"))
        #expect(!filter.contains { $0.hasPrefix("location:") }, "non-model values cannot be filtered")
        #expect(filter.suffix(6) == [
            "createdAt: ModelStringInput", "updatedAt: ModelStringInput",
            "and: [ModelPostFilterInput]", "or: [ModelPostFilterInput]", "not: ModelPostFilterInput",
            "_deleted: ModelBooleanInput",
        ])
        let condition = try #require(sdl.members(of: "input ModelPostConditionInput"))
        #expect(condition.first == "blogID: ModelIDInput", "key fields are not conditions")
        #expect(condition.last == "_deleted: ModelBooleanInput")
        #expect(sdl.members(of: "input ModelReactionConditionInput")?.first == "emoji: ModelStringInput")
        #expect(sdl.members(of: "input ModelPostStatusInput") == ["eq: PostStatus", "ne: PostStatus"])
    }

    @Test func blogSubscriptions() throws {
        let sdl = try Fixture.schema("blog.graphql").appSyncSDL()
        #expect(sdl.member("onCreatePost", of: "type Subscription")
            == #"onCreatePost(filter: ModelSubscriptionPostFilterInput): Post @aws_subscribe(mutations: ["createPost"])"#)
        #expect(sdl.member("onDeleteComment", of: "type Subscription")
            == #"onDeleteComment(filter: ModelSubscriptionCommentFilterInput): Comment @aws_subscribe(mutations: ["deleteComment"])"#)
        let filter = try #require(sdl.members(of: "input ModelSubscriptionPostFilterInput"))
        #expect(filter.contains("status: ModelSubscriptionStringInput"))
        #expect(filter.contains("rating: ModelSubscriptionIntInput"))
        #expect(filter.suffix(3) == [
            "and: [ModelSubscriptionPostFilterInput]", "or: [ModelSubscriptionPostFilterInput]", "_deleted: ModelBooleanInput",
        ])
    }

    @Test func compositeKeysGetTheirOwnConditionInputs() throws {
        let sdl = try Fixture.schema("relations.graphql").appSyncSDL()
        #expect(sdl.member("ordersByStatus", of: "type Query")
            == "ordersByStatus(status: String!, totalPlacedAt: ModelOrderByStatusCompositeKeyConditionInput, sortDirection: ModelSortDirection, filter: ModelOrderFilterInput, limit: Int, nextToken: String): ModelOrderConnection")
        #expect(sdl.members(of: "input ModelOrderByStatusCompositeKeyInput") == ["total: Float", "placedAt: AWSDateTime"])
        #expect(sdl.members(of: "input ModelOrderByStatusCompositeKeyConditionInput") == [
            "eq: ModelOrderByStatusCompositeKeyInput", "le: ModelOrderByStatusCompositeKeyInput",
            "lt: ModelOrderByStatusCompositeKeyInput", "ge: ModelOrderByStatusCompositeKeyInput",
            "gt: ModelOrderByStatusCompositeKeyInput", "between: [ModelOrderByStatusCompositeKeyInput]",
            "beginsWith: ModelOrderByStatusCompositeKeyInput",
        ])
        #expect(sdl.member("listAccounts", of: "type Query")
            == "listAccounts(tenant: ID, kindNumber: ModelAccountPrimaryCompositeKeyConditionInput, filter: ModelAccountFilterInput, limit: Int, nextToken: String, sortDirection: ModelSortDirection): ModelAccountConnection")
        #expect(sdl.members(of: "input ModelAccountPrimaryCompositeKeyInput") == ["kind: String", "number: Int"])
        #expect(sdl.member("getAccount", of: "type Query") == "getAccount(tenant: ID!, kind: String!, number: Int!): Account")
        #expect(sdl.member("entries", of: "type Account")
            == "entries(amount: ModelIntKeyConditionInput, filter: ModelEntryFilterInput, sortDirection: ModelSortDirection, limit: Int, nextToken: String): ModelEntryConnection")
    }

    @Test func modelOptionsRenameAndDropOperations() throws {
        let sdl = try Fixture.schema("options.graphql").appSyncSDL()
        let query = try #require(sdl.members(of: "type Query"))
        #expect(query.contains("note(id: ID!): Note"))
        #expect(!query.contains { $0.hasPrefix("listNotes") })
        #expect(query.contains { $0.hasPrefix("syncNotes(") }, "sync follows the queries group")
        #expect(!query.contains { $0.hasPrefix("getCategory") || $0.hasPrefix("syncCategories") })
        #expect(query.contains("echo(msg: String): String"), "custom root fields are printed, without their @function")
        let mutation = try #require(sdl.members(of: "type Mutation"))
        #expect(mutation.contains("addNote(input: CreateNoteInput!, condition: ModelNoteConditionInput): Note"))
        #expect(mutation.contains { $0.hasPrefix("updateNote(") })
        #expect(!mutation.contains { $0.hasPrefix("deleteNote") || $0.hasPrefix("createArchive") })
        let subscription = try #require(sdl.members(of: "type Subscription"))
        #expect(subscription.contains(#"onCreateNote(filter: ModelSubscriptionNoteFilterInput): Note @aws_subscribe(mutations: ["addNote"])"#))
        #expect(subscription.contains(#"noteChanged(filter: ModelSubscriptionNoteFilterInput): Note @aws_subscribe(mutations: ["updateNote"])"#))
        #expect(!subscription.contains { $0.hasPrefix("onDeleteNote") || $0.contains("Archive") })
        #expect(sdl.members(of: "input ModelSubscriptionArchiveFilterInput") == nil)
        #expect(sdl.member("createdOn", of: "type Note") == "createdOn: AWSDateTime!")
        #expect(sdl.member("updatedAt", of: "type Note") == nil)
        #expect(sdl.member("createdAt", of: "type Archive") == nil)
        #expect(sdl.member("kinds", of: "input ModelNoteFilterInput") == "kinds: ModelKindListInput")
        #expect(sdl.members(of: "input ModelKindListInput") == ["eq: [Kind]", "ne: [Kind]", "contains: Kind", "notContains: Kind"])
        #expect(sdl.member("kinds", of: "input CreateNoteInput") == "kinds: [Kind!]")
        #expect(sdl.member("kind", of: "input CreateNoteInput") == "kind: Kind")
        #expect(sdl.members(of: "input PlaceInput") == ["name: String!", "coords: CoordsInput"])
    }
}
