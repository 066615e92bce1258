import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncServer
import DeltaSyncTesting
import Foundation
import HTTPTypes
import NIOCore
import NIOSSL
import Testing

/// One port answering `http`/`ws` and `https`/`wss`, as `deltasync serve` does by default: what
/// Amplify JS v6 needs, since it subscribes at `wss://` whatever scheme its endpoint has.
@Suite struct PlainBesideTLSTests {
    @Test func httpAndHTTPSAndWSAndWSSOnOnePort() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plain-beside-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try DevelopmentCertificate.make(directory: directory)
        let server = try await TestServer {
            $0.tls = made.tlsSettings
            $0.plainBesideTLS = true
        }.server
        let running = try await server.start()
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(made.authorityPath))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        do {
            var probe = HTTPClientRequest(url: "https://127.0.0.1:\(running.port)/health")
            probe.method = .GET
            let health = try await client.execute(probe, timeout: .seconds(30))
            #expect(health.status == .ok, "https answers")
            let secure = RealtimeTestClient(
                url: "wss://127.0.0.1:\(running.port)/graphql/realtime", headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey],
                tlsConfiguration: tls, serverName: "localhost")
            let plain = RealtimeTestClient(
                url: "ws://127.0.0.1:\(running.port)/graphql/realtime", headers: [HTTPField.Name("x-api-key")!: TestServer.apiKey])
            for subscriber in [secure, plain] {
                #expect(try await subscriber.initialize()["type"] == "connection_ack")
                subscriber.start(id: "1", query: "subscription { onCreateBlog { name } }")
                _ = try await subscriber.next("start_ack")
            }
            for (scheme, name) in [("http", "Plain"), ("https", "Secure")] {
                var request = HTTPClientRequest(url: "\(scheme)://127.0.0.1:\(running.port)/graphql")
                request.method = .POST
                request.headers.add(name: "content-type", value: "application/json")
                request.headers.add(name: "x-api-key", value: TestServer.apiKey)
                request.body = .bytes(ByteBuffer(string: #"{"query":"mutation { createBlog(input: {name: \"\#(name)\"}) { name } }"}"#))
                let response = try await client.execute(request, timeout: .seconds(30))
                let body = try JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 1 << 20)))
                #expect(body["data"]["createBlog"]["name"] == .string(name), "\(scheme) answers")
            }
            for subscriber in [secure, plain] {
                let names = [try await subscriber.next("data"), try await subscriber.next("data")]
                    .map { $0["payload"]["data"]["onCreateBlog"]["name"].stringValue ?? "" }
                #expect(names == ["Plain", "Secure"])
                _ = await subscriber.close()
            }
        } catch {
            try? await client.shutdown()
            await running.stop()
            throw error
        }
        try await client.shutdown()
        await running.stop()
    }
}

/// The certificate `deltasync serve` uses when it is given none.
@Suite struct DevelopmentCertificateReuseTests {
    @Test func theCertificateInTheDataFolderIsKeptWithItsNames() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dev-cert-reuse-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DevelopmentCertificate.existingOrNew(directory: directory)
        #expect(first.isNew)
        // `deltasync dev-cert --name 10.0.2.2` made one for the Android emulator: serve keeps it.
        let named = try DevelopmentCertificate.make(directory: directory, names: ["staging.local"])
        let again = try DevelopmentCertificate.existingOrNew(directory: directory)
        #expect(!again.isNew)
        #expect(again.certificate.certificate == named.certificate)
        #expect(again.certificate.names.contains("staging.local"))

        // Expired by the clock, or gone: a new one.
        let later = try DevelopmentCertificate.existingOrNew(directory: directory, now: Date().addingTimeInterval(400 * 24 * 3600))
        #expect(later.isNew)
        try FileManager.default.removeItem(atPath: later.certificate.keyPath)
        #expect(try DevelopmentCertificate.existingOrNew(directory: directory).isNew)
    }
}
