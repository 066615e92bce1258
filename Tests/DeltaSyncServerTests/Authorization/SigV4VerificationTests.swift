import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncSigV4
import DeltaSyncTesting
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// `AWS_IAM` signatures cover what the server runs: the body received (not a hash a header
/// claims), `host` and `x-amz-date`, and a credential scope for `appsync` in the server's
/// region. Each tampered request is built with the real signer (DeltaSyncSigV4), as a client
/// holding a captured signed request could build it, and refused with HTTP 403 and the signing
/// layer's error type; nothing it asked for happens.
@Suite struct SigV4VerificationTests {
    static let schema = """
        type Note @model @auth(rules: [{ allow: private, provider: iam }, { allow: public, provider: apiKey }]) {
          id: ID!
          text: String
        }
        """
    static let accessKey = "AKIDMEMBER"
    static let secret = "member-secret"
    static let list = #"{"query":"{ listNotes { items { id } } }"}"#
    static let create = #"{"query":"mutation { createNote(input: {id: \"n1\", text: \"planted\"}) { id } }"}"#

    static func withServer(region: String? = nil, _ body: (DeltaSyncTestServer) async throws -> Void) async throws {
        try await DeltaSyncTestServer.withServer(schema: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .iam, additionalModes: [.apiKey])
            $0.iamCredentials = [IAMCredential(accessKeyID: accessKey, secretAccessKey: secret, role: .authenticated)]
            if let region { $0.region = region }
        }, body)
    }

    /// `127.0.0.1:<port>`: what the HTTP client sends as `Host`, so what a client signs.
    static func host(_ server: DeltaSyncTestServer) -> String { "127.0.0.1:\(server.port)" }

    /// The headers the real signer gives for `body`, signing `host`, `content-type`,
    /// `x-amz-date` and `extra`; `extra` is sent too.
    static func signed(
        _ body: String, host: String, extra: [String: String] = [:], region: String = "us-east-1", service: String = "appsync",
        path: String = "/graphql"
    ) -> [(String, String)] {
        let headers = ["host": host, "content-type": "application/json"].merging(extra) { $1 }
        let signature = SigV4.sign(
            SigV4Request(path: path, headers: headers, body: Array(body.utf8)),
            accessKeyID: accessKey, secretAccessKey: secret, region: region, service: service, now: Date())
        return signature.map { ($0.key, $0.value) } + extra.map { ($0.key, $0.value) }
    }

    /// A signature over exactly `signedHeaders` (which may leave out `host` or `x-amz-date`),
    /// made with the real signer, and every header sent.
    static func signed(_ body: String, host: String, only signedHeaders: [String]) -> [(String, String)] {
        let amzDate = SigV4.timestamp(Date())
        let headers = ["host": host, "content-type": "application/json", "x-amz-date": amzDate]
        let signature = SigV4.signature(
            SigV4Request(path: "/graphql", headers: headers, body: Array(body.utf8)), signedHeaders: signedHeaders,
            secretAccessKey: secret, amzDate: amzDate, region: "us-east-1", service: "appsync")
        let authorization = "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(amzDate.prefix(8))/us-east-1/appsync/aws4_request, "
            + "SignedHeaders=\(signedHeaders.joined(separator: ";")), Signature=\(signature)"
        return [("Authorization", authorization), ("X-Amz-Date", amzDate)]
    }

    /// POSTs `body` with `headers` (content-type added); the status and the JSON answer.
    static func post(_ server: DeltaSyncTestServer, _ body: String, headers: [(String, String)]) async throws -> (status: Int, json: JSONValue) {
        var request = HTTPClientRequest(url: server.graphQLURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        for (name, value) in headers where name.lowercased() != "content-type" { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: body))
        let answer = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await answer.body.collect(upTo: 1 << 20))
        return (Int(answer.status.code), try JSONValue(parsing: text))
    }

    /// The notes the API key sees: proof of what tampered requests did not create.
    static func notes(_ server: DeltaSyncTestServer) async throws -> JSONValue {
        try await server.graphQL("{ listNotes { items { id } } }")["data"]["listNotes"]["items"]
    }

    static func refusal(_ answer: (status: Int, json: JSONValue)) -> String? {
        guard answer.status == 403, answer.json["data"].isNull else { return nil }
        return answer.json["errors"][0]["errorType"].stringValue
    }

    @Test func aSignatureCoversTheBodyReceivedNotAHashAHeaderClaims() async throws {
        try await Self.withServer { server in
            let host = Self.host(server)
            let listHash = SigV4.payloadHash(Array(Self.list.utf8))
            // The captured request runs as signed.
            let captured = Self.signed(Self.list, host: host)
            #expect(try await Self.post(server, Self.list, headers: captured).json["errors"].isNull)

            // Replayed with another body and an unsigned header naming the original body's hash.
            let unsignedHash = try await Self.post(server, Self.create, headers: captured + [("x-amz-content-sha256", listHash)])
            #expect(Self.refusal(unsignedHash) == "InvalidSignatureException")
            // Replayed with another body where the signature itself covers that header.
            let signedHash = Self.signed(Self.list, host: host, extra: ["x-amz-content-sha256": listHash])
            let swapped = try await Self.post(server, Self.create, headers: signedHash)
            #expect(Self.refusal(swapped) == "InvalidSignatureException")
            #expect(swapped.json["errors"][0]["message"] == "x-amz-content-sha256 is not the SHA-256 of the body received.")
            // A body swapped with no header at all.
            #expect(Self.refusal(try await Self.post(server, Self.create, headers: captured)) == "InvalidSignatureException")
            #expect(try await Self.notes(server) == [], "no tampered request created the note")

            // A signed, truthful x-amz-content-sha256 is fine; an unsigned one, even truthful, is not.
            #expect(try await Self.post(server, Self.list, headers: signedHash).json["errors"].isNull)
            let unsignedTruth = try await Self.post(server, Self.list, headers: captured + [("x-amz-content-sha256", listHash)])
            #expect(Self.refusal(unsignedTruth) == "InvalidSignatureException")
            // The same request signed for its own body runs.
            let created = try await Self.post(server, Self.create, headers: Self.signed(Self.create, host: host))
            #expect(created.json["data"]["createNote"]["id"] == "n1")
        }
    }

    @Test func hostAndDateMustBeSigned() async throws {
        try await Self.withServer { server in
            let host = Self.host(server)
            let all = try await Self.post(server, Self.list, headers: Self.signed(Self.list, host: host, only: ["content-type", "host", "x-amz-date"]))
            #expect(all.json["errors"].isNull)
            for signedHeaders in [["content-type", "x-amz-date"], ["content-type", "host"]] {
                let answer = try await Self.post(server, Self.create, headers: Self.signed(Self.create, host: host, only: signedHeaders))
                #expect(Self.refusal(answer) == "IncompleteSignatureException", "signed only \(signedHeaders)")
                #expect(answer.json["errors"][0]["message"].stringValue?.contains("must be one of the SignedHeaders") == true)
            }
            #expect(try await Self.notes(server) == [])
        }
    }

    @Test func theScopeNamesAppSyncAndTheServersRegion() async throws {
        try await Self.withServer { server in
            let host = Self.host(server)
            let otherService = try await Self.post(server, Self.create, headers: Self.signed(Self.create, host: host, service: "s3"))
            #expect(Self.refusal(otherService) == "InvalidSignatureException")
            let otherRegion = try await Self.post(server, Self.create, headers: Self.signed(Self.create, host: host, region: "eu-west-1"))
            #expect(Self.refusal(otherRegion) == "InvalidSignatureException")
            #expect(otherRegion.json["errors"][0]["message"] == "The credential scope names region 'eu-west-1'; this server's region is 'us-east-1'.")
            // 403s carry the error type in x-amzn-ErrorType too; their body is AppSync's shape.
            #expect(otherRegion.json["errors"].arrayValue?.count == 1)
            #expect(try await Self.notes(server) == [])
        }
        try await Self.withServer(region: "eu-west-1") { server in
            let host = Self.host(server)
            let ownRegion = try await Self.post(server, Self.list, headers: Self.signed(Self.list, host: host, region: "eu-west-1"))
            #expect(ownRegion.json["errors"].isNull)
            let defaultRegion = try await Self.post(server, Self.list, headers: Self.signed(Self.list, host: host))
            #expect(Self.refusal(defaultRegion) == "InvalidSignatureException")
        }
    }

    @Test func unknownKeysAndWrongSecretsAreForbidden() async throws {
        try await Self.withServer { server in
            let host = Self.host(server)
            let request = SigV4Request(path: "/graphql", headers: ["host": host, "content-type": "application/json"], body: Array(Self.list.utf8))
            let unknown = SigV4.sign(request, accessKeyID: "AKIDNOBODY", secretAccessKey: Self.secret, region: "us-east-1", now: Date())
            #expect(Self.refusal(try await Self.post(server, Self.list, headers: unknown.map { ($0.key, $0.value) })) == "UnrecognizedClientException")
            let wrong = SigV4.sign(request, accessKeyID: Self.accessKey, secretAccessKey: "not-the-secret", region: "us-east-1", now: Date())
            #expect(Self.refusal(try await Self.post(server, Self.list, headers: wrong.map { ($0.key, $0.value) })) == "InvalidSignatureException")
            let stale = SigV4.sign(
                request, accessKeyID: Self.accessKey, secretAccessKey: Self.secret, region: "us-east-1", now: Date().addingTimeInterval(-20 * 60))
            #expect(Self.refusal(try await Self.post(server, Self.list, headers: stale.map { ($0.key, $0.value) })) == "InvalidSignatureException")
            let incomplete = try await Self.post(server, Self.list, headers: [("Authorization", "AWS4-HMAC-SHA256 Credential=\(Self.accessKey)/20260101/us-east-1/appsync/aws4_request")])
            #expect(Self.refusal(incomplete) == "IncompleteSignatureException")
        }
    }

    /// A realtime `start` signed for one subscription's `data` cannot carry another's.
    @Test func aStartSignatureCoversTheDataReceived() async throws {
        try await Self.withServer { server in
            let host = Self.host(server)
            let client = server.realtimeClient()
            _ = try await client.initialize()
            let signedData = #"{"query":"subscription { onUpdateNote { id } }","variables":{}}"#
            let otherData = #"{"query":"subscription { onCreateNote { id text } }","variables":{}}"#
            var authorization: [String: JSONValue] = ["host": .string(host), "content-type": "application/json"]
            for (name, value) in Self.signed(signedData, host: host) { authorization[name] = .string(value) }
            authorization["x-amz-content-sha256"] = .string(SigV4.payloadHash(Array(signedData.utf8)))

            client.send([
                "id": "swapped", "type": "start",
                "payload": ["data": .string(otherData), "extensions": ["authorization": .object(authorization)]],
            ])
            let refused = try await client.next("error")
            #expect(refused["id"] == "swapped")
            #expect(refused["payload"]["errors"][0]["errorType"] == "InvalidSignatureException")

            // The same start with the data it signed (and no unsigned hash header) starts.
            authorization["x-amz-content-sha256"] = nil
            client.send([
                "id": "signed", "type": "start",
                "payload": ["data": .string(signedData), "extensions": ["authorization": .object(authorization)]],
            ])
            #expect(try await client.next("start_ack")["id"] == "signed")
            _ = await client.close()
        }
    }
}
