import Crypto
import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A local certificate authority kept in the server's data folder, and a server certificate it
/// signs for this machine's names: `https` and `wss` for simulators, emulators and devices
/// that trust the authority once (`deltasync dev-cert`).
///
/// ```swift
/// let made = try DevelopmentCertificate.make(directory: ".deltasync", names: ["staging.local"])
/// var configuration = ServerConfiguration()
/// configuration.tls = made.tlsSettings
/// // clients trust made.authorityPath (dev-ca.pem)
/// ```
///
/// The authority (a P-256 key, valid ten years) is made once and reused while it is valid, so a
/// device that trusts it keeps trusting every server certificate made later. The server
/// certificate is made anew every time, for the names asked, valid 397 days: Apple platforms
/// refuse TLS server certificates valid longer than 398 days.
public struct DevelopmentCertificate: Sendable {
    /// The authority's certificate inside the data folder: what clients trust.
    public static let authorityFileName = "dev-ca.pem"
    /// The authority's private key (readable by its owner only).
    public static let authorityKeyFileName = "dev-ca-key.pem"
    /// The server certificate, followed by nothing: the authority is the root clients trust.
    public static let certificateFileName = "dev-cert.pem"
    /// The server certificate's private key (readable by its owner only).
    public static let keyFileName = "dev-cert-key.pem"

    /// How long a new authority is valid.
    static let authorityLifetime: TimeInterval = 10 * 365 * 86_400
    /// How long a server certificate is valid, counted from its `notBefore`: under Apple's
    /// 398 days.
    static let certificateLifetime: TimeInterval = 397 * 86_400
    /// `notBefore` is set this far back, so a device whose clock is a little behind accepts a
    /// certificate made a moment ago.
    static let backdating: TimeInterval = 3600
    /// An authority that ends sooner than this is replaced rather than reused.
    static let authorityRenewal: TimeInterval = 30 * 86_400

    /// Whether ``make(directory:names:now:)`` made the authority or found it.
    public enum AuthorityOrigin: Sendable, Equatable {
        /// There was none: clients must trust the new one.
        case created
        /// The one in the folder was valid and is kept: clients that trust it need nothing new.
        case reused
        /// The one in the folder could not be used (the reason says why) and a new one took its
        /// place: clients must trust the new one.
        case replaced(reason: String)
    }

    /// The data folder holding the four files.
    public let directory: String
    /// The authority's certificate (``authorityPath``).
    public let authority: Certificate
    /// The server certificate (``certificatePath``), signed by ``authority``.
    public let certificate: Certificate
    /// The names the server certificate is valid for, DNS names and IP addresses as given.
    public let names: [String]
    /// Whether the authority was made now, found, or made to replace an unusable one.
    public let authorityOrigin: AuthorityOrigin

    /// `directory/dev-ca.pem`: the certificate clients trust.
    public var authorityPath: String { Self.path(directory, Self.authorityFileName) }
    /// `directory/dev-ca-key.pem`: the authority's key, mode 0600.
    public var authorityKeyPath: String { Self.path(directory, Self.authorityKeyFileName) }
    /// `directory/dev-cert.pem`: what `serve --tls-cert` takes.
    public var certificatePath: String { Self.path(directory, Self.certificateFileName) }
    /// `directory/dev-cert-key.pem`: what `serve --tls-key` takes, mode 0600.
    public var keyPath: String { Self.path(directory, Self.keyFileName) }

    /// The server certificate and key as ``ServerConfiguration/tls`` takes them.
    public var tlsSettings: TLSSettings { TLSSettings(certificateChainPath: certificatePath, privateKeyPath: keyPath) }

    // MARK: - Making

    /// The names every development certificate covers: `localhost`, `127.0.0.1`, `::1` and
    /// this machine's hostname (when it is a valid DNS name).
    public static func defaultNames() -> [String] {
        var names = ["localhost", "127.0.0.1", "::1"]
        if let host = hostname(), (try? subjectAlternativeName(host)) != nil { names.append(host) }
        return names
    }

