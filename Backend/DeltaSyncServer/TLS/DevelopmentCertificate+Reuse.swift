import Foundation
import X509

extension DevelopmentCertificate {
    /// The development certificate a server serves with when nobody gave it one: the one in
    /// `directory` when it is there, signed by the authority beside it and valid for another
    /// day (so the names a `deltasync dev-cert --name ...` added stay), otherwise a new one from
    /// ``make(directory:names:now:)``.
    ///
    /// ```swift
    /// let certificate = try DevelopmentCertificate.existingOrNew(directory: ".deltasync")
    /// configuration.tls = certificate.tlsSettings
    /// configuration.plainBesideTLS = true
    /// ```
    ///
    /// - Returns: the certificate, and whether it was made now.
    public static func existingOrNew(directory: String, now: Date = Date()) throws -> (certificate: DevelopmentCertificate, isNew: Bool) {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Servers starting together on one data folder take turns: none reads a pair another
        // is halfway through writing, and only the first makes one.
        let lock = open(path(directory, ".dev-cert.lock"), O_RDWR | O_CREAT, 0o600)
        guard lock >= 0 else {
            throw DevelopmentCertificateError("cannot open \(path(directory, ".dev-cert.lock")): \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        defer { flock(lock, LOCK_UN) }
        if let existing = existing(directory: directory, now: now) { return (existing, false) }
        return (try make(directory: directory, now: now), true)
    }

    private static func existing(directory: String, now: Date) -> DevelopmentCertificate? {
        let read = { (name: String) in try? String(contentsOfFile: path(directory, name), encoding: .utf8) }
        guard let certificatePEM = read(certificateFileName), let certificate = try? Certificate(pemEncoded: certificatePEM),
            let authorityPEM = read(authorityFileName), let authority = try? Certificate(pemEncoded: authorityPEM),
            let keyPEM = read(keyFileName), let key = try? Certificate.PrivateKey(pemEncoded: keyPEM),
            key.publicKey == certificate.publicKey, certificate.issuer == authority.subject,
            certificate.notValidAfter > now.addingTimeInterval(24 * 3600), certificate.notValidBefore <= now
        else { return nil }
        let names = ((try? certificate.extensions.subjectAlternativeNames) ?? nil).map { names in
            names.compactMap { name -> String? in
                if case .dnsName(let dns) = name { return dns }
                return nil
            }
        } ?? []
        return DevelopmentCertificate(directory: directory, authority: authority, certificate: certificate, names: names, authorityOrigin: .reused)
    }
}
