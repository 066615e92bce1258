/// The characters of a text as `String.count` counts them (grapheme clusters), for the output
/// limit, without walking the clusters when the text is ASCII, as template output mostly is.
enum VTLCharacterCount {
    static func of(_ text: String) -> Int {
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            // In ASCII only "\r\n" makes one character of two bytes.
            var pairs = 0
            var previous: UInt8 = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if byte == 0x0A, previous == 0x0D { pairs += 1 }
                previous = byte
            }
            return bytes.count - pairs
        }
        return (ascii ?? nil) ?? text.count
    }
}
