import DeltaSyncCore
import Testing

/// `AWSEmail` and `AWSURL` values are checked as AppSync documents them, from variables and
/// from literals; a refused value is a validation error and nothing is stored.
@Suite struct ScalarValidationTests {
    private static let createBlog = "mutation($i: CreateBlogInput!) { createBlog(input: $i) { owner website } }"

    /// Sends `value` as `field` of a new blog; `nil` when accepted (the value read back
    /// unchanged), else the error message.
    private static func refusal(_ client: TestServer.Client, _ field: String, _ value: String) async throws -> String? {
        let reply = try await client.graphQL(createBlog, ["i": ["name": "b", field: .string(value)]])
        if reply.errors.isEmpty {
            #expect(reply.data["createBlog"][field] == .string(value), "\(field) reads back as sent")
            return nil
        }
        #expect(reply.data["createBlog"] == .null)
        #expect(reply.firstError["errorType"] == .null, "a validation error, as for other scalars")
        return reply.firstError["message"].stringValue ?? reply.json.jsonText
    }

    @Test func emailAddressesAreHeldToTheLengthsMailServersAccept() async throws {
        let local64 = String(repeating: "l", count: 64)
        let label63 = String(repeating: "d", count: 63)
        // 64 + 1 + 189 bytes: a domain of labels of 63, 63, 58 and 2 bytes.
        let longest = local64 + "@" + label63 + "." + label63 + "." + String(repeating: "d", count: 58) + ".io"
        #expect(longest.utf8.count == 254)
        let accepted = ["ana@example.com", "a@b.c", local64 + "@example.com", "ana@" + label63 + ".com", longest]
        let refused = [
            String(repeating: "a", count: 9_998) + "@x.com",  // the 10,004 characters once accepted
            String(repeating: "l", count: 65) + "@example.com",
            "ana@" + String(repeating: "d", count: 64) + ".com",
            longest + "x",
            "ana@example..com",
            "ana@example",
            "@example.com",
            "ana@@example.com",
            "ana @example.com",
        ]
        try await TestServer().withClient { client in
            for email in accepted {
                let refusal = try await Self.refusal(client, "owner", email)
                #expect(refusal == nil, "\(email.prefix(80)) (\(email.utf8.count) bytes) is accepted")
            }
            for email in refused {
                let refusal = try await Self.refusal(client, "owner", email)
                #expect(refusal?.contains("AWSEmail") == true, "\(email.prefix(80)) (\(email.utf8.count) bytes) is refused")
            }
            let listed = try await client.expectData("listBlogs", "{ listBlogs { items { id } } }")
            #expect(listed["items"].arrayValue?.count == accepted.count, "refused creates stored nothing")
        }
    }

    @Test func urlsNeedASchemeAndAnAuthorityThatParses() async throws {
        let accepted = [
            "https://www.amazon.com/dp/B000NZW3KC/",  // AppSync's examples
            "mailto:example@example.com",
            "urn:isbn:0451450523",
            "http://192.168.0.1",
            "http://[::1]:8080/status",
            "http://[2001:db8::7]/",
            "https://user:secret@example.com:443/a/b?next=https://other.example//x#top",
            "file:///etc/hosts",
        ]
        let refused = [
            "http://[::1",  // an unclosed bracket
            "http://[::g]/",  // not an IPv6 address
            "http://[]/",
            "http://[::1]x/",
            "http://::1/",  // IPv6 without brackets
            "http://example.com:99999/",
            "http://example.com:80a/",
            "http://example.com:/",
            "http:///path",  // no host
            "http://exa<mple.com/",
            "https://example.com//dp",  // two slashes in the path
            "mailto:",
            "no scheme",
            "1http://example.com",
        ]
        try await TestServer().withClient { client in
            for url in accepted {
                let refusal = try await Self.refusal(client, "website", url)
                #expect(refusal == nil, "\(url) is accepted")
            }
            for url in refused {
                let refusal = try await Self.refusal(client, "website", url)
                #expect(refusal?.contains("AWSURL") == true, "\(url) is refused")
            }
        }
    }

    @Test func literalsAreCheckedLikeVariables() async throws {
        try await TestServer().withClient { client in
            let url = try await client.graphQL(#"mutation { createBlog(input: {name: "b", website: "http://[::1"}) { id } }"#)
            #expect(url.firstError["message"].stringValue?.contains("AWSURL") == true)
            let long = String(repeating: "l", count: 65) + "@example.com"
            let email = try await client.graphQL(#"mutation { createBlog(input: {name: "b", owner: "\#(long)"}) { id } }"#)
            #expect(email.firstError["message"].stringValue?.contains("AWSEmail") == true)
            #expect(email.data["createBlog"] == .null)
        }
    }
}
