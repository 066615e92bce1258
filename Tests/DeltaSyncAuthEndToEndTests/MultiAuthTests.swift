import DeltaSyncClient
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import Testing

/// Amplify's multi-auth strategy and IAM credentials on a device: per model and operation, the
/// rules' modes in priority order, a signed-out user falling through to the next mode, and
/// SigV4-signed sync and realtime.
@Suite("Multi-auth and IAM devices")
struct MultiAuthTests {
    struct SignedOut: Error {}

    @Test("multi-auth: a signed-in owner syncs with the pool and sees their own; signed out, the API key reads all")
    func multiAuthFallsThroughWhenSignedOut() async throws {
        try await OwnerSyncTests.withServer { server, tokens in
            let alice = try OwnerSyncTests.device(server, OwnerSyncTests.Session(tokens["alice"]!))
            let bob = try OwnerSyncTests.device(server, OwnerSyncTests.Session(tokens["bob"]!))
            try await alice.save(Note(id: "n-alice", text: "mine"))
            try await bob.save(Note(id: "n-bob", text: "his"))
            try await alice.start()
            try await bob.start()
            try await OwnerSyncTests.sent(alice)
            try await OwnerSyncTests.sent(bob)

            var signedIn = SyncEndpoint(url: URL(string: server.graphQLURL)!, authorization: .userPools { _ in tokens["alice"]! })
            signedIn.additionalAuthorizations = [.apiKey(server.apiKey)]
            let multi = try OwnerSyncTests.device(server, signedIn, strategy: .multiAuth)
            try await multi.start()
            // The owner rule's mode comes first and succeeds: no fallback to the public key.
            #expect(try await multi.query(Note.self).map(\.id) == ["n-alice"])

            var signedOut = SyncEndpoint(url: URL(string: server.graphQLURL)!, authorization: .userPools { _ in throw SignedOut() })
            signedOut.additionalAuthorizations = [.apiKey(server.apiKey)]
            let guest = try OwnerSyncTests.device(server, signedOut, strategy: .multiAuth)
            try await guest.start()
            #expect(try await guest.query(Note.self).map(\.id).sorted() == ["n-alice", "n-bob"])
        }
    }

    @Test("IAM: a signed-in identity writes photos with SigV4, a guest syncs and hears them")
    func iamDevices() async throws {
        try await OwnerSyncTests.withServer { server, _ in
            let url = URL(string: server.graphQLURL)!
            let member = SyncAuthorization.iam(region: "us-east-1") { _ in
                .init(accessKeyID: "AKIDMEMBER", secretAccessKey: "member-secret")
            }
            let guestCredentials = SyncAuthorization.iam(region: "us-east-1") { _ in
                .init(accessKeyID: "AKIDGUEST", secretAccessKey: "guest-secret")
            }
            let writer = try OwnerSyncTests.device(server, SyncEndpoint(url: url, authorization: member))
            try await writer.save(Photo(id: "p1", caption: "sea"))
            try await writer.start()
            try await OwnerSyncTests.sent(writer)

            let guest = try OwnerSyncTests.device(server, SyncEndpoint(url: url, authorization: guestCredentials))
            try await guest.start()
            #expect(try await guest.query(Photo.self).map(\.id) == ["p1"])
            // Live, through the guest's signed subscriptions.
            try await writer.save(Photo(id: "p2", caption: "sky"))
            for try await snapshot in guest.observeQuery(for: Photo.self) where snapshot.items.contains(where: { $0.id == "p2" }) {
                break
            }
            #expect(try await guest.query(Photo.self, byId: "p2")?.caption == "sky")
        }
    }
}
