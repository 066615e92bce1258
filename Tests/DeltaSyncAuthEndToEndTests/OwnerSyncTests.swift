import DeltaSyncClient
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// Signed-in devices against owner rules (`Note` in the example schema): each user syncs and
/// hears only their own notes, an Admin reads everyone's, and a device signed in as another
/// user holds only that user's notes after clearing.
@Suite("Owner-scoped sync with user pool tokens")
struct OwnerSyncTests {
    /// A user's current token, which a test can switch (sign out, sign in as someone else).
    final class Session: @unchecked Sendable {
        private let lock = NSLock()
        private var current: String
        init(_ token: String) { current = token }
        var token: String {
            get { lock.withLock { current } }
            set { lock.withLock { current = newValue } }
        }
    }

    static let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("schema.graphql").path

    static func withServer(_ body: (DeltaSyncTestServer, [String: String]) async throws -> Void) async throws {
        try await DeltaSyncTestServer.withServer(schemaFile: schema, configure: {
            $0.authModes = APIAuthModes(defaultMode: .userPools, additionalModes: [.apiKey, .iam])
            $0.iamCredentials = [
                IAMCredential(accessKeyID: "AKIDMEMBER", secretAccessKey: "member-secret", role: .authenticated),
                IAMCredential(accessKeyID: "AKIDGUEST", secretAccessKey: "guest-secret", role: .unauthenticated),
            ]
        }) { server in
            var tokens: [String: String] = [:]
            for (user, groups) in [("alice", [String]()), ("bob", []), ("carol", ["Admin"])] {
                tokens[user] = try await server.token(username: user, groups: groups)
            }
            try await body(server, tokens)
        }
    }

    /// A device signed in through `session`, retrying quickly.
    static func device(_ server: DeltaSyncTestServer, _ session: Session, errors: @escaping @Sendable (DataStoreError) -> Void = { _ in })
        throws -> DataStore
    {
        try device(server, SyncEndpoint(url: URL(string: server.graphQLURL)!, authorization: .userPools { _ in session.token }), errors: errors)
    }

    /// A device of `endpoint`, retrying quickly.
    static func device(
        _ server: DeltaSyncTestServer, _ endpoint: SyncEndpoint, strategy: AuthModeStrategy = .default,
        errors: @escaping @Sendable (DataStoreError) -> Void = { _ in }
    ) throws -> DataStore {
        var configuration = DataStoreConfiguration(endpoint: endpoint)
        configuration.authModeStrategy = strategy
        configuration.retryBackoff = RetryBackoff(base: .milliseconds(20), maximum: .milliseconds(500))
        configuration.errorHandler = errors
        return try DataStore(models: DeltaSyncModels.self, location: .inMemory, configuration: configuration)
    }

    /// Waits until the store has sent everything it recorded (its outbox reports empty).
    static func sent(_ store: DataStore) async throws {
        let events = store.events
        if try await store.pendingMutations().isEmpty { return }
        for await event in events {
            if case .outboxStatus(isEmpty: true) = event, try await store.pendingMutations().isEmpty { return }
        }
    }

    /// Waits until `id` is stored, as a realtime event brings it.
    static func arrived(_ id: String, in store: DataStore) async throws {
        for try await snapshot in store.observeQuery(for: Note.self) where snapshot.items.contains(where: { $0.id == id }) {
            return
        }
    }

    @Test("each user syncs and hears only their own notes; an Admin reads all")
    func ownersSyncTheirOwn() async throws {
        try await Self.withServer { server, tokens in
            let alice = try Self.device(server, Session(tokens["alice"]!))
            let bob = try Self.device(server, Session(tokens["bob"]!))
            try await alice.start()
            try await bob.start()
            try await alice.save(Note(id: "n-alice", text: "mine"))
            try await bob.save(Note(id: "n-bob", text: "his"))
            try await Self.sent(bob)
            try await Self.sent(alice)
            #expect(try await alice.query(Note.self, byId: "n-alice")?.owner == "alice")

            for (user, expected) in [("alice", ["n-alice"]), ("bob", ["n-bob"]), ("carol", ["n-alice", "n-bob"])] {
                let fresh = try Self.device(server, Session(tokens[user]!))
                try await fresh.start()
                #expect(try await fresh.query(Note.self).map(\.id).sorted() == expected, "\(user)'s notes")
                await fresh.stop()
            }

            // Live: Bob's next note does not reach Alice; hers from another device does.
            let aliceTablet = try Self.device(server, Session(tokens["alice"]!))
            try await bob.save(Note(id: "n-bob-2", text: "his again"))
            try await Self.sent(bob)
            try await aliceTablet.save(Note(id: "n-alice-2", text: "from the tablet"))
            try await aliceTablet.start()
            try await Self.arrived("n-alice-2", in: alice)
            #expect(try await alice.query(Note.self, byId: "n-bob-2") == nil)
        }
    }

    @Test("after signing in as another user and clearing, the store holds only that user's notes")
    func signInAsAnotherUser() async throws {
        try await Self.withServer { server, tokens in
            let bob = try Self.device(server, Session(tokens["bob"]!))
            try await bob.save(Note(id: "n-bob", text: "his"))
            try await bob.start()
            try await Self.sent(bob)

            let session = Session(tokens["alice"]!)
            let shared = try Self.device(server, session)
            try await shared.save(Note(id: "n-alice", text: "mine"))
            try await shared.start()
            try await Self.sent(shared)
            #expect(try await shared.query(Note.self).map(\.id) == ["n-alice"])

            await shared.stop()
            try await shared.clear()
            session.token = tokens["bob"]!
            try await shared.start()
            #expect(try await shared.query(Note.self).map(\.id) == ["n-bob"])
        }
    }

    @Test("a model the user may not sync is skipped with an event and the error handler; the rest sync")
    func refusedModelIsSkipped() async throws {
        try await Self.withServer { server, tokens in
            let admin = try Self.device(server, Session(tokens["carol"]!))
            try await admin.save(Secret(id: "s1", text: "launch codes"))
            try await admin.save(Tag(id: "t1", name: "public"))
            try await admin.start()
            try await Self.sent(admin)

            let errors = Reported()
            let alice = try Self.device(server, Session(tokens["alice"]!), errors: { errors.append($0) })
            let events = alice.events
            let synced = try await alice.start()
            #expect(Set(synced.map(\.modelName)) == ["Note", "Tag"], "Photo takes IAM only, Secret Admins only")
            #expect(try await alice.query(Tag.self).map(\.id) == ["t1"])
            #expect(try await alice.query(Secret.self).isEmpty)
            var refused: [String] = []
            for await event in events {
                if case .modelSyncRefused(let model, _) = event { refused.append(model) }
                if case .ready = event { break }
            }
            #expect(Set(refused) == ["Secret", "Photo"])
            #expect(errors.all.contains { if case .rejected("Secret", "Unauthorized", _) = $0 { true } else { false } })
        }
    }
}

/// Errors a store reported, from any thread.
final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [DataStoreError] = []
    var all: [DataStoreError] { lock.withLock { errors } }
    func append(_ error: DataStoreError) { lock.withLock { errors.append(error) } }
}
