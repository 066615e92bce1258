import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncFunctions
import DeltaSyncGraphQL
import DeltaSyncRealtime
import DeltaSyncSchema
import DeltaSyncStorage
import Foundation

/// How a ``DeltaSyncServer`` listens, authenticates, stores and syncs, with the defaults of
/// `amplify mock` and AppSync where those exist.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.port = 0              // any free port, for tests
/// configuration.storage = .inMemory
/// configuration.apiKey = "da2-test"
/// configuration.deltaTTL = .seconds(2) // exercise the delta window quickly
/// ```
public struct ServerConfiguration: Sendable {
    /// Where items are stored.
    public enum Storage: Sendable {
        /// A SQLite file (created with its folder if missing), WAL mode.
        case file(String)
        /// A SQLite database that lives as long as the server.
        case inMemory
        /// A store opened by the caller, such as a `PostgresItemStore` several servers share;
        /// the caller closes it after the server stops.
        case store(any ItemStore)
    }

    // MARK: - Listening

    /// The interface to listen on. `127.0.0.1` keeps a development server private; use
    /// `0.0.0.0` in a container.
    public var host: String = "127.0.0.1"
    /// `amplify mock` listens on 20002, so existing local configurations keep working.
    /// `0` picks a free port (see ``RunningServer/port``).
    public var port: Int = 20002
    /// The accepted `x-api-key`. `nil` generates a `da2-...` key at start.
    public var apiKey: String?
    /// Largest accepted request body. A larger `Content-Length` is refused with 413 before the
    /// body is read.
    public var maxRequestBodyBytes: Int = 5 * 1024 * 1024
    /// Connection limits and timeouts of the HTTP port: what a client that sends nothing, too
    /// little or too much gets.
    public var connections = ConnectionConfiguration()
    /// The certificate and key to serve `https` and `wss` with, on the same port; `nil` (the
    /// default) serves plain `http` and `ws`. `deltasync dev-cert` makes a development pair
    /// (see ``DevelopmentCertificate``); the files are read when the server is created.
    public var tls: TLSSettings?
    /// With ``tls`` set, whether the port also answers plain `http` and `ws`: each connection's
    /// first byte tells a TLS handshake from an HTTP request. What `deltasync serve` does by
    /// default with a development certificate, so `http://` clients and Amplify JS v6 (which
    /// subscribes at `wss://` whatever the endpoint's scheme) both work. Default `false`.
    public var plainBesideTLS = false

    // MARK: - Browsers

    /// The web pages whose scripts may call `/graphql` (CORS, `--cors-origin`): origins
    /// (`https://app.example.com`), origins with any port (`http://localhost:*`), or `*` for
    /// every page. The server's own origin (the console) is always allowed; `/admin/` never
    /// answers CORS. `nil` (the default): pages of this machine, `http(s)://localhost:*`,
    /// `http(s)://127.0.0.1:*` and `http(s)://[::1]:*`.
    public var corsOrigins: [String]?
    /// More names the server answers to while it listens on a loopback address
    /// (`--allowed-host`): such a server refuses (403) a request whose `Host` is not
    /// `localhost`, `*.localhost` or an IP address, so a page that rebinds its own DNS name to
    /// `127.0.0.1` reaches nothing. `.example.test` allows a domain and its subdomains.
    /// Default none. A server listening beyond loopback (`0.0.0.0`) checks no `Host`.
    public var allowedHosts: [String] = []

    // MARK: - Storage and sync

    public var storage: Storage = .file(".deltasync/deltasync.sqlite")
    /// How long changes stay in the delta log (AppSync's `DeltaSyncTableTTL`, Amplify default
    /// 30 minutes). A sync whose `lastSync` is older reads the base table instead.
    public var deltaTTL: Duration = .seconds(30 * 60)
    /// How long tombstones stay (AppSync's `BaseTableTTL`, Amplify default 30 days).
    public var tombstoneTTL: Duration = .seconds(30 * 24 * 3600)
    /// How often expired deltas and tombstones are purged in the background.
    public var purgeInterval: Duration = .seconds(60)
    /// How often the server looks whether to hand heap memory it freed back to the system: it
    /// does when its resident size is 32 MB above the lowest it has been and either piled up
    /// since its last trim or that trim is 5 s old (Linux: glibc keeps what a large request
    /// freed, and the resident size stays near the request's peak); `nil` leaves it to the
    /// allocator. Default every 2 seconds.
    public var freedMemoryReturn: Duration? = .seconds(2)

