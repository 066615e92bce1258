/// Whether text is an `AWSURL`: `scheme:rest`, whose authority, when the URL has one, parses.
///
/// AppSync documents `AWSURL` as an RFC 1738 URL that has a scheme (`http`, `mailto`) and no
/// `//` in its path: `https://www.amazon.com/dp/B000NZW3KC/` and `mailto:example@example.com`
/// are both valid. So a URL without `//` after its scheme (`mailto:`, `urn:`) is only checked
/// for a non-empty rest and its path; one with `//` must have an authority that parses:
///
/// - `[user[:password]@]host[:port]`, the port 0 to 65535 in digits (not empty: RFC 1738's
///   `port = digits`);
/// - a host in brackets is an IPv6 address, the bracket closed and nothing but `:port` after
///   it; a host without brackets holds no `:`, `[`, `]` or characters RFC 1738 calls unsafe;
/// - the host is empty only in `file:///path`.
///
/// Whitespace and control characters are refused anywhere; the query and fragment are not
/// checked further (`?next=https://example.com` holds `//` outside the path).
///
/// ```swift
/// URLSyntax.isValid("http://[::1]:8080/status")  // true
/// URLSyntax.isValid("http://[::1")               // false: the bracket is not closed
/// ```
enum URLSyntax {
    static func isValid(_ text: String) -> Bool {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
            let colon = text.firstIndex(of: ":"), isScheme(text[..<colon])
        else { return false }
        let rest = text[text.index(after: colon)...]
        guard !rest.isEmpty else { return false }
        let hierarchical = rest.prefix { $0 != "?" && $0 != "#" }
        let path: Substring
        if hierarchical.hasPrefix("//") {
            let afterSlashes = hierarchical.dropFirst(2)
            let authority = afterSlashes.prefix { $0 != "/" }
            path = afterSlashes[authority.endIndex...]
            let isFile = text[..<colon].lowercased() == "file"
            guard isAuthority(authority, allowsEmptyHost: isFile) else { return false }
        } else {
            path = hierarchical
        }
        return !path.contains("//")
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, in ASCII.
    private static func isScheme(_ scheme: Substring) -> Bool {
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    private static func isAuthority(_ authority: Substring, allowsEmptyHost: Bool) -> Bool {
        // The userinfo ends at the last `@`: a password may not hold one unescaped, but `@` in a
        // host is never valid, so the last one is the separator.
        let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let userInfo = authority[..<hostPort.startIndex]
        guard !userInfo.contains("["), !userInfo.contains("]") else { return false }

        let host: Substring
        let port: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return false }
            let address = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            guard AWSScalars.isIPv6(address) else { return false }
            let after = hostPort[hostPort.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return false }
            host = hostPort[...close]
            port = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = hostPort.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return false }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard host.allSatisfy({ !unsafeInHost.contains($0) }) else { return false }
        }
        if host.isEmpty {
            guard allowsEmptyHost, userInfo.isEmpty, port == nil else { return false }
        }
        if let port {
            guard (1...5).contains(port.count), port.allSatisfy({ $0.isASCII && $0.isNumber }), Int(port)! <= 65535 else {
                return false
            }
        }
        return true
    }

    /// Characters RFC 1738 lists as unsafe, plus the brackets that only enclose an IPv6 host.
    private static let unsafeInHost: Set<Character> = ["[", "]", "<", ">", "\"", "{", "}", "|", "\\", "^", "`"]
}
