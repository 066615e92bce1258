import ArgumentParser
import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the AppSync API of a schema: GraphQL over HTTP, items in SQLite."
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let (project, server, closeStore) = try await options.server()
        for name in server.unconfiguredFunctions {
            FileHandle.standardError.write(Data("""
                deltasync: warning: function '\(name)' is not configured: the fields that call it answer Lambda:Unhandled. \
                Name it in functions.json next to the schema, pass --function NAME=URL, or add amplify/backend/function/<name>/src.

                """.utf8))
        }
        do {
            try await serve(project: project, server: server)
        } catch {
            await closeStore()
            throw error
        }
        await closeStore()
    }

    private func serve(project: AmplifyProject, server: DeltaSyncServer) async throws {
        if let change = try await server.recordServedShape() {
            FileHandle.standardError.write(Data("deltasync: \(change.message(deltaTTL: options.deltaTTL.duration))\n".utf8))
        }
        try await options.seed(server)
        let storage = options.storageDescription
        let (http, ws) = options.tlsCertificate == nil ? ("http", "ws") : ("https", "wss")
        try await server.run { channel in
            let boundPort = channel.localAddress?.port ?? options.port
            var fixture = ""
            if let adminKey = server.adminKey {
                fixture = """
                      Admin key: \(adminKey)   (x-deltasync-admin-key: the fixture API under /admin/)
                      Console:  \(http)://\(options.host):\(boundPort)/#apiKey=\(Self.fragmentValue(server.apiKey))&adminKey=\(Self.fragmentValue(adminKey))

                    """
            }
            do {
                try options.writeClientConfiguration(server, url: "\(http)://\(options.host):\(boundPort)/graphql")
            } catch {
                FileHandle.standardError.write(Data("deltasync: \(error)\n".utf8))
            }
            if options.logFormat == .json {
                // One JSON line for scripts and log collectors, with what the text banner says.
                let ready: JSONValue = [
                    "message": "ready", "graphqlUrl": .string("\(http)://\(options.host):\(boundPort)/graphql"),
                    // Log collectors keep what they read: keys appear as fingerprints only.
                    "realtimeUrl": .string("\(ws)://\(options.host):\(boundPort)/graphql"),
                    "apiKeyFingerprint": .string(KeyFingerprint.of(server.apiKey)),
                    "adminKeyFingerprint": server.adminKey.map { JSONValue.string(KeyFingerprint.of($0)) } ?? .null,
                    "authModes": .array(server.authModes.all.map { .string($0.rawValue) }), "storage": .string(storage),
                    "models": .array(project.schema.models.map { .string($0.name) }),
                    "conflictDetection": .string(project.conflictDetection.rawValue),
                ]
                FileHandle.standardOutput.write(Data((ready.jsonText + "\n").utf8))
                return
            }
            let both = server.configuration.plainBesideTLS
            let banner = """
                DeltaSync is serving \(project.schemaFiles.joined(separator: ", ")) (\(project.schema.models.map(\.name).joined(separator: ", ")))
                  GraphQL:  \(http)://\(options.host):\(boundPort)/graphql\(both ? "   (https:// on the same port)" : "")
                  Realtime: \(ws)://\(options.host):\(boundPort)/graphql\(both ? "   (wss:// on the same port)" : "")
                \(both ? Self.trustLines(authority: options.developmentAuthorityPath) : "")
                  API key:  \(server.apiKey)
                  Auth:     \(server.authModes.all.map(\.rawValue).joined(separator: ", "))
                  Storage:  \(storage)
                  Conflict detection: \(project.conflictDetection.rawValue) (\(project.conflictDetectionSource))\(Self.shapeNote(project))
                \(Self.functionLines(server))\(fixture)
                """
            // Unbuffered, so scripts that wait for the URL on a pipe see it at once.
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
    }
}

