import DeltaSyncPostgres
import DeltaSyncPostgresTestSupport
import DeltaSyncSQLiteStore
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

/// The stores the `ItemStore` contract runs against. A contract test takes the kind as its
/// argument (`@Test(arguments: StoreKind.allCases)`) and opens a fresh store of it; where the
/// stores legitimately differ, the test asserts per kind.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A fresh, empty store of this kind for `models`, shut down after `body`: SQLite in
    /// memory, PostgreSQL on a schema of its own on the tests' cluster. A body whose only `try`
    /// is inside `#expect` says `{ store throws in }`: a macro's `try` does not make a closure throw.
    func withStore(_ models: ModelSchema..., body: (any ItemStore) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await body(SQLiteItemStore(location: .inMemory, schema: Fixtures.schema(models)))
        case .postgres:
            try await place().withStore(models, body)
        }
    }

    /// A place of this kind for one test's data: stores opened on it one after another see what
    /// the previous ones left.
    func place() throws -> StorePlace {
        try StorePlace(kind: self)
    }
}

/// Where one test keeps its data: a SQLite file in a temporary directory (removed with the
/// place), or a PostgreSQL schema of its own. Opening a store again on the place is how a test
/// closes and reopens, or migrates, a store.
struct StorePlace {
    let kind: StoreKind
    /// The SQLite file's directory.
    private let directory: TemporaryDirectory?
    /// The PostgreSQL schema.
    private let schema: String

    init(kind: StoreKind) throws {
        self.kind = kind
        directory = kind == .sqlite ? try TemporaryDirectory() : nil
        schema = PostgresCluster.uniqueSchema()
    }

    /// A store of `models` on this place, shut down after `body`.
    func withStore(_ models: [ModelSchema], _ body: (any ItemStore) async throws -> Void) async throws {
        switch kind {
        case .sqlite:
            let store = try SQLiteItemStore(location: .file(directory!.file("app.sqlite")), schema: Fixtures.schema(models))
            try await body(store)
        case .postgres:
            try await PostgresCluster.withStore(models, schema: schema, pool: 2) { store in try await body(store) }
        }
    }

    func withStore(_ models: ModelSchema..., body: (any ItemStore) async throws -> Void) async throws {
        try await withStore(models, body)
    }
}
