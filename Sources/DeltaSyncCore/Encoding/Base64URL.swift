import Foundation

/// Base64url (RFC 4648 §5) without padding, as JWTs, page tokens and AppSync's realtime
/// `header` carriers use it. Decoding also takes standard base64 and padding, which clients
/// send too.
///
/// ```swift
/// Base64URL.encode(Data("{}".utf8))    // "e30"
/// Base64URL.decode("e30")              // Data("{}".utf8)
/// ```
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`; `nil` when it is not base64.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