extension ServeCommand {
    /// `  Functions: name → what runs it`, one line per function, for the banner.
    static func functionLines(_ server: DeltaSyncServer) -> String {
        let lines = server.functionDescriptions
        guard !lines.isEmpty else { return "" }
        return lines.enumerated().map { ($0 == 0 ? "  Functions: " : "             ") + $1 + "\n" }.joined()
    }

    /// How each runtime trusts the development authority, for a port answering TLS beside
    /// plain HTTP: Amplify JS v6 subscribes at `wss://` whatever its endpoint's scheme.
    static func trustLines(authority: String) -> String {
        """
          TLS:      development certificate signed by \(authority); trust it once for wss:// (Amplify JS v6 subscribes over it):
                    Node NODE_EXTRA_CA_CERTS=\(authority) · iOS simulator xcrun simctl keychain booted add-root-cert \(authority)
                    browsers: import it as a certificate authority · every platform: deltasync dev-cert

        """
    }

    /// What the API's shape means for its clients, after the banner's conflict detection line.
    static func shapeNote(_ project: AmplifyProject) -> String {
        switch project.conflictDetection {
        case .version: return "; DataStore clients sync"
        case .none: return "; no _version or syncX: for the API category, Gen 2 and Apollo, not DataStore"
        }
    }

    /// A key as a value in the console URL's fragment: `&`, `+`, `%` and `#` in a chosen key
    /// would otherwise be read as separators.
    static func fragmentValue(_ key: String) -> String {
        key.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? key
    }
}

/// Everything `serve` takes, shared with `exec`.
struct ServeOptions: ParsableArguments {
    /// Where every flag's default comes from: the library's documented defaults, stated once.
    private static let defaults = ServerConfiguration()

    @OptionGroup var input: SchemaInput

    @Option(help: "Interface to listen on; 0.0.0.0 for every interface (containers).")
    var host: String = defaults.host

    @Option(help: "Port for HTTP and the realtime WebSocket. 20002 is amplify mock's; 0 picks a free one.")
    var port: Int = defaults.port

    @OptionGroup(title: "Authorization") var auth: AuthOptions

    @OptionGroup(title: "Functions") var functions: FunctionOptions

    @Option(name: .customLong("db"), help: "SQLite database file.")
    var database: String = {
        guard case .file(let path) = defaults.storage else { preconditionFailure("the default storage is a file") }
        return path
    }()

