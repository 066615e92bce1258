import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DevelopmentCertificate {
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
}
