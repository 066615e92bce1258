/// Whether text is an `AWSEmail`: `local-part@domain`, within the lengths mail servers accept.
///
/// AppSync documents `AWSEmail` as RFC 822's `local-part@domain-part`. The lengths are RFC
/// 5321's (section 4.5.3.1), in UTF-8 bytes: a local part of at most 64, a domain of at most
/// 255 made of labels of 1 to 63, and a whole address of at most 254 (the 256 of a path less
/// its angle brackets). An address past them cannot be delivered, so a client storing one has
/// a bug worth hearing about before its data reaches the cloud.
///
/// ```swift
/// EmailAddressSyntax.isValid("ana@example.com")   // true
/// EmailAddressSyntax.isValid("ana@example..com")  // false: an empty label
/// ```
enum EmailAddressSyntax {
    static let maxLocalPartBytes = 64
    static let maxDomainBytes = 255
    static let maxLabelBytes = 63
    static let maxAddressBytes = 254

    static func isValid(_ text: String) -> Bool {
        guard text.utf8.count <= maxAddressBytes, !text.contains(where: \.isWhitespace) else { return false }
        // One `@`: a quoted local part holding another (`"a@b"@example.com`) is refused, as before.
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let (local, domain) = (parts[0], parts[1])
        guard !local.isEmpty, local.utf8.count <= maxLocalPartBytes, domain.utf8.count <= maxDomainBytes else {
            return false
        }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty && $0.utf8.count <= maxLabelBytes }
    }
}
