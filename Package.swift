// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "DeltaSync",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "deltasync", targets: ["DeltaSyncCLI"]),
        .library(name: "DeltaSyncServer", targets: ["DeltaSyncServer"]),
        // The item store contract (`ItemStore`, `SyncLog`, `InstanceChannel`): what
        // `DeltaSyncServer.itemStore` hands out, and what every store implements. No SQLite.
        .library(name: "DeltaSyncStorage", targets: ["DeltaSyncStorage"]),
        // The embedded store: `SQLiteItemStore` (GRDB), the contract re-exported with it.
        .library(name: "DeltaSyncSQLiteStore", targets: ["DeltaSyncSQLiteStore"]),
        // For apps' own tests against DeltaSync from Swift: an in-process server on a free
        // port, a network relay that goes offline, a realtime test client, event waiters.
        .library(name: "DeltaSyncTesting", targets: ["DeltaSyncTesting"]),
        .library(name: "DeltaSyncSchema", targets: ["DeltaSyncSchema"]),
        .library(name: "DeltaSyncCore", targets: ["DeltaSyncCore"]),
        // The offline store alone: generated models, queries, observation, the outbox. No
        // networking and no GraphQL parser.
        .library(name: "DeltaSyncLocalStore", targets: ["DeltaSyncLocalStore"]),
        // The local store kept in step with an AppSync (or `deltasync serve`) backend.
        .library(name: "DeltaSyncClient", targets: ["DeltaSyncClient"]),
        .library(name: "DeltaSyncCodegen", targets: ["DeltaSyncCodegen"]),
        .executable(name: "deltasync-codegen", targets: ["deltasync-codegen"]),
        .plugin(name: "DeltaSyncModels", targets: ["DeltaSyncModels"]),
    ],
    // An app that depends on this package for the client (`traits: []`) resolves only what the
    // client links: GRDB, swift-crypto, swift-log, and GraphQL for the model generator. The
    // server's packages, and the client's NIO networking for Linux, come with these traits;
    // `Server` is on by default, so `swift run deltasync` and `swift test` need no flag here.
    traits: [
        .trait(name: "NIOTransport", description: "The client's SwiftNIO networking (AsyncHTTPClient, a NIO WebSocket): what the client syncs with on Linux, whose Foundation has no WebSocket. Apple platforms use URLSession without it."),
        .trait(name: "Server", description: "The server (`deltasync`), its storage, the testing module and the benchmarks.", enabledTraits: ["NIOTransport"]),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        // Pinned to the minor version whose internals `GraphQLLibraryHooks` relies on.
        .package(url: "https://github.com/GraphQLSwift/GraphQL", .upToNextMinor(from: "4.3.0")),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Shared core: JSON values, AppSync errors, filter predicates. No I/O.
        .target(
            name: "DeltaSyncCore",
            path: "Sources/DeltaSyncCore"
        ),
        // The description of a schema's models (`ModelSchema`, fields, keys, indexes, relations):
        // what the parser produces and generated client models embed. No parser.
        .target(
            name: "DeltaSyncModelSchema",
            dependencies: ["DeltaSyncCore"],
            path: "Sources/DeltaSyncModelSchema"
        ),
        // Amplify schema parser and the AppSync transform.
        .target(
            name: "DeltaSyncSchema",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncModelSchema",
                .product(name: "GraphQL", package: "GraphQL"),
            ],
            path: "Sources/DeltaSyncSchema"
        ),
        // A model's SQLite table and predicates compiled to SQL: the server's store and the
        // client's local store use the same layout.
        .target(
            name: "DeltaSyncSQLite",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncModelSchema",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
            ],
            path: "Sources/DeltaSyncSQLite"
        ),
        // The offline-first DataStore for apps: generated models, a local SQLite store, the
        // outbox. Builds for Apple platforms: no Linux-only API. Links no networking and no
        // GraphQL library (`scripts/check-local-store-links.sh`).
        .target(
            name: "DeltaSyncLocalStore",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncModelSchema",
                "DeltaSyncSQLite",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
            ],
            path: "Client/DeltaSyncLocalStore"
        ),
        // Sync on top of the local store: base and delta sync, the outbox sent, realtime.
        .target(
            name: "DeltaSyncClient",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncModelSchema",
                "DeltaSyncLocalStore",
                "DeltaSyncSQLite",
                "DeltaSyncSigV4",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["NIOTransport"])),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: .when(traits: ["NIOTransport"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["NIOTransport"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIOTransport"])),
            ],
            path: "Client/DeltaSyncClient"
        ),
        // Swift models for DeltaSyncClient generated from an Amplify schema.
        .target(
            name: "DeltaSyncCodegen",
            dependencies: ["DeltaSyncCore", "DeltaSyncSchema"],
            path: "Client/DeltaSyncCodegen"
        ),
        // The generator alone, for the build tool plugin: building it does not build the server.
        // Named as its product: SwiftPM cannot give a plugin an executable target whose product
        // has another name (swiftlang/swift-package-manager#8831).
        .executableTarget(
            name: "deltasync-codegen",
            dependencies: ["DeltaSyncCodegen", "DeltaSyncSchema"],
            path: "Client/DeltaSyncCodegenTool"
        ),
        // Generates the models of a target's schema.graphql at build time.
        .plugin(
            name: "DeltaSyncModels",
            capability: .buildTool(),
            dependencies: ["deltasync-codegen"],
            path: "Client/Plugins/DeltaSyncModels"
        ),
        // sqlite3_db_config() calls (variadic, so not callable from Swift) for the storage layer.
        .target(
            name: "DeltaSyncSQLiteConfig",
            dependencies: [
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
            ],
            path: "Backend/DeltaSyncSQLiteConfig"
        ),
        // The item store contract: items, the sync log, instance channels, behind protocols
        // each store implements. No database library, never imports HTTP.
        .target(
            name: "DeltaSyncStorage",
            dependencies: ["DeltaSyncCore", "DeltaSyncSchema"],
            path: "Backend/DeltaSyncStorage"
        ),
        // The item store in one SQLite database (GRDB): the embedded default, beside the
        // contract as DeltaSyncPostgres is.
        .target(
            name: "DeltaSyncSQLiteStore",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncSchema",
                "DeltaSyncSQLite",
                "DeltaSyncSQLiteConfig",
                "DeltaSyncStorage",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift", condition: .when(platforms: [.linux])),
            ],
            path: "Backend/DeltaSyncSQLiteStore"
        ),
        // The AppSync API of a schema: the executable schema, resolvers, response plans and
        // projection, AppSync's error shapes, conflict handlers, mutation events. No HTTP.
        // AWS Signature Version 4 for AppSync requests: the server verifies with it, the client
        // signs with it.
        .target(
            name: "DeltaSyncSigV4",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/DeltaSyncSigV4"
        ),
        // Authentication: who a request's credentials name, for every AppSync mode (API keys,
        // user pools and OIDC tokens checked with jwt-kit, Lambda, IAM), and the development
        // issuer. No HTTP server, no GraphQL.
        .target(
            name: "DeltaSyncAuth",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncModelSchema",
                "DeltaSyncSigV4",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncAuth"
        ),
        // The item store on PostgreSQL (postgres-nio): what several server processes share.
        .target(
            name: "DeltaSyncPostgres",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncSchema",
                "DeltaSyncStorage",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Server"])),
                .product(name: "DequeModule", package: "swift-collections", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncPostgres"
        ),
        // Lambda functions run locally for `@function` fields: one contract (`LambdaFunction`)
        // with an HTTP endpoint, a warm local process (Node or Python handlers, any command) and
        // a Swift closure behind it, and the catalog that names them. No GraphQL.
        // AppSync's Velocity templates: parser, evaluator, Java methods and `$util`. No GraphQL.
        .target(
            name: "DeltaSyncVTL",
            dependencies: [
                "DeltaSyncCore",
                .product(name: "OrderedCollections", package: "swift-collections", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncVTL"
        ),
        // DynamoDB's language over plain items: typed values; condition, key, update, projection expressions.
        .target(name: "DeltaSyncDynamoDB", dependencies: ["DeltaSyncCore"], path: "Backend/DeltaSyncDynamoDB"),
        // An Amplify Gen 1 API folder's resolver files (slots, overrides, custom stacks) read
        // into the resolver model's definitions, with what does not run said file by file.
        .target(
            name: "DeltaSyncResolverFiles",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncGraphQL",
                "DeltaSyncSchema",
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncResolverFiles"
        ),
        .target(
            name: "DeltaSyncFunctions",
            dependencies: [
                "DeltaSyncCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncFunctions"
        ),
        // APPSYNC_JS resolver code run in warm `node` workers (the functions' process pool), with
        // DeltaSync's `@aws-appsync/utils` embedded as Swift strings (scripts/embed-js-runtime.py).
        // No GraphQL.
        .target(
            name: "DeltaSyncJSRuntime",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncFunctions",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncJSRuntime",
            exclude: ["JavaScript"]
        ),
        .target(
            name: "DeltaSyncGraphQL",
            dependencies: [
                "DeltaSyncAuth",
                "DeltaSyncCore",
                "DeltaSyncFunctions",
                "DeltaSyncJSRuntime",
                "DeltaSyncSchema",
                "DeltaSyncDynamoDB",
                "DeltaSyncStorage",
                "DeltaSyncVTL",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "OrderedCollections", package: "swift-collections", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncGraphQL"
        ),
        // AppSync's realtime WebSocket protocol over a connection: subscriptions, events to
        // subscribers, keep-alive and limits. No GraphQL syntax: the GraphQL layer plans each
        // subscription (`SubscriptionPlan`).
        .target(
            name: "DeltaSyncRealtime",
            dependencies: [
                "DeltaSyncAuth",
                "DeltaSyncCore",
                "DeltaSyncGraphQL",
                "DeltaSyncStorage",
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncRealtime"
        ),
        // The server: configuration, the HTTP port (connection gate, routes) and the composition
        // of the GraphQL layer, realtime and the store.
        .target(
            name: "DeltaSyncServer",
            dependencies: [
                "DeltaSyncConsole",
                "DeltaSyncFixture",
                "DeltaSyncAuth",
                "DeltaSyncCore",
                "DeltaSyncFunctions",
                "DeltaSyncJSRuntime",
                "DeltaSyncSchema",
                "DeltaSyncSQLiteStore",
                "DeltaSyncStorage",
                "DeltaSyncGraphQL",
                "DeltaSyncRealtime",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTLS", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Metrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Server"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Server"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncServer"
        ),
        // The fixture API: what a test suite controls on a server (data, snapshots, clock, faults)
        // and its `/admin/` routes. No server types: the server hosts it through `FixtureHost`.
        .target(
            name: "DeltaSyncFixture",
            dependencies: [
                "DeltaSyncAuth",
                "DeltaSyncCore",
                "DeltaSyncGraphQL",
                "DeltaSyncSchema",
                "DeltaSyncStorage",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncFixture"
        ),
        // The browser console (a GraphQL explorer and a sync inspector over the fixture API) as
        // routes any Hummingbird router can serve: one page compiled in, no resource files.
        .target(
            name: "DeltaSyncConsole",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncConsole",
            exclude: ["console.html"]
        ),
        // The testing product: what the project's own tests use to run a server and disturb
        // the network, for apps that test against DeltaSync.
        .target(
            name: "DeltaSyncTesting",
            dependencies: [
                "DeltaSyncAuth",
                "DeltaSyncClient",
                "DeltaSyncCore",
                "DeltaSyncFixture",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                "DeltaSyncSQLiteStore",
                "DeltaSyncStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "Yams", package: "Yams", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncTesting"
        ),
        .executableTarget(
            name: "DeltaSyncCLI",
            dependencies: [
                "DeltaSyncCore",
                "DeltaSyncPostgres",
                "DeltaSyncFunctions",
                "DeltaSyncServer",
                "DeltaSyncSchema",
                "DeltaSyncCodegen",
                "DeltaSyncResolverFiles",
                "DeltaSyncTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["Server"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Backend/DeltaSyncCLI"
        ),
        .target(
            name: "BenchmarkSupport",
            path: "Benchmarks/BenchmarkSupport"
        ),
        .executableTarget(
            name: "ServerCreateBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncCore",
                "DeltaSyncServer",
                "DeltaSyncSQLiteStore",
                "DeltaSyncStorage",
                "DeltaSyncSchema",
                "DeltaSyncPostgres",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/ServerCreateBenchmark"
        ),
        .executableTarget(
            name: "SyncBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncAuth",
                "DeltaSyncServer",
                "DeltaSyncStorage",
                "DeltaSyncSchema",
                "DeltaSyncCore",
                "DeltaSyncPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/SyncBenchmark"
        ),
        .executableTarget(
            name: "RealtimeBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/RealtimeBenchmark",
            exclude: ["owners.graphql"]
        ),
        .executableTarget(
            name: "AuthBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncCore",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/AuthBenchmark",
            exclude: ["schema.graphql"]
        ),
        .executableTarget(
            name: "FunctionBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncCore",
                "DeltaSyncFunctions",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/FunctionBenchmark"
        ),
        .executableTarget(
            name: "ResolverBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncCore",
                "DeltaSyncJSRuntime",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                "DeltaSyncVTL",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/ResolverBenchmark"
        ),
        .executableTarget(
            name: "SlotBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncCore",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/SlotBenchmark"
        ),
        .executableTarget(
            name: "FixtureBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncCore",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                "DeltaSyncSQLiteStore",
                "DeltaSyncStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/FixtureBenchmark"
        ),
        .executableTarget(
            name: "ClientBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncClient",
                "DeltaSyncLocalStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Benchmarks/ClientBenchmark",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        .executableTarget(
            name: "SimulationBenchmark",
            dependencies: ["BenchmarkSupport", "DeltaSyncCore", "DeltaSyncSchema", "DeltaSyncTesting"],
            path: "Benchmarks/SimulationBenchmark"
        ),
        .executableTarget(
            name: "ColdSyncBenchmark",
            dependencies: [
                "BenchmarkSupport",
                "DeltaSyncClient",
                "DeltaSyncLocalStore",
                "DeltaSyncSchema",
                "DeltaSyncServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Benchmarks/ColdSyncBenchmark",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        .executableTarget(
            name: "JSONBenchmark",
            dependencies: ["BenchmarkSupport", "DeltaSyncCore"],
            path: "Benchmarks/JSONBenchmark"
        ),
        // A local-only app on the store product alone; `scripts/check-local-store-links.sh`
        // checks that its binary links no networking and no GraphQL library.
        .executableTarget(
            name: "LocalOnlyNotes",
            dependencies: ["DeltaSyncLocalStore"],
            path: "Examples/LocalOnly",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // The Todos example's state and actions (and its SwiftUI view on Apple platforms); its
        // app entry point, Examples/Todos/App, goes into an Xcode app target.
        .target(
            name: "TodosModel",
            dependencies: ["DeltaSyncClient"],
            path: "Examples/Todos/Sources/TodosModel",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // The Todos example headless, as the test command runs it: two devices on an
        // in-process server, each seeing the other's changes through its live query.
        .executableTarget(
            name: "TodosHeadless",
            dependencies: ["TodosModel", "DeltaSyncClient", "DeltaSyncTesting"],
            path: "Examples/Todos/Sources/TodosHeadless"
        ),
        // What several test targets share: a seeded random generator for replayable runs.
        .target(
            name: "DeltaSyncTestSupport",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/DeltaSyncTestSupport"
        ),
        // A throw-away PostgreSQL cluster (or DELTASYNC_POSTGRES_URL) for the suites that run
        // against the PostgreSQL store.
        .target(
            name: "DeltaSyncPostgresTestSupport",
            dependencies: ["DeltaSyncPostgres", "DeltaSyncSchema"],
            path: "Tests/DeltaSyncPostgresTestSupport"
        ),
        .testTarget(
            name: "DeltaSyncCoreTests",
            dependencies: ["DeltaSyncCore", "DeltaSyncTestSupport"],
            path: "Tests/DeltaSyncCoreTests"
        ),
        .testTarget(
            name: "DeltaSyncVTLTests",
            dependencies: ["DeltaSyncVTL", "DeltaSyncCore"],
            path: "Tests/DeltaSyncVTLTests"
        ),
        .testTarget(
            name: "DeltaSyncDynamoDBTests",
            dependencies: ["DeltaSyncDynamoDB", "DeltaSyncCore"],
            path: "Tests/DeltaSyncDynamoDBTests"
        ),
        // DeltaSync's `@aws-appsync/utils` against AppSync's documented outputs, and the start-time
        // checks of resolver code; needs `node`.
        .testTarget(
            name: "DeltaSyncJSRuntimeTests",
            dependencies: [
                "DeltaSyncJSRuntime", "DeltaSyncCore", "DeltaSyncFunctions",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/DeltaSyncJSRuntimeTests"
        ),
        .testTarget(
            name: "DeltaSyncFunctionsTests",
            dependencies: [
                "DeltaSyncFunctions", "DeltaSyncCore", "DeltaSyncTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/DeltaSyncFunctionsTests"
        ),
        .testTarget(
            name: "DeltaSyncSchemaTests",
            dependencies: ["DeltaSyncCore", "DeltaSyncSchema", .product(name: "GraphQL", package: "GraphQL")],
            path: "Tests/DeltaSyncSchemaTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "DeltaSyncCodegenTests",
            dependencies: ["DeltaSyncCodegen", "DeltaSyncSchema"],
            path: "Tests/DeltaSyncCodegenTests"
        ),
        // The client syncing with a real server started in-process.
        .testTarget(
            name: "DeltaSyncEndToEndTests",
            dependencies: [
                "DeltaSyncClient", "DeltaSyncLocalStore", "DeltaSyncSchema", "DeltaSyncServer", "DeltaSyncCore", "DeltaSyncTesting",
                "DeltaSyncTestSupport", "DeltaSyncPostgres", "DeltaSyncPostgresTestSupport", "DeltaSyncStorage",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/DeltaSyncEndToEndTests",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // Signed-in devices against `@auth` rules: owner-scoped sync and realtime, with the
        // server's development tokens.
        .testTarget(
            name: "DeltaSyncAuthEndToEndTests",
            dependencies: ["DeltaSyncClient", "DeltaSyncServer", "DeltaSyncTesting"],
            path: "Tests/DeltaSyncAuthEndToEndTests",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // Models generated from a schema whose names clash with generated code's own.
        .testTarget(
            name: "DeltaSyncNamingTests",
            dependencies: ["DeltaSyncLocalStore", "DeltaSyncSchema"],
            path: "Tests/DeltaSyncNamingTests",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // Every ```swift example of the client's doc comments and DocC articles, compiled
        // (generated by scripts/check-doc-examples.py over the example blog schema's models).
        .testTarget(
            name: "DeltaSyncDocExamplesTests",
            dependencies: ["DeltaSyncClient", "DeltaSyncLocalStore", "DeltaSyncSchema", "DeltaSyncServer", "DeltaSyncTesting"],
            path: "Tests/DeltaSyncDocExamplesTests",
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // ModelTable against GRDB's own reading and writing, on both layouts.
        .testTarget(
            name: "DeltaSyncSQLiteTests",
            dependencies: [
                "DeltaSyncSQLite", "DeltaSyncCore", "DeltaSyncSchema", "DeltaSyncTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/DeltaSyncSQLiteTests"
        ),
        .testTarget(
            name: "DeltaSyncClientTests",
            dependencies: [
                "DeltaSyncClient", "DeltaSyncLocalStore", "DeltaSyncSchema", "DeltaSyncCore", "DeltaSyncTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/DeltaSyncClientTests",
            resources: [.copy("Fixtures")],
            plugins: [.plugin(name: "DeltaSyncModels")]
        ),
        // The ItemStore contract, run against every store (SQLite, and PostgreSQL on a throw-away
        // cluster, scripts/postgres-cluster.sh), and what each store has of its own.
        .testTarget(
            name: "DeltaSyncStorageTests",
            dependencies: [
                "DeltaSyncStorage", "DeltaSyncSQLiteStore", "DeltaSyncPostgres", "DeltaSyncSchema", "DeltaSyncCore", "DeltaSyncTestSupport",
                "DeltaSyncPostgresTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/DeltaSyncStorageTests"
        ),
        .testTarget(
            name: "DeltaSyncServerTests",
            dependencies: [
                "DeltaSyncServer",
                "DeltaSyncAuth",
                "DeltaSyncCore",
                "DeltaSyncFunctions",
                "DeltaSyncGraphQL",
                "DeltaSyncPostgres",
                "DeltaSyncPostgresTestSupport",
                "DeltaSyncRealtime",
                "DeltaSyncResolverFiles",
                "DeltaSyncSchema",
                "DeltaSyncSigV4",
                "DeltaSyncSQLiteStore",
                "DeltaSyncStorage",
                "DeltaSyncTesting",
                "DeltaSyncTestSupport",
                .product(name: "GraphQL", package: "GraphQL"),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket", condition: .when(traits: ["Server"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Server"])),
                // To change a server's database behind its back, as another process could.
                .product(name: "GRDB", package: "GRDB.swift"),
                // Development certificates checked with the library that made them, served with NIOSSL.
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Server"])),
            ],
            path: "Tests/DeltaSyncServerTests"
        ),
    ]
)
