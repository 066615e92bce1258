import DeltaSyncSchema
import Testing

/// Every error names the file, line and column of the offending node, and the type and field.
struct SchemaErrorTests {
    /// Parses `source` as `schema.graphql` and returns the error it must throw.
    private func error(_ source: String) throws -> SchemaError {
        do {
            _ = try AmplifySchema.parse(source: source, file: "schema.graphql")
        } catch {
            return error
        }
        Issue.record("expected a SchemaError")
        return SchemaError(file: "", line: 0, column: 0, message: "")
    }

    private func expect(
        _ source: String, at line: Int, _ column: Int, mentioning parts: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try error(source)
        #expect(error.file == "schema.graphql", sourceLocation: sourceLocation)
        #expect(error.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.column == column, "\(error)", sourceLocation: sourceLocation)
        for part in parts {
            #expect(error.message.contains(part), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func syntaxError() throws {
        try expect("type Post @model {\n  id: ID!\n  title String\n}", at: 3, 9, mentioning: ["syntax error", "Expected :"])
    }

    @Test func unknownFieldType() throws {
        try expect("type Post @model {\n  id: ID!\n  blog: Blgo\n}", at: 3, 9, mentioning: ["unknown type 'Blgo'", "Post.blog"])
    }

    @Test func unknownDirective() throws {
        try expect(
            "type Blog @model {\n  id: ID!\n  posts: [Post] @hasmany\n}\ntype Post @model { id: ID! }",
            at: 3, 17, mentioning: ["unknown directive @hasmany"]
        )
    }

    @Test func unknownDirectiveArgument() throws {
        try expect(
            "type Post @model {\n  id: ID!\n  title: String @index(nam: \"byTitle\")\n}",
            at: 3, 24, mentioning: ["unknown argument 'nam'", "@index"]
        )
    }

    @Test func unknownModelOption() throws {
        try expect(
            "type Post @model(queries: {get: \"post\", search: \"x\"}) { id: ID! }",
            at: 1, 41, mentioning: ["unknown key 'search'"]
        )
    }

    @Test func sortKeyNamesAMissingField() throws {
        try expect(
            "type Reaction @model {\n  postID: ID! @primaryKey(sortKeyFields: [\"userId\"])\n  userID: ID!\n}",
            at: 2, 43, mentioning: ["'userId'", "Reaction"]
        )
    }

    @Test func hasManyIndexMissingOnChild() throws {
        try expect(
            "type Blog @model {\n  id: ID!\n  posts: [Post] @hasMany(indexName: \"byBlog\", fields: [\"id\"])\n}\ntype Post @model { id: ID! blogID: ID }",
            at: 3, 37, mentioning: ["no index 'byBlog'", "Blog.posts"]
        )
    }

    @Test func relationNamesAMissingField() throws {
        try expect(
            "type Blog @model { id: ID! }\ntype Post @model {\n  id: ID!\n  blog: Blog @belongsTo(fields: [\"blogId\"])\n}",
            at: 4, 34, mentioning: ["'blogId'", "Post.blog"]
        )
    }

    @Test func belongsToANonModel() throws {
        try expect(
            "type Author { name: String }\ntype Post @model {\n  id: ID!\n  author: Author @belongsTo\n}",
            at: 4, 11, mentioning: ["@belongsTo", "Post.author", "'Author'"]
        )
    }

    @Test func modelWithoutUsableKey() throws {
        try expect("type Post @model {\n  id: ID\n  title: String\n}", at: 2, 3, mentioning: ["Post", "primary key", "'id'"])
    }

    @Test func primaryKeyOnNullableField() throws {
        try expect(
            "type Post @model {\n  slug: String @primaryKey\n}",
            at: 2, 3, mentioning: ["Post.slug", "non-null"]
        )
    }

    @Test func duplicateTypeAcrossFiles() throws {
        do {
            _ = try AmplifySchema.parse([
                SchemaSource(file: "a.graphql", text: "type Post @model { id: ID! }"),
                SchemaSource(file: "b.graphql", text: "enum Kind { A }\n\ntype Post @model { id: ID! }"),
            ])
            Issue.record("expected a SchemaError")
        } catch {
            #expect(error.file == "b.graphql")
            #expect(error.line == 3 && error.column == 6)
            #expect(error.message.contains("duplicate type 'Post'"))
            #expect(error.message.contains("a.graphql:1:6"))
        }
    }

    @Test func duplicateField() throws {
        try expect("type Post @model {\n  id: ID!\n  title: String\n  title: String\n}", at: 4, 3, mentioning: ["duplicate field 'Post.title'"])
    }

    @Test func defaultOnList() throws {
        try expect(
            "type Post @model {\n  id: ID!\n  tags: [String] @default(value: \"a\")\n}",
            at: 3, 18, mentioning: ["@default", "list", "Post.tags"]
        )
    }

    @Test func defaultThatDoesNotFit() throws {
        try expect(
            "type Post @model {\n  id: ID!\n  rating: Int @default(value: \"high\")\n}",
            at: 3, 31, mentioning: ["'high'", "Post.rating", "Int"]
        )
        try expect(
            "enum Status { OPEN }\ntype Post @model {\n  id: ID!\n  status: Status @default(value: \"SHUT\")\n}",
            at: 4, 34, mentioning: ["'SHUT'", "Post.status", "Status"]
        )
    }

    @Test func hasManyOnSingleField() throws {
        try expect(
            "type Blog @model {\n  id: ID!\n  post: Post @hasMany\n}\ntype Post @model { id: ID! }",
            at: 3, 9, mentioning: ["Blog.post", "list"]
        )
    }

    @Test func modelFieldWithoutRelation() throws {
        try expect(
            "type Blog @model { id: ID! }\ntype Post @model {\n  id: ID!\n  blog: Blog\n}",
            at: 4, 9, mentioning: ["Post.blog", "relation directive"]
        )
    }

    @Test func manyToManyWithOneSide() throws {
        try expect(
            "type Post @model {\n  id: ID!\n  tags: [Tag] @manyToMany(relationName: \"PostTag\")\n}\ntype Tag @model { id: ID! }",
            at: 3, 41, mentioning: ["PostTag", "exactly two"]
        )
    }

    @Test func nonModelFieldHoldingAModel() throws {
        try expect(
            "type Post @model { id: ID! }\ntype Box {\n  post: Post\n}",
            at: 3, 9, mentioning: ["Box.post", "@model type 'Post'"]
        )
    }

    @Test func descriptionReadsLikeACompilerDiagnostic() throws {
        let error = try error("type Post @model {\n  id: ID!\n  blog: Blgo\n}")
        #expect(error.description == "schema.graphql:3:9: error: unknown type 'Blgo' for field 'Post.blog'")
    }

    @Test func relationFieldsOfDifferentTypes() throws {
        try expect(
            "type Blog @model { id: ID! }\ntype Post @model {\n  id: ID!\n  blogID: Int\n  blog: Blog @belongsTo(fields: [\"blogID\"])\n}",
            at: 5, 34, mentioning: ["Post.blog", "Post.blogID", "Blog.id", "differ"]
        )
    }

    @Test func rootTypeAsModel() throws {
        try expect("type Query @model { id: ID! }", at: 1, 6, mentioning: ["Query", "@model"])
    }

    @Test func reservedMetadataField() throws {
        try expect("type Post @model {\n  id: ID!\n  _version: Int\n}", at: 3, 3, mentioning: ["Post._version", "reserved"])
    }

    @Test func schemaWithoutModelsOrQueries() throws {
        try expect("enum Status { OPEN }", at: 0, 0, mentioning: ["no @model"])
        try expect("type Post @model(queries: null) { id: ID! }", at: 0, 0, mentioning: ["no model generates a query"])
    }

    @Test func columnsCountCharactersNotBytes() throws {
        try expect(
            "# café ☕\ntype Post @model {\n  \"Ünïcode\" blog: Blgo\n}",
            at: 3, 19, mentioning: ["unknown type 'Blgo'"]
        )
    }
}
