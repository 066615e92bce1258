import ArgumentParser
import DeltaSyncPostgres
import DeltaSyncServer
import Foundation
import Logging

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

    @Flag(
        name: .customLong("keep-freed-memory"),
        help: "Leave memory the server freed to the allocator instead of handing it back to the system every 2 s (Linux).")
    var keepFreedMemory = false

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

    @Option(
        name: .customLong("conflict-handler-function"),
        help: "A function (functions.json, --function or the Amplify project's) that decides LAMBDA conflicts, given AppSync's conflict payload.")
    var conflictHandlerFunction: String?

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
        if lambdaURL != nil, conflictHandlerFunction != nil {
            throw ValidationError("--lambda-url and --conflict-handler-function both name the conflict handler: pass one.")
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
}
