import DeltaSyncCore
import DeltaSyncTesting
import Testing

/// Events written along the subscription's own selection (``EventPlan``): aliases, fragments,
/// `@include`/`@skip` with the subscription's variables, and the related objects and
/// connections the mutation carried.
@Suite struct EventPlanTests {
    static let createWithRelations = """
        mutation($i: CreatePostInput!) {
          createPost(input: $i) { id title blogID blog { id name } comments { items { id } nextToken } }
        }
        """

    @Test func aliasesFragmentsAndDirectivesFollowTheSubscriptionsVariables() async throws {
        try await RealtimeTests.withServer { live in
            _ = try await live.mutate(#"mutation { createBlog(input: {id: "b1", name: "Notes"}) { id } }"#)
            let client = try await live.connected()
            client.start(
                id: "s",
                query: """
                    subscription($withTitle: Boolean!, $noBlog: Boolean!) {
                      post: onCreatePost { key: id ...Parts title @include(if: $withTitle) blog @skip(if: $noBlog) { name } }
                    }
                    fragment Parts on Post { __typename blogID }
                    """,
                variables: ["withTitle": false, "noBlog": false])
            _ = try await client.next("start_ack")
            _ = try await live.mutate(Self.createWithRelations, ["i": ["id": "p1", "blogID": "b1", "title": "Hello"]])
            let payload = try await client.next("data")["payload"]
            #expect(payload == ["data": ["post": ["key": "p1", "__typename": "Post", "blogID": "b1", "blog": ["name": "Notes"]]]])
            _ = await client.close()
        }
    }

    @Test func relatedObjectsAndConnectionsComeFromTheMutationsResult() async throws {
        try await RealtimeTests.withServer { live in
            _ = try await live.mutate(#"mutation { createBlog(input: {id: "b1", name: "Notes"}) { id } }"#)
            let client = try await live.connected()
            client.start(
                id: "s", query: "subscription { onCreatePost { id blog { id website } comments { items { id content } nextToken } } }")
            _ = try await client.next("start_ack")
            _ = try await live.mutate(Self.createWithRelations, ["i": ["id": "p1", "blogID": "b1", "title": "Hello"]])
            let payload = try await client.next("data")["payload"]
            // `website` was not selected by the mutation: null, as AppSync sends it.
            #expect(
                payload == [
                    "data": ["onCreatePost": ["id": "p1", "blog": ["id": "b1", "website": nil], "comments": ["items": [], "nextToken": nil]]]
                ])
            _ = await client.close()
        }
    }

    @Test func aRequiredRelatedFieldTheMutationLeftOutNullsTheObjectWithAnError() async throws {
        try await RealtimeTests.withServer { live in
            _ = try await live.mutate(#"mutation { createBlog(input: {id: "b1", name: "Notes"}) { id } }"#)
            let client = try await live.connected()
            client.start(id: "s", query: "subscription { onCreateComment { id post { id title } } }")
            _ = try await client.next("start_ack")
            _ = try await live.mutate(#"mutation { createPost(input: {id: "p1", blogID: "b1", title: "T"}) { id } }"#)
            _ = try await live.mutate(
                #"mutation { createComment(input: {id: "c1", content: "Hi", postCommentsId: "p1"}) { id post { id } } }"#)
            let payload = try await client.next("data")["payload"]
            #expect(payload["data"] == ["onCreateComment": ["id": "c1", "post": nil]])
            #expect(
                payload["errors"][0]["message"]
                    == "Cannot return null for non-nullable type: 'String' within parent 'Post' (/onCreateComment/post/title)")
            _ = await client.close()
        }
    }
}
