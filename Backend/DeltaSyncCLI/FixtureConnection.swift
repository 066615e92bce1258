import ArgumentParser
import DeltaSyncTesting
import Foundation
import NIOHTTP1

/// How the commands that talk to a running server's fixture API (`config`, `export`, `import`)
/// reach it: its URL and admin key, from flags or from the environment `deltasync exec` sets.
struct FixtureConnection: ParsableArguments {
    @Option(help: "The server's GraphQL URL. Default: $DELTASYNC_URL, else http://127.0.0.1:20002/graphql.")
    var url: String?

    @Option(name: .customLong("admin-key"), help: "The server's admin key. Default: $DELTASYNC_ADMIN_KEY.")
    var adminKey: String?

    var graphQLURL: String {
        url ?? ProcessInfo.processInfo.environment["DELTASYNC_URL"] ?? "http://127.0.0.1:20002/graphql"
    }

    /// Sends one fixture API request; returns the answer's body, or throws its error message.
    func send(_ method: HTTPMethod, _ path: String, body: String? = nil) async throws -> String {
        String(decoding: try await send(method, path, bytes: body.map { Array($0.utf8) }), as: UTF8.self)
    }

    /// ``send(_:_:body:)`` for bytes: `contentType` names the body's, `accept` the answer's.
    func send(
        _ method: HTTPMethod, _ path: String, bytes body: [UInt8]?, contentType: String = "application/json",
        accept: String = "application/json"
    ) async throws -> [UInt8] {
        guard let key = adminKey ?? ProcessInfo.processInfo.environment["DELTASYNC_ADMIN_KEY"] else {
            throw FixtureFileFailure(message: "Give the server's admin key: --admin-key, or DELTASYNC_ADMIN_KEY (deltasync exec sets it).")
        }
        do {
            return try await FixtureAPIClient(graphQLURL: graphQLURL, adminKey: key)
                .send(method, path, bytes: body, contentType: contentType, accept: accept)
        } catch {
            throw FixtureFileFailure(message: error.description)
        }
    }
}
