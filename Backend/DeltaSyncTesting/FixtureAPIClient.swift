import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncFixture
import NIOCore
import NIOHTTP1

/// A running server's fixture API (`/admin/...` with its admin key), for tools that drive a
/// server from outside: `deltasync export`, `import` and `config`, and simulations connected
/// to a running server (``RemoteSimulationServer``).
///
/// ```swift
/// // let fixture = FixtureAPIClient(graphQLURL: "http://127.0.0.1:20002/graphql", adminKey: key)
/// // let status = try await fixture.json(.GET, "status")
/// ```
public struct FixtureAPIClient: Sendable {
    /// The server's GraphQL URL; the fixture API is `/admin/` beside it.
    public let graphQLURL: String
    public let adminKey: String

    public init(graphQLURL: String, adminKey: String) {
        self.graphQLURL = graphQLURL
        self.adminKey = adminKey
    }

    /// A fixture API request that failed, with the server's message or why it could not be sent.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// `/admin/<path>` on the server of ``graphQLURL``.
    public func url(_ path: String) -> String {
        let base = graphQLURL.hasSuffix("/graphql") ? String(graphQLURL.dropLast("/graphql".count)) : graphQLURL
        return base + "/admin/" + path
    }

    /// One request; the answer's bytes. `contentType` names the body's, `accept` the answer's.
    ///
    /// - Throws: ``Failure`` with the server's error message, or saying it cannot be reached.
    public func send(
        _ method: HTTPMethod, _ path: String, bytes body: [UInt8]? = nil, contentType: String = "application/json",
        accept: String = "application/json"
    ) async throws(Failure) -> [UInt8] {
        var request = HTTPClientRequest(url: url(path))
        request.method = method
        request.headers.add(name: AdminKey.header.rawName, value: adminKey)
        request.headers.add(name: "accept", value: accept)
        if let body {
            request.headers.add(name: "content-type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        let answer: [UInt8]
        do {
            response = try await Self.client.execute(request, timeout: .seconds(300))
            answer = Array(buffer: try await response.body.collect(upTo: 1 << 30))
        } catch {
            throw Failure(description: "Cannot reach \(url(path)): \(error). Is the server running?")
        }
        guard response.status == .ok || response.status == .created else {
            let text = String(decoding: answer, as: UTF8.self)
            let message = (try? JSONValue(parsing: text))?["errors"][0]["message"].stringValue ?? text
            throw Failure(description: "\(url(path)) answered \(response.status.code): \(message)")
        }
        return answer
    }

    /// ``send(_:_:bytes:contentType:accept:)`` of a JSON body, answered with JSON.
    public func json(_ method: HTTPMethod, _ path: String, body: JSONValue? = nil) async throws(Failure) -> JSONValue {
        let answer = try await send(method, path, bytes: body.map { Array($0.jsonText.utf8) })
        do {
            return try JSONValue(parsing: String(decoding: answer, as: UTF8.self))
        } catch {
            throw Failure(description: "\(url(path)) answered what is not JSON: \(error)")
        }
    }

    /// Gives up on a server it cannot connect to within 5 seconds (a shared client keeps
    /// trying until the request's deadline, minutes for a snapshot of a large store).
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