    // MARK: - Conflicts

    /// Replaces the project's conflict handlers (from `transform.conf.json`) for every model.
    public var conflictHandler: ConflictHandlerKind?
    /// The custom conflict handler models with `LAMBDA` call: a Swift closure (tests, embedding)
    /// or ``LambdaConflictHandlers/http(url:timeout:)`` for a local wrapper of a Lambda function.
    public var lambdaConflictHandler: LambdaConflictHandler?
    /// The function (of ``functions``, ``functionsFile`` or the Amplify project) models with
    /// `LAMBDA` call to decide a conflict, when ``lambdaConflictHandler`` is `nil`: it gets
    /// AppSync's conflict payload as its event and answers `{"action": "RESOLVE", "item": …}`,
    /// `REJECT` or `REMOVE`. Default `nil`: none.
    public var conflictHandlerFunction: String?

    // MARK: - Resolvers

    /// The project's own resolvers (VTL templates over data sources, unit or pipeline), each
    /// in place of what the schema generates for its field; every other field keeps DeltaSync's
    /// generated resolver. Templates are parsed when the server is created. Default: none.
    ///
    /// ```swift
    /// configuration.dataSources = [DataSourceDefinition(name: "Clock", kind: .none)]
    /// configuration.resolvers = [ResolverDefinition(
    ///     type: "Query", field: "now",
    ///     kind: .unit(dataSource: "Clock", request: #"{"version": "2018-05-29", "payload": {}}"#,
    ///                 response: "$util.toJson($util.time.nowISO8601())"))]
    /// ```
    public var resolvers: [ResolverDefinition] = []
    /// The data sources ``resolvers`` name, besides `NONE`, which every API has. Default: none.
    public var dataSources: [DataSourceDefinition] = []
    /// The API's environment variables, `$ctx.env` in templates: at most 50, names of a letter
    /// then letters, digits or `_` (two characters at least), values up to 512 characters, as
    /// AppSync allows. Default: none.
    public var resolverEnvironment: [String: String] = [:]
    /// Functions in the slots of generated fields' pipelines (Amplify Gen 1's
    /// `Type.field.slot.N.req.vtl` files), run around DeltaSync's generated data step with one
    /// shared context; the stash keys the generated steps honour are in docs/compatibility.md.
    /// Default: none.
    ///
    /// ```swift
    /// configuration.slots = [SlotFunctionDefinition(
    ///     type: "Mutation", field: "createTodo", slot: .preAuth, position: 1,
    ///     request: TemplateText(name: "Mutation.createTodo.preAuth.1.req.vtl",
    ///                           text: #"$util.qr($ctx.stash.put("defaultValues", {"priority": 3})) {}"#),
    ///     response: nil)]
    /// ```
    public var slots: [SlotFunctionDefinition] = []
    /// Replacements for generated fields' data steps (`Query.getTodo.req.vtl`,
    /// `Query.getTodo.res.vtl`). Default: none.
    public var overrides: [DataStepOverride] = []

    // MARK: - Functions

    /// Functions `@function` fields call, by name, ahead of ``functionsFile`` and the Amplify
    /// project's own: Swift closures (``ClosureFunction``), endpoints (``HTTPFunction``) or
    /// processes (``LocalProcessFunction``). The name is the function's without `-${env}`
    /// (`echo` serves `@function(name: "echo-${env}")`), or as the schema writes it.
    ///
    /// ```swift
    /// configuration.functions["echo"] = ClosureFunction { invocation in
    ///     ["text": invocation.event["arguments"]["msg"]]
    /// }
    /// ```
    public var functions: [String: any LambdaFunction] = [:]
    /// A `functions.json` naming endpoints, commands and handlers (``FunctionsFile``); read
    /// when the server is created. Default `nil`: none.
    public var functionsFile: String?
    /// An Amplify Gen 1 project's root (the folder holding `amplify/`): each
    /// `amplify/backend/function/<name>/src` runs as a local Node or Python handler. Default
    /// `nil`: none.
    public var amplifyProjectRoot: String?
    /// `${env}` in function names and `@http` URLs. `nil` (the default) reads the project's
    /// `amplify/.config/local-env-info.json`, else `NONE`, which drops the `-${env}` suffix as
    /// Amplify does.
    public var amplifyEnvironment: String?
    /// The API's AWS region: the region SigV4 (`AWS_IAM`) credential scopes must name, as
    /// AppSync accepts only its own; `AWS_REGION` for functions and `${aws_region}` in `@http`
    /// URLs. Default `us-east-1` (`--region`).
    public var region = "us-east-1"
    /// How long a function may run when its own configuration does not say. Default 30 s,
    /// AppSync's limit for a request.
    public var functionTimeout: Duration = .seconds(30)

