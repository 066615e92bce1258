import Crypto

/// A key's fingerprint for logs: `sha256:` and the first 12 hex digits of its SHA-256. Enough to
/// tell which key a server runs with (compare with `printf %s "$KEY" | sha256sum`), nothing to
/// use it with: `--log-format json` lines end up in log collectors that more people read than
/// should hold the keys.
///
/// ```swift
/// KeyFingerprint.of("da2-fixture")  // "sha256:" + 12 hex digits
/// ```
public enum KeyFingerprint {
    public static func of(_ key: String) -> String {
        let digest = SHA256.hash(data: Array(key.utf8))
        return "sha256:" + digest.prefix(6).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}

extension ServerConfiguration {
    /// Why `entry` is not a ``corsOrigins`` entry, or `nil` when it is one (for `--cors-origin`).
    public static func corsOriginProblem(_ entry: String) -> String? {
        CORSOrigins.problem(entry)
    }
}
