import Crypto
import Foundation
import X509

extension DevelopmentCertificate {
    /// The authority in `directory` when both its files are there and it is usable until past
    /// ``authorityRenewal``; otherwise a new one, written to the folder.
    static func loadOrMakeAuthority(
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
}
