import DeltaSyncSchema
import Testing

/// Relations normalised to ``Relation``, with the foreign keys and indexes Amplify generates.
struct RelationTests {
    @Test func hasManyThroughNamedIndex() throws {
        let schema = try Fixture.schema("blog.graphql")
        let posts = try #require(schema.model(named: "Blog")?.field(named: "posts"))
        #expect(posts.relation == Relation(
            kind: .hasMany, relatedModel: "Post", localFields: ["id"], relatedFields: ["blogID"], indexName: "byBlog"
        ))
        #expect(posts.relation?.isConnection == true)
        let blog = try #require(schema.model(named: "Post")?.field(named: "blog"))
        #expect(blog.relation == Relation(kind: .belongsTo, relatedModel: "Blog", localFields: ["blogID"], relatedFields: ["id"]))
    }

    @Test func implicitHasManyKeyIsSharedWithBelongsTo() throws {
        let schema = try Fixture.schema("blog.graphql")
        let comment = try #require(schema.model(named: "Comment"))
        let foreignKey = try #require(comment.field(named: "postCommentsId"))
        #expect(foreignKey.type == .scalar(.id))
        #expect(!foreignKey.isRequired)
        #expect(foreignKey.isGenerated)
        #expect(comment.index(named: "gsi-Post.comments") == Index(name: "gsi-Post.comments", partitionField: "postCommentsId"))
        #expect(comment.field(named: "post")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Post", localFields: ["postCommentsId"], relatedFields: ["id"]
        ))
        #expect(schema.model(named: "Post")?.field(named: "comments")?.relation == Relation(
            kind: .hasMany, relatedModel: "Comment", localFields: ["id"], relatedFields: ["postCommentsId"],
            indexName: "gsi-Post.comments"
        ))
        #expect(comment.fields.map(\.name) == ["id", "content", "post", "postCommentsId", "createdAt", "updatedAt"])
        #expect(comment.storedFields.map(\.name) == ["id", "content", "postCommentsId", "createdAt", "updatedAt"])
    }

    @Test func implicitHasManyNamesTheKeyAfterParentAndField() throws {
        let schema = try AmplifySchema.parse(source: """
            type Blog @model { id: ID! posts: [Post] @hasMany }
            type Post @model { id: ID! title: String }
            """)
        let post = try #require(schema.model(named: "Post"))
        #expect(post.field(named: "blogPostsId")?.type == .scalar(.id))
        #expect(post.index(named: "gsi-Blog.posts")?.partitionField == "blogPostsId")
    }

    @Test func belongsToWithoutCounterpartGetsItsOwnKey() throws {
        let schema = try AmplifySchema.parse(source: """
            type Post @model { id: ID! }
            type Comment @model { id: ID! post: Post @belongsTo }
            """)
        let comment = try #require(schema.model(named: "Comment"))
        #expect(comment.field(named: "commentPostId")?.isGenerated == true)
        #expect(comment.field(named: "post")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Post", localFields: ["commentPostId"], relatedFields: ["id"]
        ))
        #expect(comment.indexes.isEmpty)
    }

    @Test func hasOneAndBelongsToEachHoldAKey() throws {
        let schema = try Fixture.schema("relations.graphql")
        let project = try #require(schema.model(named: "Project"))
        #expect(project.field(named: "projectTeamId")?.type == .scalar(.id))
        #expect(project.field(named: "team")?.relation == Relation(
            kind: .hasOne, relatedModel: "Team", localFields: ["projectTeamId"], relatedFields: ["id"]
        ))
        let team = try #require(schema.model(named: "Team"))
        #expect(team.field(named: "project")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Project", localFields: ["teamProjectId"], relatedFields: ["id"]
        ))
        let customer = try #require(schema.model(named: "Customer"))
        #expect(customer.field(named: "profile")?.relation == Relation(
            kind: .hasOne, relatedModel: "Profile", localFields: ["profileID"], relatedFields: ["id"]
        ))
    }

    @Test func compositeParentKeyGivesOneForeignKeyPerKeyField() throws {
        let schema = try Fixture.schema("relations.graphql")
        let customer = try #require(schema.model(named: "Customer"))
        #expect(customer.primaryKey == PrimaryKey(partitionField: "email", sortKeyFields: ["region"]))
        #expect(customer.field(named: "id") == nil, "a model with @primaryKey gets no id")
        let order = try #require(schema.model(named: "Order"))
        #expect(order.field(named: "customerOrdersId")?.type == .scalar(.string))
        #expect(order.field(named: "customerOrdersRegion")?.type == .scalar(.string))
        #expect(order.index(named: "gsi-Customer.orders") == Index(
            name: "gsi-Customer.orders", partitionField: "customerOrdersId", sortKeyFields: ["customerOrdersRegion"]
        ))
        #expect(customer.field(named: "orders")?.relation?.relatedFields == ["customerOrdersId", "customerOrdersRegion"])
        #expect(customer.field(named: "orders")?.relation?.localFields == ["email", "region"])
    }

    @Test func manyToManyGeneratesAJoinModel() throws {
        let schema = try Fixture.schema("blog.graphql")
        #expect(schema.models.last?.name == "PostLabel", "join models follow the user's models")
        let join = try #require(schema.model(named: "PostLabel"))
        #expect(join.isJoinModel)
        #expect(join.fields.map(\.name) == ["id", "postID", "labelID", "post", "label", "createdAt", "updatedAt"])
        #expect(join.field(named: "postID")?.isRequired == true)
        #expect(join.field(named: "post")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Post", localFields: ["postID"], relatedFields: ["id"]
        ))
        #expect(join.field(named: "label")?.type == .model("Label"))
        #expect(join.indexes == [
            Index(name: "byPost", partitionField: "postID"), Index(name: "byLabel", partitionField: "labelID"),
        ])
        #expect(join.operations == .defaults(typeName: "PostLabel", plural: "PostLabels"))
        #expect(schema.model(named: "Post")?.field(named: "labels")?.relation == Relation(
            kind: .manyToMany, relatedModel: "PostLabel", localFields: ["id"], relatedFields: ["postID"], indexName: "byPost"
        ))
        #expect(schema.model(named: "Label")?.field(named: "posts")?.relation == Relation(
            kind: .manyToMany, relatedModel: "PostLabel", localFields: ["id"], relatedFields: ["labelID"], indexName: "byLabel"
        ))
    }

    @Test func v1KeysAndConnections() throws {
        let schema = try Fixture.schema("v1.graphql")
        let post = try #require(schema.model(named: "Post"))
        #expect(post.index(named: "byBlog") == Index(
            name: "byBlog", partitionField: "blogID", sortKeyFields: ["title"], queryField: "postsByBlog"
        ))
        #expect(schema.model(named: "Blog")?.field(named: "posts")?.relation == Relation(
            kind: .hasMany, relatedModel: "Post", localFields: ["id"], relatedFields: ["blogID"], indexName: "byBlog"
        ))
        #expect(post.field(named: "blog")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Blog", localFields: ["blogID"], relatedFields: ["id"]
        ))
        #expect(post.field(named: "comments")?.relation == Relation(
            kind: .hasMany, relatedModel: "Comment", localFields: ["id"], relatedFields: ["postCommentsId"],
            indexName: "gsi-Post.comments"
        ))
        #expect(schema.model(named: "Comment")?.field(named: "post")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Post", localFields: ["postCommentsId"], relatedFields: ["id"]
        ))
        #expect(post.field(named: "author")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Author", localFields: ["postAuthorId"], relatedFields: ["id"]
        ))
        let order = try #require(schema.model(named: "Order"))
        #expect(order.primaryKey == PrimaryKey(partitionField: "customerID", sortKeyFields: ["placedAt"]))
        #expect(order.index(named: "byStatus")?.queryField == "ordersByStatus")
    }

    @Test func v1SingleConnectionThroughAnIndex() throws {
        let schema = try AmplifySchema.parse(source: """
            type User @model { id: ID! settings: Settings @connection(keyName: "byUser", fields: ["id"]) }
            type Settings @model @key(name: "byUser", fields: ["userID"]) { id: ID! userID: ID! theme: String }
            """)
        #expect(schema.model(named: "User")?.field(named: "settings")?.relation == Relation(
            kind: .hasOne, relatedModel: "Settings", localFields: ["id"], relatedFields: ["userID"], indexName: "byUser"
        ))
    }

    @Test func manyToManyWithACompositeKeySide() throws {
        let schema = try AmplifySchema.parse(source: """
            type Post @model { id: ID! tags: [Tag] @manyToMany(relationName: "PostTags") }
            type Tag @model {
              name: String! @primaryKey(sortKeyFields: ["scope"])
              scope: String!
              posts: [Post] @manyToMany(relationName: "PostTags")
            }
            """)
        let join = try #require(schema.model(named: "PostTags"))
        #expect(join.storedFields.map(\.name) == ["id", "postID", "tagID", "tagScope", "createdAt", "updatedAt"])
        #expect(join.field(named: "tagID")?.type == .scalar(.string))
        #expect(join.index(named: "byTag") == Index(name: "byTag", partitionField: "tagID", sortKeyFields: ["tagScope"]))
        #expect(join.field(named: "tag")?.relation == Relation(
            kind: .belongsTo, relatedModel: "Tag", localFields: ["tagID", "tagScope"], relatedFields: ["name", "scope"]
        ))
        #expect(schema.model(named: "Tag")?.field(named: "posts")?.relation?.relatedFields == ["tagID", "tagScope"])
        #expect(schema.model(named: "Post")?.field(named: "tags")?.type == .model("PostTags"))
    }
}