    // MARK: - Realtime

    /// The realtime WebSocket endpoint's limits and timers (AppSync's by default).
    public var realtime = RealtimeConfiguration()

    // MARK: - Limits

    /// Bounds on a GraphQL document (nesting, definitions, variables, directives), checked
    /// before it is parsed or validated, for HTTP and realtime alike.
    public var documentLimits = DocumentLimits()
    /// Bounds on running a request: resolvers, items read, response size and time.
    public var executionLimits = ExecutionLimits()
    /// How large a `filter` or `condition` input may be (nesting and conditions).
    public var filterLimits = FilterLimits()
    /// The most items one page of a list, index or sync query returns, whatever `limit` asks:
    /// DynamoDB ends a page at 1 MB, so AppSync never returns every item at once. The rest
    /// follows through `nextToken`. Default 1,000.
    public var maxPageSize = 1000

    // MARK: - Authorization

    /// The API's authorization modes. `nil` (the default): API key, plus every mode the
    /// schema's `@auth` rules name as additional modes, so a schema works with no setup.
    public var authModes: APIAuthModes?
    /// More API keys besides ``apiKey``, each with its expiry.
    public var apiKeys: [APIKey] = []
    /// User pools and OIDC providers whose tokens are accepted (besides development tokens).
    public var tokenProviders: [TokenProvider] = []
    /// Accept tokens of the development issuer (`deltasync token`) for user pools and OIDC,
    /// and serve its keys at `/.well-known/jwks.json`: `true` or `false` (`--dev-tokens`,
    /// `--no-dev-tokens`). Default `nil`: accepted only while ``tokenProviders`` is empty, so a
    /// server given a real user pool or OIDC provider accepts that provider's tokens alone.
    /// When on beside a provider, development tokens must pass that provider's client-id pattern.
    public var developmentTokens: Bool?
    /// Whether development tokens are accepted: ``developmentTokens``, else `true` only without
    /// ``tokenProviders``. Setting it sets ``developmentTokens``.
    public var acceptsDevelopmentTokens: Bool {
        get { developmentTokens ?? tokenProviders.isEmpty }
        set { developmentTokens = newValue }
    }
    /// The server's data folder: the development issuer's key is kept here.
    public var dataDirectory = ".deltasync"
    /// Access keys accepted for `AWS_IAM` (SigV4), each with its identity pool role.
    public var iamCredentials: [IAMCredential] = []
    /// More authenticators: Lambda authorizers, or a test's own.
    public var authenticators: [any Authenticator] = []

    /// A field rule of the embedder's, asked on every response path after the schema's `@auth`
    /// rules, for every caller but the fixture API's own writes; `nil` (the default) adds none.
    package var fieldAuthorization: (any FieldAuthorization)?

    // MARK: - Operations

    /// Serve Prometheus metrics at `/metrics` (requests, latency, conflicts, sync pages,
    /// realtime connections and events). Default `true`.
    public var metrics = true
    /// The token `/metrics` callers send as `Authorization: Bearer TOKEN` (`--metrics-token`).
    /// `nil` (the default) answers callers on a loopback address only.
    public var metricsToken: String?

    // MARK: - Fixture API

    /// Serve the fixture API under `/admin/` (reset, seed, snapshots, clock, faults,
    /// connections, request log) and the console's inspector. Default `true`: a local and CI
    /// server is a fixture. Turn it off on a shared staging server (`--no-admin`).
    public var fixtureAPI = true
    /// The key `/admin/` requests send in `x-deltasync-admin-key`; never the API key. `nil`
    /// generates one at start (``DeltaSyncServer/adminKey``).
    public var adminKey: String?

    // MARK: - Testing

    /// The time the server's ``FixtureClock`` runs on. Tests replace it to cross the delta TTL
    /// without waiting (or use ``DeltaSyncServer/fixture``'s clock).
    public var clock: @Sendable () -> Date = { Date() }

    public init() {}
}
