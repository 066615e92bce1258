import DeltaSyncCore
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@Suite struct HTTPEndpointTests {
    @Test func emptyBodyIsMalformedRequest() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.post("")
            #expect(reply.status == .badRequest)
            #expect(reply.headers[HTTPField.Name("x-amzn-ErrorType")!] == "MalformedHttpRequestException")
            #expect(reply.firstError["errorType"] == "MalformedHttpRequestException")
            #expect(reply.firstError["message"] == "Request body is empty.")
        }
    }

    @Test(arguments: ["meow", "{}", "[]", #"{"query": 3}"#, #"{"query": "{ listPosts { items { id } } }",}"#])
    func unparsableBodyIsMalformedRequest(body: String) async throws {
        try await TestServer().withClient { client in
            let reply = try await client.post(body)
            #expect(reply.status == .badRequest)
            #expect(reply.firstError["errorType"] == "MalformedHttpRequestException")
            #expect(reply.firstError["message"] == "Unable to parse GraphQL query.")
        }
    }

    @Test func missingAPIKeyIsUnauthorized() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL("{ listPosts { items { id } } }", apiKey: nil)
            #expect(reply.status == .unauthorized)
            #expect(reply.headers[HTTPField.Name("x-amzn-ErrorType")!] == "UnauthorizedException")
            #expect(reply.firstError["errorType"] == "UnauthorizedException")
        }
    }

    @Test func wrongAPIKeyIsUnauthorized() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL("{ listPosts { items { id } } }", apiKey: "da2-wrong")
            #expect(reply.status == .unauthorized)
            #expect(reply.firstError["message"] == "You are not authorized to make this call.")
        }
    }

    @Test func apiKeyHeaderNameIsCaseInsensitive() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.post(
                #"{"query":"{ listPosts { items { id } } }"}"#, apiKey: nil,
                headers: [HTTPField.Name("X-Api-Key")!: TestServer.apiKey])
            #expect(reply.status == .ok)
            #expect(reply.errors.isEmpty)
        }
    }

    @Test func validationErrorIsOKWithAppSyncMessageAndLocation() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL("query {\n  badfield\n}")
            #expect(reply.status == .ok)
            #expect(reply.data == .null)
            #expect(
                reply.firstError["message"]
                    == "Validation error of type FieldUndefined: Field 'badfield' in type 'Query' is undefined @ 'badfield'")
            #expect(reply.firstError["locations"] == [["line": 2, "column": 3, "sourceName": nil]])
            #expect(reply.firstError["path"] == .null)
        }
    }

    @Test func syntaxErrorNamesLineAndColumn() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL("query { listPosts { items { id } }")
            #expect(reply.status == .ok)
            #expect(reply.firstError["message"].stringValue?.hasPrefix("Invalid Syntax") == true)
            #expect(reply.firstError["locations"][0]["line"] == 1)
        }
    }

    @Test func subscriptionOverHTTPIsRefused() async throws {
        try await TestServer().withClient { client in
            let reply = try await client.graphQL("subscription { onCreatePost { id } }")
            #expect(reply.status == .ok)
            #expect(reply.firstError["errorType"] == "UnsupportedOperation")
        }
    }

    @Test func healthAnswersOK() async throws {
        try await TestServer().server.application().test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test func corsPreflightAllowsAppSyncHeaders() async throws {
        try await TestServer().server.application().test(.router) { client in
            let headers: HTTPFields = [
                .origin: "http://localhost:3000",
                .accessControlRequestMethod: "POST",
                .accessControlRequestHeaders: "content-type,x-api-key",
            ]
            try await client.execute(uri: "/graphql", method: .options, headers: headers) { response in
                #expect(response.status == .noContent || response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "http://localhost:3000")
                let allowed = response.headers[.accessControlAllowHeaders]?.lowercased() ?? ""
                #expect(allowed.contains("x-api-key"))
            }
        }
    }

    @Test func getWithQueryParametersWorks() async throws {
        try await TestServer().server.application().test(.router) { client in
            try await client.execute(
                uri: "/graphql?query=%7B%20listBlogs%20%7B%20items%20%7B%20id%20%7D%20%7D%20%7D", method: .get,
                headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey]
            ) { response in
                #expect(response.status == .ok)
                let json = try JSONValue(parsing: String(buffer: response.body))
                #expect(json["data"]["listBlogs"]["items"] == [])
            }
        }
    }
}
