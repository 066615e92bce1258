import DeltaSyncCore
import Logging
import NIOCore
import PostgresNIO

/// SQL text and the values bound to it, built together: ``bind(_:)`` appends a value and returns
/// its placeholder (`$n`), so values never enter the SQL text. Placeholders are numbered, so
/// fragments may be spliced in any order.
struct SQLBuilder {
    var binds = PostgresBindings()
    private var count = 0

    /// Appends `value` to the bindings; returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        count += 1
        return "$\(count)"
    }

    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        count += 1
        return "$\(count)"
    }

    func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: binds)
    }
}

enum PostgresSQL {
    /// `"name"`, with `"` doubled: an identifier spliced into SQL.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `'text'`, with `'` doubled: only for schema field names inside expressions that must
    /// read the same in every statement (so that PostgreSQL matches them with an index's).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// An index name PostgreSQL keeps whole: names past 63 bytes are cut short by the server,
    /// which could make two of them one; those get a hash of the full name instead.
    static func indexName(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        let prefix = String(decoding: name.utf8.prefix(40), as: UTF8.self).replacingOccurrences(of: "\u{FFFD}", with: "")
        return prefix + "_" + String(UInt64(bitPattern: lockKey(name)), radix: 16)
    }

    /// A stable 64-bit FNV-1a hash of `text`: advisory lock keys, which must be the same in
    /// every process (Swift's `Hasher` is seeded per process).
    static func lockKey(_ text: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// An error from PostgreSQL as the caller sees it: what the store was doing and what the
    /// server said, as an ``AppSyncError`` (`InternalFailure`). Other errors pass through.
    ///
    /// A lost or refused connection, or a server shutting down, is `ServiceUnavailableException`
    /// instead: the request may succeed once the database is back.
    static func wrap(_ error: any Error, _ purpose: String) -> any Error {
        guard let error = error as? PSQLError else { return error }
        if isConnectionLoss(error) {
            return AppSyncError(
                .serviceUnavailable,
                "PostgreSQL could not \(purpose): \(describe(error)). DeltaSync reconnects when the database is back; retry then.")
        }
        return AppSyncError(.internalFailure, "PostgreSQL could not \(purpose): \(describe(error)).")
    }

    /// What went wrong, in a few words: PostgreSQL's message, or the connection problem.
    static func cause(of error: any Error) -> String {
        if let error = error as? PSQLError { return describe(error) }
        if let error = error as? AppSyncError { return error.message }
        return "\(error)"
    }

    /// Whether the error says the connection is gone or the server is going away, rather than
    /// that the statement failed.
    static func isConnectionLoss(_ error: PSQLError) -> Bool {
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown, .poolClosed: return true
        case .server:
            // Class 08 (connection exception), 57P01-57P03 (admin or crash shutdown, cannot
            // connect now), 53300 (too many connections).
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
        default: return false
        }
    }

    /// The server's message and SQLSTATE, or the connection problem.
    static func describe(_ error: PSQLError) -> String {
        if let message = error.serverInfo?[.message] {
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            let detail = error.serverInfo?[.detail].map { "; \($0)" } ?? ""
            return message + detail + state
        }
        if let underlying = error.underlying { return "\(error.code): \(underlying)" }
        return "\(error.code)"
    }
}

/// One leased connection, used from a thread of the store's `NIOThreadPool`: each statement
/// blocks the thread until PostgreSQL answers (`EventLoopFuture.wait()`), which is allowed there
/// because the thread is neither an event loop nor one of Swift concurrency's.
struct BlockingSession: Sendable {
    let connection: PostgresConnection
    let logger: Logger

    /// Runs one statement; returns its rows (all of them: pages are bounded by their limit).
    @discardableResult
    func run(_ purpose: String, _ sql: String, _ builder: SQLBuilder = SQLBuilder()) throws -> PostgresQueryResult {
        do {
            return try connection.query(builder.query(sql), logger: logger).wait()
        } catch {
            throw PostgresSQL.wrap(error, purpose)
        }
    }

    /// The first column of the first row as `T`, or `nil` when there is no row or it is NULL.
    func value<T: PostgresDecodable>(_ type: T.Type, _ purpose: String, _ sql: String, _ builder: SQLBuilder = SQLBuilder()) throws -> T? {
        let result = try run(purpose, sql, builder)
        guard let row = result.rows.first else { return nil }
        return try row.column(0, T.self)
    }
}

extension PostgresRow {
    /// Column `index` as `T` (`nil` for NULL), as an ``AppSyncError`` when it does not decode.
    func column<T: PostgresDecodable>(_ index: Int, _ type: T.Type) throws -> T? {
        let cell = makeRandomAccess()[index]
        guard cell.bytes != nil else { return nil }
        do {
            return try cell.decode(T.self, context: .default)
        } catch {
            throw AppSyncError(.internalFailure, "A PostgreSQL row holds a value DeltaSync cannot read in column \(index): \(error).")
        }
    }
}
