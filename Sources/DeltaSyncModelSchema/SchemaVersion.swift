/// Identifies a schema text, to notice when it changed between launches.
public enum SchemaVersion {
    /// FNV-1a over the text's UTF-8: stable across processes and platforms, unlike `Hasher`.
    public static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
