import AsyncHTTPClient
import DeltaSyncCore
import DeltaSyncServer
import Foundation
import NIOCore
import NIOSSL
import Testing
import X509

/// `deltasync dev-cert`'s certificates, read back with swift-certificates' own verifier, and a
/// server serving https with them.
@Suite struct DevelopmentCertificateTests {
    /// A fresh data folder per test.
    private static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dev-cert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func read(_ path: String) throws -> Certificate {
        try Certificate(pemEncoded: String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func theCertificateNamesThisMachineAndTheGivenNamesForServersOnly() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try DevelopmentCertificate.make(directory: directory, names: ["staging.local", "192.168.1.20", "fd00::1"])
        let certificate = try Self.read(made.certificatePath)
        #expect(certificate == made.certificate)

        let names = try #require(try certificate.extensions.subjectAlternativeNames)
        var dns: [String] = []
        var ips: [[UInt8]] = []
        for name in names {
            switch name {
            case .dnsName(let value): dns.append(value)
            case .ipAddress(let octets): ips.append(Array(octets.bytes))
            default: Issue.record("unexpected name \(name)")
            }
        }
        #expect(dns.contains("localhost") && dns.contains("staging.local"))
        #expect(ips.contains([127, 0, 0, 1]))
        #expect(ips.contains(Array(repeating: 0, count: 15) + [1]))
        #expect(ips.contains([192, 168, 1, 20]))
        #expect(ips.contains([0xfd, 0] + Array(repeating: 0, count: 13) + [1]))
        #expect(made.names.starts(with: ["localhost", "127.0.0.1", "::1"]))
        for name in DevelopmentCertificate.defaultNames() { #expect(made.names.contains(name)) }

        #expect(try certificate.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
        #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
        let lifetime = certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore)
        #expect(lifetime < 398 * 86_400 && lifetime > 390 * 86_400)

        let authority = try Self.read(made.authorityPath)
        #expect(try authority.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(authority.notValidAfter.timeIntervalSince(authority.notValidBefore) >= 3650 * 86_400)
        #expect(certificate.issuer == authority.subject)
    }

    @Test func theAuthoritySignsTheCertificateAndAVerifierAcceptsTheChainForItsNames() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try DevelopmentCertificate.make(directory: directory, names: ["staging.local"])
        let authority = try Self.read(made.authorityPath)
        let certificate = try Self.read(made.certificatePath)
        #expect(authority.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(authority.publicKey.isValidSignature(authority.signature, for: authority))

        for (host, ip) in [("localhost", "127.0.0.1"), ("staging.local", nil)] as [(String, String?)] {
            var verifier = Verifier(rootCertificates: CertificateStore([authority])) {
                RFC5280Policy(validationTime: Date())
                ServerIdentityPolicy(serverHostname: host, serverIP: ip)
            }
            let result = await verifier.validate(leaf: certificate, intermediates: CertificateStore())
            guard case .validCertificate = result else {
                Issue.record("\(host): \(result)")
                continue
            }
        }
        var other = Verifier(rootCertificates: CertificateStore([authority])) {
            RFC5280Policy(validationTime: Date())
            ServerIdentityPolicy(serverHostname: "example.com", serverIP: nil)
        }
        guard case .couldNotValidate = await other.validate(leaf: certificate, intermediates: CertificateStore()) else {
            Issue.record("a name the certificate does not hold was accepted")
            return
        }
    }

