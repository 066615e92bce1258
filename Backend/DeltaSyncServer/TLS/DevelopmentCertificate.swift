import Crypto
import Foundation
import X509

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
}
