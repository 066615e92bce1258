import DeltaSyncCore
import DeltaSyncSchema
import Testing

/// `model_introspection` as Amplify's codegen writes it into `amplify_outputs.json`, which Gen 2's
/// `generateClient()` builds `client.models` from.
struct ModelIntrospectionTests {
    @Test func gen2ModelsWithReferences() throws {
        let introspection = try Fixture.schema("gen2.graphql").modelIntrospection
        #expect(introspection["version"] == 1)
        let blog = introspection["models"]["Blog"]
        #expect(blog["name"] == "Blog" && blog["pluralName"] == "Blogs" && blog["syncable"] == true)
        #expect(blog["primaryKeyInfo"] == ["isCustomPrimaryKey": false, "primaryKeyFieldName": "id", "sortKeyFieldNames": []])
        #expect(blog["attributes"] == [
            ["type": "model", "properties": [:]],
            ["type": "auth", "properties": ["rules": [["allow": "public", "provider": "apiKey", "operations": ["create", "update", "delete", "read"]]]]],
        ])
        #expect(blog["fields"]["id"] == ["name": "id", "type": "ID", "isArray": false, "isRequired": true, "attributes": []])
        #expect(blog["fields"]["posts"] == [
            "name": "posts", "type": ["model": "Post"], "isArray": true, "isRequired": false, "isArrayNullable": true,
            "attributes": [], "association": ["connectionType": "HAS_MANY", "associatedWith": ["blogId"]],
        ])
        #expect(blog["fields"]["createdAt"] == [
            "name": "createdAt", "type": "AWSDateTime", "isArray": false, "isRequired": false, "attributes": [], "isReadOnly": true,
        ])
        #expect(blog["fields"]["profile"]["association"] == ["connectionType": "HAS_ONE", "associatedWith": ["blogId"], "targetNames": []])
        let post = introspection["models"]["Post"]
        #expect(post["fields"]["blog"]["association"] == ["connectionType": "BELONGS_TO", "targetNames": ["blogId"]])
        #expect(post["fields"]["blogId"] == ["name": "blogId", "type": "ID", "isArray": false, "isRequired": false, "attributes": []])
        #expect(post["fields"]["status"]["type"] == ["enum": "PostStatus"])
        #expect(introspection["enums"]["PostStatus"] == ["name": "PostStatus", "values": ["DRAFT", "PUBLISHED"]])

        let page = introspection["models"]["Page"]
        #expect(page["primaryKeyInfo"] == ["isCustomPrimaryKey": true, "primaryKeyFieldName": "tenantId", "sortKeyFieldNames": ["slug"]])
        #expect(page["attributes"][1] == ["type": "key", "properties": ["fields": ["tenantId", "slug"]]])
        #expect(introspection["models"]["Section"]["attributes"].arrayValue?.count == 2, "the references index is Amplify's own")
    }

    @Test func gen1IndexesNonModelsAndOwnerRules() throws {
        let schema = try AmplifySchema.parse(source: """
            type Location { lat: Float! lon: Float! tags: [String!]! }
            type Note @model @auth(rules: [{ allow: owner }, { allow: private, operations: [read] }, { allow: groups, groups: ["Admin"] }]) {
              id: ID!
              spot: Location
              topic: String! @index(name: "byTopic", queryField: "notesByTopic")
            }
            """, file: "schema.graphql")
        let introspection = schema.modelIntrospection
        let note = introspection["models"]["Note"]
        #expect(note["attributes"][1] == ["type": "key", "properties": ["name": "byTopic", "fields": ["topic"], "queryField": "notesByTopic"]])
        #expect(note["attributes"][2]["properties"]["rules"] == [
            ["allow": "owner", "provider": "userPools", "operations": ["create", "update", "delete", "read"], "ownerField": "owner", "identityClaim": "cognito:username"],
            ["allow": "private", "provider": "userPools", "operations": ["read"]],
            ["allow": "groups", "provider": "userPools", "operations": ["create", "update", "delete", "read"], "groups": ["Admin"], "groupClaim": "cognito:groups"],
        ])
        #expect(note["fields"]["spot"]["type"] == ["nonModel": "Location"])
        #expect(introspection["nonModels"]["Location"]["fields"]["tags"] == [
            "name": "tags", "type": "String", "isArray": true, "isRequired": true, "isArrayNullable": false, "attributes": [],
        ])
    }

    /// The schema's own root fields, as `client.queries`/`client.mutations`/`client.subscriptions`
    /// find them.
    @Test func customOperations() throws {
        let schema = try AmplifySchema.parse(source: """
            type Post @model { id: ID! title: String }
            type Echo { text: String }
            input EchoInput { text: String! }
            enum Tone { LOUD QUIET }
            type Query {
              echo(msg: String!, tone: Tone): Echo @function(name: "echo")
              recent(limit: Int = 10): [Post!]! @function(name: "recent")
            }
            type Mutation { shout(input: EchoInput!): [String] @function(name: "shout") }
            type Subscription { onShout: Post @aws_subscribe(mutations: ["createPost"]) }
            """, file: "schema.graphql")
        let introspection = schema.modelIntrospection
        #expect(introspection["queries"]["echo"] == [
            "name": "echo", "type": ["nonModel": "Echo"], "isArray": false, "isRequired": false,
            "arguments": [
                "msg": ["name": "msg", "type": "String", "isArray": false, "isRequired": true],
                "tone": ["name": "tone", "type": ["enum": "Tone"], "isArray": false, "isRequired": false],
            ],
        ])
        #expect(introspection["queries"]["recent"]["type"] == ["model": "Post"])
        #expect(introspection["queries"]["recent"]["isRequired"] == true && introspection["queries"]["recent"]["isArrayNullable"] == false)
        #expect(introspection["queries"]["recent"]["arguments"]["limit"]["type"] == "Int")
        #expect(introspection["mutations"]["shout"]["arguments"]["input"]["type"] == ["input": "EchoInput"])
        #expect(introspection["mutations"]["shout"]["isArrayNullable"] == true)
        #expect(introspection["subscriptions"]["onShout"]["type"] == ["model": "Post"])
        #expect(try Fixture.schema("gen2.graphql").modelIntrospection["queries"] == .null, "no section without custom operations")
    }
}
