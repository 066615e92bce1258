import DeltaSyncCore
import DeltaSyncSchema
import Testing

/// Models, keys, options and defaults read from the user's SDL.
struct ParserTests {
    @Test func blogModelsEnumsAndNonModels() throws {
        let schema = try Fixture.schema("blog.graphql")
        #expect(schema.models.map(\.name) == ["Blog", "Post", "Comment", "Label", "Reaction", "PostLabel"])
        #expect(schema.enums == [EnumType(name: "PostStatus", values: ["DRAFT", "PUBLISHED", "ARCHIVED"])])
        let location = try #require(schema.nonModel(named: "Location"))
        #expect(location.fields.map(\.name) == ["lat", "lon", "name"])
        #expect(location.fields[0].isRequired)
        let post = try #require(schema.model(named: "Post"))
        #expect(post.primaryKey == PrimaryKey())
        #expect(post.indexes == [
            Index(name: "byBlog", partitionField: "blogID", sortKeyFields: ["publishedAt"], queryField: "postsByBlog"),
            Index(name: "byStatus", partitionField: "status", sortKeyFields: ["rating"], queryField: "postsByStatus"),
        ])
        #expect(post.field(named: "status")?.defaultValue == "DRAFT")
        #expect(post.field(named: "status")?.type == .enumType("PostStatus"))
        #expect(post.field(named: "location")?.type == .nonModel("Location"))
        #expect(post.field(named: "tags")?.isList == true)
        #expect(post.field(named: "createdAt")?.isGenerated == true)
        #expect(post.field(named: "id")?.isGenerated == false)
        #expect(post.operations == .defaults(typeName: "Post", plural: "Posts"))
        #expect(post.timestamps == Timestamps())
        let reaction = try #require(schema.model(named: "Reaction"))
        #expect(reaction.primaryKey == PrimaryKey(partitionField: "postID", sortKeyFields: ["userID"]))
    }

    @Test func idIsAddedWhenNoKeyIsDeclared() throws {
        let schema = try AmplifySchema.parse(source: "type Todo @model { title: String! }")
        let todo = try #require(schema.model(named: "Todo"))
        #expect(todo.fields.map(\.name) == ["id", "title", "createdAt", "updatedAt"])
        #expect(todo.fields[0] == DeltaSyncSchema.Field(name: "id", type: .scalar(.id), isRequired: true, isGenerated: true))
    }

    @Test func userTimestampFieldsAreKept() throws {
        let schema = try AmplifySchema.parse(source: "type Todo @model { id: ID! createdAt: AWSDateTime title: String }")
        let todo = try #require(schema.model(named: "Todo"))
        #expect(todo.fields.map(\.name) == ["id", "createdAt", "title", "updatedAt"])
        #expect(todo.field(named: "createdAt")?.isRequired == false)
        #expect(todo.field(named: "createdAt")?.isGenerated == false)
    }

    @Test(arguments: [
        ("Post", "Posts"), ("Category", "Categories"), ("Status", "Statuses"), ("Box", "Boxes"),
        ("Key", "Keys"), ("Match", "Matches"), ("Wish", "Wishes"),
    ])
    func pluralNames(name: String, plural: String) throws {
        let schema = try AmplifySchema.parse(source: "type \(name) @model { id: ID! }")
        #expect(schema.models[0].operations.list == "list\(plural)")
        #expect(schema.models[0].operations.sync == "sync\(plural)")
    }

    @Test func modelOptions() throws {
        let schema = try Fixture.schema("options.graphql")
        let note = try #require(schema.model(named: "Note"))
        #expect(note.operations == Operations(
            get: "note", list: nil, sync: "syncNotes", create: "addNote", update: "updateNote", delete: nil,
            onCreate: "onCreateNote", onUpdate: "noteChanged", onDelete: nil
        ))
        #expect(note.timestamps == Timestamps(createdAt: "createdOn", updatedAt: nil))
        #expect(note.fields.last?.name == "createdOn")
        let archive = try #require(schema.model(named: "Archive"))
        #expect(archive.operations.create == nil && archive.operations.onCreate == nil)
        #expect(archive.operations.get == "getArchive")
        #expect(archive.timestamps == Timestamps(createdAt: nil, updatedAt: nil))
        #expect(archive.fields.map(\.name) == ["id", "label"])
        let category = try #require(schema.model(named: "Category"))
        #expect(category.operations.get == nil && category.operations.list == nil && category.operations.sync == nil)
        #expect(category.operations.create == "createCategory")
        #expect(schema.model(named: "Query") == nil)
        #expect(schema.nonModel(named: "Query") == nil)
    }

    @Test func defaultValuesTakeTheFieldType() throws {
        let note = try #require(try Fixture.schema("options.graphql").model(named: "Note"))
        #expect(note.field(named: "kind")?.defaultValue == .string("MEMO"))
        #expect(note.field(named: "priority")?.defaultValue == .int(3))
        #expect(note.field(named: "weight")?.defaultValue == .double(1.5))
        #expect(note.field(named: "done")?.defaultValue == .bool(false))
        #expect(note.field(named: "extra")?.defaultValue == .string(#"{"a": 1}"#))
        #expect(note.field(named: "kinds")?.isListElementRequired == true)
    }

    @Test func nestedNonModelTypes() throws {
        let schema = try Fixture.schema("options.graphql")
        #expect(schema.nonModel(named: "Place")?.fields.map(\.type) == [.scalar(.string), .nonModel("Coords")])
    }

    @Test func schemaSplitOverFiles() throws {
        let schema = try AmplifySchema.parse([
            SchemaSource(file: "schema/a.graphql", text: "type Post @model { id: ID! status: Status comments: [Comment] @hasMany }"),
            SchemaSource(file: "schema/b.graphql", text: "enum Status { OPEN }\ntype Comment @model { id: ID! }"),
        ])
        #expect(schema.models.map(\.name) == ["Post", "Comment"])
        #expect(schema.model(named: "Comment")?.field(named: "postCommentsId") != nil)
    }

    @Test func ignoredAndDeclaredDirectivesAreAccepted() throws {
        let schema = try AmplifySchema.parse(source: """
            directive @custom on FIELD_DEFINITION
            scalar AWSDateTime
            input SearchInput { text: String }
            type Post @model @auth(rules: [{allow: owner}]) @aws_iam {
              id: ID!
              title: String @auth(rules: [{allow: owner, operations: [read]}]) @custom
              when: AWSDateTime @aws_cognito_user_pools(cognito_groups: ["admin"])
            }
            type Mutation {
              publish(id: ID!): Post @function(name: "publish")
              ping: String @http(url: "https://example.com")
            }
            """)
        #expect(schema.models.map(\.name) == ["Post"])
    }

    @Test func relationFieldsAreNotStored() throws {
        let blog = try #require(try Fixture.schema("blog.graphql").model(named: "Blog"))
        #expect(blog.relationFields.map(\.name) == ["posts"])
        #expect(!blog.storedFields.contains { $0.name == "posts" })
        #expect(blog.connectionTypeName == "ModelBlogConnection")
        #expect(blog.filterInputTypeName == "ModelBlogFilterInput")
        #expect(blog.subscriptionFilterInputTypeName == "ModelSubscriptionBlogFilterInput")
    }
}