    /// Makes (or reuses) the authority in `directory` and makes a server certificate signed by
    /// it for ``defaultNames()`` and `names`, writing the four files (keys with mode 0600).
    ///
    /// - Parameters:
    ///   - directory: the server's data folder (``ServerConfiguration/dataDirectory``),
    ///     created if missing.
    ///   - names: more DNS names (`staging.local`, `*.dev.example`) or IP addresses
    ///     (`192.168.1.20`, `fd00::1`) the server is reached by.
    ///   - now: the start of the validity periods.
    /// - Throws: ``DevelopmentCertificateError`` for a name that is neither a DNS name nor an
    ///   IP address, or a folder or file that cannot be written.
    public static func make(directory: String, names: [String] = [], now: Date = Date()) throws -> DevelopmentCertificate {
        var seen = Set<String>()
        let allNames = (defaultNames() + names).filter { seen.insert($0.lowercased()).inserted }
        let alternativeNames = try allNames.map(subjectAlternativeName)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw DevelopmentCertificateError("cannot create the data folder \(directory): \(error.localizedDescription)")
        }
        let (authority, authorityKey, origin) = try loadOrMakeAuthority(directory: directory, now: now)

        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let authorityIdentifier = try authority.extensions.subjectKeyIdentifier?.keyIdentifier
        let notBefore = now.addingTimeInterval(-backdating)
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(alternativeNames)
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(keyIdentifier: authorityIdentifier)
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: publicKey,
            notValidBefore: notBefore,
            // Never past the authority: a chain is valid only while both are.
            notValidAfter: min(notBefore.addingTimeInterval(certificateLifetime), authority.notValidAfter),
            issuer: authority.subject,
            subject: try DistinguishedName {
                OrganizationName("DeltaSync development")
                CommonName(allNames[0])
            },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: authorityKey)

        let made = DevelopmentCertificate(
            directory: directory, authority: authority, certificate: certificate, names: allNames, authorityOrigin: origin)
        try save(key.pemRepresentation, to: made.keyPath, mode: 0o600)
        try save(try certificate.serializeAsPEM().pemString + "\n", to: made.certificatePath, mode: 0o644)
        return made
    }

    /// The authority in `directory` when both its files are there and it is usable until past
    /// ``authorityRenewal``; otherwise a new one, written to the folder.
    private static func loadOrMakeAuthority(
        directory: String, now: Date
    ) throws -> (Certificate, Certificate.PrivateKey, AuthorityOrigin) {
        let certificatePath = path(directory, authorityFileName)
        let keyPath = path(directory, authorityKeyFileName)
        let haveCertificate = FileManager.default.fileExists(atPath: certificatePath)
        let haveKey = FileManager.default.fileExists(atPath: keyPath)
        var replacing: String?
        switch (haveCertificate, haveKey) {
        case (false, false):
            break
        case (true, false):
            replacing = "\(authorityKeyFileName) is missing"
        case (false, true):
            replacing = "\(authorityFileName) is missing"
        case (true, true):
            switch readAuthority(certificatePath: certificatePath, keyPath: keyPath, now: now) {
            case .success(let (certificate, key)):
                return (certificate, key, .reused)
            case .failure(let problem):
                replacing = problem.message
            }
        }

        let key = P256.Signing.PrivateKey()
        let signingKey = Certificate.PrivateKey(key)
        let name = try DistinguishedName {
            OrganizationName("DeltaSync development")
            CommonName("DeltaSync Development CA" + (hostname().map { " (\($0))" } ?? ""))
        }
        let notBefore = now.addingTimeInterval(-backdating)
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: signingKey.publicKey,
            notValidBefore: notBefore,
            notValidAfter: notBefore.addingTimeInterval(authorityLifetime),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                // Signs server certificates only, never another authority.
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: signingKey.publicKey)
            },
            issuerPrivateKey: signingKey)
        // The key first: a certificate on disk without its key would be replaced next time.
        try save(key.pemRepresentation, to: keyPath, mode: 0o600)
        try save(try certificate.serializeAsPEM().pemString + "\n", to: certificatePath, mode: 0o644)
        return (certificate, signingKey, replacing.map { .replaced(reason: $0) } ?? .created)
    }

    private struct Unusable: Error {
        let message: String
    }

    private static func readAuthority(
        certificatePath: String, keyPath: String, now: Date
    ) -> Result<(Certificate, Certificate.PrivateKey), Unusable> {
        guard let certificatePEM = try? String(contentsOfFile: certificatePath, encoding: .utf8),
            let certificate = try? Certificate(pemEncoded: certificatePEM)
        else { return .failure(Unusable(message: "\(authorityFileName) is not a PEM certificate")) }
        guard let keyPEM = try? String(contentsOfFile: keyPath, encoding: .utf8),
            let key = try? Certificate.PrivateKey(pemEncoded: keyPEM)
        else { return .failure(Unusable(message: "\(authorityKeyFileName) is not a PEM private key")) }
        guard key.publicKey == certificate.publicKey else {
            return .failure(Unusable(message: "\(authorityKeyFileName) is not the key of \(authorityFileName)"))
        }
        guard case .isCertificateAuthority = try? certificate.extensions.basicConstraints,
            (try? certificate.extensions.subjectKeyIdentifier) != nil
        else {
            return .failure(Unusable(message: "\(authorityFileName) is not a certificate authority"))
        }
        guard certificate.notValidAfter > now.addingTimeInterval(authorityRenewal) else {
            return .failure(Unusable(message: "\(authorityFileName) expires on \(certificate.notValidAfter)"))
        }
        return .success((certificate, key))
    }

    // MARK: - Names

    /// Checks that `name` can go into a certificate: a DNS name or an IP address.
    ///
    /// - Throws: ``DevelopmentCertificateError`` saying what a name must look like.
    public static func validate(name: String) throws {
        _ = try subjectAlternativeName(name)
    }

    /// A subject alternative name: an IP address when `name` parses as IPv4 or IPv6, else a
    /// DNS name (letters, digits, hyphens, dots; a leading `*.` for a wildcard).
    ///
    /// - Throws: ``DevelopmentCertificateError`` for anything else.
    static func subjectAlternativeName(_ name: String) throws -> GeneralName {
        if let address = ipAddressBytes(name) {
            return .ipAddress(ASN1OctetString(contentBytes: address[...]))
        }
        var labels = name.split(separator: ".", omittingEmptySubsequences: false)
        if labels.first == "*", labels.count > 2 { labels.removeFirst() }
        let valid = !name.isEmpty && name.utf8.count <= 253 && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
        guard valid else {
            throw DevelopmentCertificateError("'\(name)' is neither a DNS name (such as staging.local) nor an IP address (such as 192.168.1.20)")
        }
        return .dnsName(name.lowercased())
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address, `nil` for anything else.
    static func ipAddressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// This machine's hostname, as `hostname` prints it.
    static func hostname() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty || name == "localhost" ? nil : name
    }

    // MARK: - Files

    static func path(_ directory: String, _ file: String) -> String {
        (directory as NSString).appendingPathComponent(file)
    }

    /// Writes `text` aside, created with `mode` (a key is never readable by others, not even
    /// for a moment), then renames it into place (a reader never sees half a file).
    private static func save(_ text: String, to path: String, mode: mode_t) throws {
        let aside = path + ".\(UUID().uuidString)"
        func failure(_ step: String) -> DevelopmentCertificateError {
            DevelopmentCertificateError("cannot write \(path) (\(step): \(String(cString: strerror(errno)))); check that its folder is writable")
        }
        let descriptor = open(aside, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw failure("open") }
        let bytes = Array(text.utf8)
        // The umask may have taken bits away from `mode`; a certificate must stay readable.
        let written = fchmod(descriptor, mode) == 0 && bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
        let error = written ? nil : failure("write")
        close(descriptor)
        if let error {
            unlink(aside)
            throw error
        }
        guard rename(aside, path) == 0 else {
            let error = failure("rename")
            unlink(aside)
            throw error
        }
    }
}

/// A development certificate that cannot be made: a bad name or a folder that cannot be written.
public struct DevelopmentCertificateError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and how to fix it.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
