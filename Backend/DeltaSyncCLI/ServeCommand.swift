import ArgumentParser
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
        let (project, server) = try options.server()
        let storage = options.inMemory ? "in memory" : options.database
        try await server.run { channel in
            let boundPort = channel.localAddress?.port ?? options.port
            let banner = """
                DeltaSync is serving \(project.schemaFiles.joined(separator: ", ")) (\(project.schema.models.map(\.name).joined(separator: ", ")))
                  GraphQL:  http://\(options.host):\(boundPort)/graphql
                  API key:  \(server.apiKey)
                  Auth:     \(server.authModes.all.map(\.rawValue).joined(separator: ", "))
                  Storage:  \(storage)

                """
            // Unbuffered, so scripts that wait for the URL on a pipe see it at once.
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
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

    @Option(name: .customLong("db"), help: "SQLite database file.")
    var database: String = {
        guard case .file(let path) = defaults.storage else { preconditionFailure("the default storage is a file") }
        return path
    }()

    @Flag(name: .customLong("in-memory"), help: "Keep items in memory only (gone when the server stops).")
    var inMemory = false

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

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
    }

    /// The project and a server configured by the options (not yet listening).
    func server() throws -> (AmplifyProject, DeltaSyncServer) {
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
        configuration.storage = inMemory ? .inMemory : .file(database)
        configuration.deltaTTL = deltaTTL.duration
        configuration.tombstoneTTL = tombstoneTTL.duration
        configuration.conflictHandler = conflictHandler?.kind
        configuration.lambdaConflictHandler = lambdaURL.map { LambdaConflictHandlers.http(url: $0) }
        var logger = Logger(label: "deltasync")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        return (project, try DeltaSyncServer(project: project, configuration: configuration, logger: logger))
    }
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