    @Flag(name: .customLong("in-memory"), help: "Keep items in memory only (gone when the server stops).")
    var inMemory = false

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "A PostgreSQL store instead of SQLite: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?sslmode=disable|prefer|require&pool=16&schema=NAME].",
            valueName: "url"))
    var databaseURL: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    @Option(name: .customLong("log-format"), help: "text, or json: one JSON object per line on stderr, for log collectors.")
    var logFormat: LogFormat = .text

    @Option(
        name: .customLong("tls-cert"),
        help: "Serve https and wss: a PEM file with the server's certificate (then any intermediates); needs --tls-key. `deltasync dev-cert` makes one.")
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: "The PEM private key of --tls-cert's certificate.")
    var tlsKey: String?

    @Flag(
        name: .customLong("no-tls"),
        help: "Serve plain http and ws only. By default the port also answers https and wss with a development certificate kept in the data folder (Amplify JS v6 subscribes over wss://).")
    var noTLS = false

    @Option(name: .customLong("admin-key"), help: "The fixture API's key (x-deltasync-admin-key); generated and printed when not given.")
    var adminKey: String?

    @Flag(name: .customLong("no-admin"), help: "No fixture API under /admin/ (a shared staging server).")
    var noAdmin = false

    @Flag(name: .customLong("no-metrics"), help: "No Prometheus metrics at /metrics.")
    var noMetrics = false

    @Option(
        name: .customLong("metrics-token"),
        help: "A token /metrics callers send as Authorization: Bearer TOKEN; without one, /metrics answers callers on this machine only.")
    var metricsToken: String?

    @Option(
        name: .customLong("cors-origin"),
        help: "A web page origin whose scripts may call /graphql (https://app.example.com, http://localhost:* for any port, * for every page); repeat for several. Default: pages of localhost, 127.0.0.1 and [::1].")
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("allowed-host"),
        help: "Another name the server answers to while it listens on loopback (a leading dot allows subdomains); repeat for several. Others than localhost, *.localhost and IP addresses are refused (DNS rebinding).")
    var allowedHosts: [String] = []

    @Option(help: "A seed file to write before serving: {\"Post\": [{...}, ...]}, items with their metadata.")
    var seed: String?

    @Option(
        name: .customLong("write-config"),
        help: "Write amplifyconfiguration.json, aws-exports.js and amplify_outputs.json for this server into this folder.")
    var writeConfig: String?

    @Option(
        name: .customLong("delta-ttl"),
        help: "How long changes stay in the delta log (e.g. 30m, 90s); older lastSync values get a base sync.")
    var deltaTTL = DurationArgument(defaults.deltaTTL)

    @Option(name: .customLong("tombstone-ttl"), help: "How long deleted items are kept as tombstones (e.g. 30d).")
    var tombstoneTTL = DurationArgument(defaults.tombstoneTTL)

    @Option(
        name: .customLong("conflict-handler"),
        help: "automerge, optimistic or lambda: replaces the handlers of transform.conf.json for every model.")
    var conflictHandler: ConflictHandlerChoice?

    @Option(
        name: .customLong("lambda-url"),
        help: "URL that receives AppSync's Lambda conflict payload as a JSON POST and answers RESOLVE/REJECT/REMOVE.")
    var lambdaURL: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        if databaseURL != nil, inMemory {
            throw ValidationError("--database and --in-memory contradict each other: items live in PostgreSQL or in memory.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        if deltaTTL.duration <= .zero { throw ValidationError("--delta-ttl must be longer than zero.") }
        if tombstoneTTL.duration <= .zero {
            throw ValidationError("--tombstone-ttl must be longer than zero: deleted items must reach devices that sync later.")
        }
        if let lambdaURL, !(lambdaURL.hasPrefix("http://") || lambdaURL.hasPrefix("https://")) {
            throw ValidationError("--lambda-url must be an http:// or https:// URL.")
        }
        if noAdmin, adminKey != nil {
            throw ValidationError("--admin-key and --no-admin contradict each other: keep the fixture API with its key, or turn it off.")
        }
        if let adminKey, adminKey.count < 8 {
            throw ValidationError("--admin-key must be at least 8 characters.")
        }
        if let problem = corsOrigins.lazy.compactMap(ServerConfiguration.corsOriginProblem).first {
            throw ValidationError("--cors-origin: \(problem)")
        }
        if let metricsToken, metricsToken.count < 16 {
            throw ValidationError("--metrics-token must be at least 16 characters.")
        }
        if noMetrics, metricsToken != nil {
            throw ValidationError("--metrics-token and --no-metrics contradict each other: serve /metrics with a token, or not at all.")
        }
        if (tlsCertificate == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together: the certificate and its private key (deltasync dev-cert makes both).")
        }
    }

    /// The development authority's certificate in the data folder: what clients trust.
    var developmentAuthorityPath: String {
        (auth.dataDirectory as NSString).appendingPathComponent(DevelopmentCertificate.authorityFileName)
    }

    /// Where items live, for the banner.
    var storageDescription: String {
        if let databaseURL, let settings = try? PostgresStoreSettings(url: databaseURL) {
            return "PostgreSQL \(settings.host):\(settings.port)/\(settings.database) (schema \(settings.schema))"
        }
        return inMemory ? "in memory" : database
    }

    /// The project and a server configured by the options (not yet listening), and what closes
    /// the store once the server has stopped.
    func server() async throws -> (AmplifyProject, DeltaSyncServer, closeStore: @Sendable () async -> Void) {
        let project: AmplifyProject
        do {
            project = try input.load()
        } catch {
            throw SchemaFailure(error: error)
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        try auth.apply(to: &configuration)
        try functions.apply(to: &configuration, input: input)
        configuration.storage = inMemory ? .inMemory : .file(database)
        configuration.deltaTTL = deltaTTL.duration
        configuration.tombstoneTTL = tombstoneTTL.duration
        configuration.conflictHandler = conflictHandler?.kind
        configuration.fixtureAPI = !noAdmin
        configuration.metrics = !noMetrics
        configuration.metricsToken = metricsToken
        configuration.corsOrigins = corsOrigins.isEmpty ? nil : corsOrigins
        configuration.allowedHosts = allowedHosts
        configuration.adminKey = adminKey
        configuration.lambdaConflictHandler = lambdaURL.map { LambdaConflictHandlers.http(url: $0) }
        if let tlsCertificate, let tlsKey {
            configuration.tls = TLSSettings(certificateChainPath: tlsCertificate, privateKeyPath: tlsKey)
        } else if !noTLS {
            // TLS beside plain HTTP on the one port, with the data folder's development certificate.
            do {
                configuration.tls = try DevelopmentCertificate.existingOrNew(directory: auth.dataDirectory).certificate.tlsSettings
                configuration.plainBesideTLS = true
            } catch {
                FileHandle.standardError.write(Data("deltasync: warning: serving plain http only: cannot make a development certificate (\(error))\n".utf8))
            }
        }
        // Once per process, before the first logger: swift-log's default handler writes text.
        if logFormat == .json {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
        var logger = Logger(label: "deltasync")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var closeStore: @Sendable () async -> Void = {}
        if let databaseURL {
            let store: PostgresItemStore
            do {
                store = try await PostgresItemStore.connect(
                    settings: try PostgresStoreSettings(url: databaseURL), schema: project.schema, logger: logger)
            } catch let error as PostgresStoreSettingsError {
                throw ValidationError("--database: \(error)")
            } catch {
                throw StoreFailure(message: "cannot open the PostgreSQL store: \(error)")
            }
            configuration.storage = .store(store)
            closeStore = { await store.shutdown() }
        }
        do {
            return (project, try DeltaSyncServer(project: project, configuration: configuration, logger: logger), closeStore)
        } catch {
            await closeStore()
            throw error
        }
    }
}

extension ServeOptions {
    /// Writes `--seed`'s items before the server serves; a bad file stops the start with the
    /// line at fault, and writes nothing.
    func seed(_ server: DeltaSyncServer) async throws {
        guard let seed else { return }
        let text: String
        do {
            text = try String(contentsOfFile: seed, encoding: .utf8)
        } catch {
            throw FixtureFileFailure(message: "\(seed): cannot read the seed file (\(error.localizedDescription)).")
        }
        do {
            try await server.fixture.seed(text)
        } catch let error as FixtureInputError {
            throw FixtureFileFailure(message: "\(seed): \(error)")
        }
    }

    /// `--write-config`'s files, for the URL the server is reachable at.
    func writeClientConfiguration(_ server: DeltaSyncServer, url: String) throws {
        guard let folder = writeConfig else { return }
        let configuration = ClientConfiguration(
            url: url, authModes: server.authModes, apiKey: server.apiKey, modelIntrospection: server.project.schema.modelIntrospection)
        try ClientConfigurationFiles.write(configuration, to: folder)
    }
}

/// A store that cannot be opened (the database unreachable, refusing the role, ...).
struct StoreFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A seed or snapshot file that cannot be used: the message names the file and the line.
struct FixtureFileFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// `--log-format` values.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// swift-log's default: `2026-11-26T09:14:03+0000 info deltasync: message`.
    case text
    /// ``JSONLogHandler``'s lines.
    case json
}

/// `--conflict-handler` values, named as users say them.
enum ConflictHandlerChoice: String, ExpressibleByArgument, CaseIterable {
    case automerge, optimistic, lambda

    var kind: ConflictHandlerKind {
        switch self {
        case .automerge: return .automerge
        case .optimistic: return .optimisticConcurrency
        case .lambda: return .lambda
        }
    }
}
