import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncFixture
import DeltaSyncSchema
import Foundation
import NIOHTTP1

/// A DeltaSync server already running (a container in CI, a staging server), which a
/// simulation's devices sync with: its fixture API, with its admin key, reads its store and
/// moves its clock and faults.
///
/// ```swift
/// // let server = try await RemoteSimulationServer.connect(
/// //     url: "http://127.0.0.1:20002/graphql", adminKey: "dsa-...", schema: project.schema, reset: true)
/// // try await Simulation.run(connectingTo: server, project: project, devices: ["phone", "tablet"]) { ... }
/// ```
///
/// Its devices sync with its API key, or as users of its development issuer when the folder
/// holding the issuer's key (the server's data folder) is given; IAM devices need a server the
/// simulation starts, which gives each an access key of its own.
public struct RemoteSimulationServer: SimulationServer {
    public let graphQLURL: String
    public let host: String
    public let port: Int
    public let apiKey: String
    public let region: String
    private let fixture: FixtureAPIClient
    private let schema: AmplifySchema
    /// The server's data folder, for development tokens.
    private let dataDirectory: String?

    /// Connects to the server at `url` (its GraphQL endpoint, `http://`), checks that it serves
    /// `schema`'s models, and, when `reset` says so, removes every item, delta and conflict it
    /// holds, so that a scenario starts from an empty store.
    ///
    /// - Throws: ``SimulationError`` saying what to fix: an `https://` URL (links relay plain
    ///   TCP), a server that cannot be reached, a wrong admin key, a server without an API
    ///   key, or one serving other models.
    public static func connect(
        url: String, adminKey: String, schema: AmplifySchema, dataDirectory: String? = nil, reset: Bool = false
    ) async throws -> RemoteSimulationServer {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else {
            throw SimulationError("\(url) is not a URL: give the server's GraphQL endpoint, http://host:port/graphql.")
        }
        guard scheme == "http" else {
            throw SimulationError(
                "\(url): a simulation connects over http:// (each device's link relays plain TCP). A DeltaSync server with its "
                    + "development certificate serves plain HTTP on the same port: use http://\(host):\(parsed.port ?? 443)\(parsed.path).")
        }
        let fixture = FixtureAPIClient(graphQLURL: url, adminKey: adminKey)
        let configuration = try await admin(fixture, .GET, "client-config")
        guard let apiKey = configuration["apiKey"].stringValue else {
            throw SimulationError("The server at \(url) has no API key: simulated devices sync with it (serve it with --api-key).")
        }
        let server = RemoteSimulationServer(
            graphQLURL: url, host: host, port: parsed.port ?? 80, apiKey: apiKey, region: configuration["region"].stringValue ?? "us-east-1",
            fixture: fixture, schema: schema, dataDirectory: dataDirectory)
        let served = Set((try await server.admin(.GET, "status")["models"].arrayValue ?? []).compactMap { $0["name"].stringValue })
        let expected = Set(schema.models.map(\.name))
        guard served == expected else {
            throw SimulationError(
                "The server at \(url) serves the models \(served.sorted().joined(separator: ", ")), the schema given \(expected.sorted().joined(separator: ", ")): "
                    + "give simulate the schema the server runs.")
        }
        if reset { _ = try await server.admin(.POST, "reset", body: [:]) }
        return server
    }

    public func snapshot() async throws -> StoreSnapshot {
        let json = try await admin(.GET, "snapshot")
        do {
            // The TTL only fills in tombstones that lack one; the server's always carry theirs.
            return try StoreSnapshot(json: json, text: nil, schema: schema, tombstoneTTL: 0)
        } catch {
            throw SimulationError("The server's snapshot does not read as the schema's: \(error)")
        }
    }

    public func advanceClock(by seconds: Int) async throws {
        _ = try await admin(.POST, "clock/advance", body: ["by": .int(seconds * 1000)])
    }

    public func addFault(_ fault: JSONValue) async throws { _ = try await admin(.POST, "faults", body: fault) }

    public func clearFaults() async throws { _ = try await admin(.DELETE, "faults") }

    public func developmentToken(username: String, groups: [String], lifetime: TimeInterval) async throws -> String {
        guard let dataDirectory else {
            throw SimulationError(
                "A device signed in as \(username) needs a token of the server's development issuer: give the server's data folder "
                    + "(simulate --data-dir), or let the simulation start its server.")
        }
        return try await DevelopmentIssuer.load(directory: dataDirectory).token(username: username, groups: groups, lifetime: lifetime)
    }

    private func admin(_ method: HTTPMethod, _ path: String, body: JSONValue? = nil) async throws -> JSONValue {
        try await Self.admin(fixture, method, path, body: body)
    }

    /// One fixture API request; its JSON answer, or a ``SimulationError`` with the server's message.
    private static func admin(_ fixture: FixtureAPIClient, _ method: HTTPMethod, _ path: String, body: JSONValue? = nil) async throws -> JSONValue {
        do {
            return try await fixture.json(method, path, body: body)
        } catch {
            throw SimulationError(error.description)
        }
    }
}