    @Test func keysAreReadableByTheirOwnerOnly() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try DevelopmentCertificate.make(directory: directory)
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(made.authorityKeyPath) == 0o600)
        #expect(try mode(made.keyPath) == 0o600)
        #expect(try mode(made.authorityPath) == 0o644)
        #expect(try mode(made.certificatePath) == 0o644)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files == ["dev-ca-key.pem", "dev-ca.pem", "dev-cert-key.pem", "dev-cert.pem"])
    }

    @Test func theAuthorityIsReusedWhileValidAndReplacedWhenUnusable() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try DevelopmentCertificate.make(directory: directory)
        #expect(first.authorityOrigin == .created)
        let second = try DevelopmentCertificate.make(directory: directory, names: ["staging.local"])
        #expect(second.authorityOrigin == .reused)
        #expect(second.authority == first.authority)
        #expect(second.certificate.serialNumber != first.certificate.serialNumber)
        #expect(second.authority.publicKey.isValidSignature(second.certificate.signature, for: second.certificate))

        try "not a certificate".write(toFile: second.authorityPath, atomically: true, encoding: .utf8)
        let third = try DevelopmentCertificate.make(directory: directory)
        guard case .replaced(let reason) = third.authorityOrigin else {
            Issue.record("an unreadable authority was \(third.authorityOrigin)")
            return
        }
        #expect(reason.contains("dev-ca.pem"))
        #expect(third.authority.publicKey != first.authority.publicKey)

        // An authority close to its end is replaced before certificates it signs outlive it.
        let late = try DevelopmentCertificate.make(directory: directory, now: Date().addingTimeInterval(3650 * 86_400))
        #expect(late.authorityOrigin != .reused)
    }

    @Test func namesThatAreNeitherDNSNamesNorAddressesAreRefused() throws {
        for bad in ["two words", "", "-leading.example", "under_score.example", "a..b"] {
            #expect(throws: DevelopmentCertificateError.self) { try DevelopmentCertificate.validate(name: bad) }
        }
        for good in ["localhost", "*.dev.example", "10.0.2.2", "::1", "staging-1.example.com"] {
            try DevelopmentCertificate.validate(name: good)
        }
    }

    // MARK: - Serving

    @Test func aServerWithTheCertificateAnswersHTTPSForClientsThatTrustTheAuthority() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try DevelopmentCertificate.make(directory: directory)
        let server = try await TestServer { $0.tls = made.tlsSettings }.server
        let running = try await server.start()
        #expect(running.graphQLURL == "https://127.0.0.1:\(running.port)/graphql")
        #expect(running.realtimeURL == "wss://127.0.0.1:\(running.port)/graphql")

        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(made.authorityPath))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
        do {
            var request = HTTPClientRequest(url: running.graphQLURL)
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            request.headers.add(name: "x-api-key", value: running.apiKey)
            request.body = .bytes(ByteBuffer(string: #"{"query":"mutation { createBlog(input: {name: \"TLS\"}) { name } }"}"#))
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            let body = try JSONValue(parsing: String(buffer: try await response.body.collect(upTo: 1 << 20)))
            #expect(body["data"]["createBlog"]["name"] == "TLS")

            // A client that trusts only the system's roots refuses the certificate.
            var once = HTTPClient.Configuration()
            once.connectionPool.retryConnectionEstablishment = false
            let untrusting = HTTPClient(eventLoopGroupProvider: .singleton, configuration: once)
            await #expect(throws: (any Error).self) {
                _ = try await untrusting.execute(HTTPClientRequest(url: "https://127.0.0.1:\(running.port)/health"), timeout: .seconds(10))
            }
            try await untrusting.shutdown()
        } catch {
            try? await client.shutdown()
            await running.stop()
            throw error
        }
        try await client.shutdown()
        await running.stop()
    }

    @Test func aMissingOrMismatchedFileIsAnErrorNamingTheFileAndTheFlag() async throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try DevelopmentCertificate.make(directory: directory)
        let missing = directory + "/nope.pem"
        do {
            _ = try await TestServer { $0.tls = TLSSettings(certificateChainPath: missing, privateKeyPath: made.keyPath) }
            Issue.record("a missing certificate file was accepted")
        } catch let error as TLSSettingsError {
            #expect(error.file == .certificateChain)
            #expect(error.description.contains(missing) && error.description.contains("--tls-cert"))
        }
        do {
            // The authority's key does not belong to the server certificate.
            _ = try await TestServer { $0.tls = TLSSettings(certificateChainPath: made.certificatePath, privateKeyPath: made.authorityKeyPath) }
            Issue.record("a key of another certificate was accepted")
        } catch let error as TLSSettingsError {
            #expect(error.file == .privateKey)
            #expect(error.description.contains(made.authorityKeyPath) && error.description.contains("--tls-key"))
        }
        do {
            _ = try await TestServer { $0.tls = TLSSettings(certificateChainPath: made.keyPath, privateKeyPath: made.keyPath) }
            Issue.record("a key given as the certificate was accepted")
        } catch let error as TLSSettingsError {
            #expect(error.file == .certificateChain)
        }
    }
}
