import Foundation
import NIOSSL
import PostgresNIO

/// Where a ``PostgresItemStore`` connects and how, read from one URL:
///
///     postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE?sslmode=disable|prefer|require&pool=16&schema=NAME
///
/// `postgresql://` is accepted too. `sslmode` defaults to `prefer`, `pool` (the most connections
/// the store opens, and the threads its transaction bodies run on) to 16, `schema` (the
/// PostgreSQL schema the store's tables live in, created if missing) to `public`,
/// `connect_timeout` (seconds) to 10.
///
/// ```swift
/// let settings = try PostgresStoreSettings(url: "postgres://app:secret@db:5432/app?schema=tenant1")
/// let store = try await PostgresItemStore.connect(settings: settings, schema: schema)
/// ```
public struct PostgresStoreSettings: Sendable, Equatable {
    public enum TLSMode: String, Sendable, Equatable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The most connections the store holds at once (and the threads its bodies run on).
    public var poolSize: Int
    /// The PostgreSQL schema (namespace) of the store's tables.
    public var schema: String
    /// How long connecting may take before it fails, in seconds.
    public var connectTimeout: Int

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .prefer, poolSize: Int = 16, schema: String = "public", connectTimeout: Int = 10
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.poolSize = poolSize
        self.schema = schema
        self.connectTimeout = connectTimeout
    }

    static let example = "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE?sslmode=prefer&pool=16&schema=public"

    /// Reads the settings from a `postgres://` URL.
    ///
    /// - Throws: ``PostgresStoreSettingsError`` saying what is wrong and what to write instead.
    public init(url text: String) throws {
        func fail(_ problem: String) -> PostgresStoreSettingsError {
            PostgresStoreSettingsError(message: "\(problem) Write the database URL as \(Self.example).")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw fail("'\(Self.redacted(text))' is not a URL.")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw fail("The database URL starts with '\(scheme)://'; a PostgreSQL URL starts with 'postgres://'.")
        }
        guard let host = components.host, !host.isEmpty else {
            throw fail("The database URL names no host.")
        }
        guard let user = components.user, !user.isEmpty else {
            throw fail("The database URL names no user.")
        }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/") else {
            throw fail("The database URL names no database (the path after the host).")
        }
        self.init(
            host: host, port: components.port ?? 5432,
            username: components.user?.removingPercentEncoding ?? user,
            password: components.password?.removingPercentEncoding ?? components.password,
            database: database.removingPercentEncoding ?? database)
        for item in components.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = TLSMode(rawValue: value) else {
                    throw fail("sslmode '\(value)' is not one of disable, prefer, require.")
                }
                tls = mode
            case "pool":
                guard let size = Int(value), (1...1000).contains(size) else {
                    throw fail("pool '\(value)' is not a number of connections from 1 to 1000.")
                }
                poolSize = size
            case "schema":
                guard !value.isEmpty, value.utf8.count <= 63, !value.contains("\u{0}") else {
                    throw fail("schema '\(value)' is not a PostgreSQL schema name (1 to 63 bytes).")
                }
                schema = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 1 else {
                    throw fail("connect_timeout '\(value)' is not a whole number of seconds, at least 1.")
                }
                connectTimeout = seconds
            default:
                throw fail("The database URL has an unknown setting '\(item.name)'; known: sslmode, pool, schema, connect_timeout.")
            }
        }
    }

    /// The URL with its password hidden, for messages.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}

/// A database URL that ``PostgresStoreSettings/init(url:)`` cannot read.
public struct PostgresStoreSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what to write instead.
    public var message: String

    public var description: String { message }
}

extension PostgresStoreSettings {
    /// What one connection of its own is made with (the pool has its own configuration type).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
        switch tls {
        case .disable: break
        case .prefer: configuration.tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: configuration.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        configuration.options.connectTimeout = .seconds(Int64(connectTimeout))
        return configuration
    }
}
