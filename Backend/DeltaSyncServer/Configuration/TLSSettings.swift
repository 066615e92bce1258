import Foundation
import NIOSSL

/// The certificate and key a server serves `https` and `wss` with, on its one port.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.tls = TLSSettings(
///     certificateChainPath: ".deltasync/dev-cert.pem",     // from `deltasync dev-cert`
///     privateKeyPath: ".deltasync/dev-cert-key.pem")
/// ```
///
/// Both files are read when the server is created, so a missing file, a file that is not PEM
/// or a key that does not belong to the certificate fails there, naming the file.
public struct TLSSettings: Sendable, Equatable {
    /// A PEM file holding the server's certificate first, then the intermediate certificates
    /// clients need to reach a root they trust (`serve --tls-cert`).
    public var certificateChainPath: String
    /// A PEM file holding the certificate's private key, PKCS#8 or the key type's own form
    /// (`serve --tls-key`). Keep it readable by the server's user only.
    public var privateKeyPath: String

    /// Names the two PEM files; they are read when a ``DeltaSyncServer`` is created with them.
    public init(certificateChainPath: String, privateKeyPath: String) {
        self.certificateChainPath = certificateChainPath
        self.privateKeyPath = privateKeyPath
    }

    /// NIOSSL's server configuration of the two files: TLS 1.2 or newer, HTTP/1.1 offered by
    /// ALPN (the port speaks HTTP/1.1 and upgrades it to WebSockets).
    ///
    /// - Throws: ``TLSSettingsError`` naming the file that cannot be read or used.
    func serverConfiguration() throws(TLSSettingsError) -> TLSConfiguration {
        let chainBytes = try Self.read(certificateChainPath, file: .certificateChain)
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(chainBytes)
        } catch {
            throw TLSSettingsError(file: .certificateChain, path: certificateChainPath, reason: "it is not a PEM certificate (\(error))")
        }
        guard !certificates.isEmpty else {
            throw TLSSettingsError(
                file: .certificateChain, path: certificateChainPath, reason: "it holds no -----BEGIN CERTIFICATE----- block")
        }
        let keyBytes = try Self.read(privateKeyPath, file: .privateKey)
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw TLSSettingsError(
                file: .privateKey, path: privateKeyPath, reason: "it is not a PEM private key, or it is encrypted (\(error))")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: certificates.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        configuration.applicationProtocols = ["http/1.1"]
        // Building the context is where BoringSSL compares the key with the certificate.
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw TLSSettingsError(
                file: .privateKey, path: privateKeyPath,
                reason: "it does not belong to the certificate in \(certificateChainPath) (\(error))")
        }
        return configuration
    }

    private static func read(_ path: String, file: TLSSettingsError.File) throws(TLSSettingsError) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw TLSSettingsError(file: file, path: path, reason: "there is no such file")
        }
        guard FileManager.default.isReadableFile(atPath: path), let data = FileManager.default.contents(atPath: path) else {
            throw TLSSettingsError(file: file, path: path, reason: "it cannot be read by this user")
        }
        return Array(data)
    }
}

/// A TLS certificate or key file the server cannot use: which one, where, and why.
public struct TLSSettingsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Which of the two files of ``TLSSettings``.
    public enum File: Sendable, Equatable {
        case certificateChain
        case privateKey

        /// The `serve` flag that names the file.
        public var flag: String {
            switch self {
            case .certificateChain: return "--tls-cert"
            case .privateKey: return "--tls-key"
            }
        }
    }

    /// Which file: the certificate chain or the key.
    public let file: File
    /// The file's path as configured.
    public let path: String
    /// What is wrong with it: missing, unreadable, not PEM, not the certificate's key.
    public let reason: String

    /// `cannot use PATH as the TLS private key (--tls-key): REASON. ...`
    public var description: String {
        let what = file == .certificateChain ? "TLS certificate chain" : "TLS private key"
        return "cannot use \(path) as the \(what) (\(file.flag)): \(reason). "
            + "`deltasync dev-cert` makes a development certificate and key."
    }
}