/// Gen 2 relations: `references:` names the foreign keys the schema declares.
struct ReferencesRelationTests {
    static func gen2() throws -> AmplifySchema {
        try Fixture.schema("gen2.graphql")
    }

    @Test func hasManyAndBelongsToShareTheDeclaredKey() throws {
        let schema = try Self.gen2()
        let post = try #require(schema.model(named: "Post"))
        #expect(schema.model(named: "Blog")?.field(named: "posts")?.relation == Relation(
            kind: .hasMany, relatedModel: "Post", localFields: ["id"], relatedFields: ["blogId"], indexName: "gsi-Blog.posts"))
        #expect(post.index(named: "gsi-Blog.posts") == Index(name: "gsi-Blog.posts", partitionField: "blogId"))
        #expect(post.field(named: "blog")?.relation == Relation(kind: .belongsTo, relatedModel: "Blog", localFields: ["blogId"], relatedFields: ["id"]))
        #expect(post.fields.filter(\.isGenerated).map(\.name) == ["createdAt", "updatedAt"], "no implicit foreign key is added")
        #expect(schema.model(named: "Blog")?.field(named: "profile")?.relation == Relation(
            kind: .hasOne, relatedModel: "BlogProfile", localFields: ["id"], relatedFields: ["blogId"], indexName: "gsi-Blog.profile"))
    }

    @Test func compositeKeysAreReferencedFieldByField() throws {
        let schema = try Self.gen2()
        #expect(schema.model(named: "Page")?.field(named: "sections")?.relation == Relation(
            kind: .hasMany, relatedModel: "Section", localFields: ["tenantId", "slug"], relatedFields: ["pageTenantId", "pageSlug"],
            indexName: "gsi-Page.sections"))
        #expect(schema.model(named: "Section")?.index(named: "gsi-Page.sections")
            == Index(name: "gsi-Page.sections", partitionField: "pageTenantId", sortKeyFields: ["pageSlug"]))
    }

    @Test func badReferencesSayWhatIsWrong() throws {
        func message(_ source: String) -> String {
            do {
                _ = try AmplifySchema.parse(source: source, file: "schema.graphql")
                return ""
            } catch {
                return error.message
            }
        }
        let missing = message("""
            type Blog @model { id: ID! posts: [Post] @hasMany(references: ["blogId"]) }
            type Post @model { id: ID! blog: Blog @belongsTo(references: ["blogId"]) }
            """)
        #expect(missing.contains("'blogId'") && missing.contains("does not exist on model 'Post'"))
        let count = message("""
            type Blog @model { id: ID! posts: [Post] @hasMany(references: ["blogId", "other"]) }
            type Post @model { id: ID! blogId: ID other: String }
            """)
        #expect(count.contains("2 references") && count.contains("1 fields"))
        let both = message("""
            type Blog @model { id: ID! posts: [Post] @hasMany(references: ["blogId"], fields: ["id"]) }
            type Post @model { id: ID! blogId: ID }
            """)
        #expect(both.contains("both 'references'"))
        let types = message("""
            type Blog @model { id: ID! posts: [Post] @hasMany(references: ["blogId"]) }
            type Post @model { id: ID! blogId: Int }
            """)
        #expect(types.contains("the types differ"))
    }

    @Test func gen2DefaultsNameIndexQueriesAndTurnConflictDetectionOff() throws {
        let schema = try Self.gen2().servingGen2Defaults()
        #expect(schema.conflictDetection == .none)
        let post = try #require(schema.model(named: "Post"))
        #expect(post.index(named: "byStatusAndTitle")?.queryField == "postsByStatusAndTitle")
        #expect(post.index(named: "gsi-Blog.posts")?.queryField == nil, "a relation's own index has no query")
        #expect(post.operations.sync == nil)
        // A query of that name already declared keeps its own.
        let taken = try AmplifySchema.parse(source: """
            type Post @model { id: ID! status: String @index(sortKeyFields: ["title"]) title: String }
            type Query { postsByStatusAndTitle: String }
            """, file: "schema.graphql").servingGen2Defaults()
        #expect(taken.model(named: "Post")?.indexes.first?.queryField == nil)
        let gen1 = try Self.gen2()
        #expect(gen1.model(named: "Post")?.index(named: "byStatusAndTitle")?.queryField == nil, "Gen 1 makes no query without queryField")

        // Authorization: a model without @auth admits API-key callers only; the modes default as defineData's.
        let bare = try AmplifySchema.parse(source: "type Note @model { id: ID! }", file: "schema.graphql")
        #expect(bare.model(named: "Note")?.authRules == nil)
        let gen2Bare = bare.servingGen2Defaults()
        #expect(gen2Bare.model(named: "Note")?.authRules == [AuthRule(strategy: .public, provider: .apiKey)])
        #expect(gen2Bare.gen2DefaultAuthModes == APIAuthModes(defaultMode: .apiKey, additionalModes: [.iam]))
        let owned = try AmplifySchema.parse(
            source: "type Note @model @auth(rules: [{ allow: owner }, { allow: public, provider: apiKey, operations: [read] }]) { id: ID! }",
            file: "schema.graphql"
        ).servingGen2Defaults()
        #expect(owned.gen2DefaultAuthModes == APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey, .iam]))
        let project = AmplifyProject(schema: owned, schemaFiles: ["schema.graphql"]).servingGen2Defaults()
        #expect(project.authModes == APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey, .iam]))
    }
}
