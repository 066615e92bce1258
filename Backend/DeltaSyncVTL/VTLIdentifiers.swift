import Foundation

/// `$util.autoUlid()` and `$util.autoKsuid()`: identifiers that sort by the time they were
/// made, from the rendering's clock and random bits.
enum VTLIdentifiers {
    /// A ULID: 48 bits of Unix milliseconds then 80 random bits, in Crockford's base 32 (26
    /// characters, `01ARZ3NDEKTSV4RRFFQ69G5FAV`): later milliseconds sort later as text.
    static func ulid(at date: Date) -> String {
        let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        let milliseconds = UInt64(max(0, (date.timeIntervalSince1970 * 1000).rounded(.down)))
        var text = ""
        for shift in stride(from: 45, through: 0, by: -5) {
            text.append(alphabet[Int((milliseconds >> UInt64(shift)) & 31)])
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<16 { text.append(alphabet[Int(random.next() & 31)]) }
        return text
    }

    /// A KSUID: 32 bits of seconds since 2014-05-13T16:53:20Z (KSUID's epoch, 1,400,000,000)
    /// then 128 random bits, in base 62 padded to 27 characters.
    static func ksuid(at date: Date) -> String {
        let seconds = UInt32(clamping: Int64(date.timeIntervalSince1970.rounded(.down)) - 1_400_000_000)
        var bytes: [UInt8] = [UInt8(seconds >> 24), UInt8(seconds >> 16 & 0xff), UInt8(seconds >> 8 & 0xff), UInt8(seconds & 0xff)]
        var random = SystemRandomNumberGenerator()
        for _ in 0..<16 { bytes.append(UInt8.random(in: .min ... .max, using: &random)) }
        return base62(bytes, width: 27)
    }

    /// Big-endian bytes as a base 62 number (`0-9A-Za-z`), left-padded with `0` to `width`.
    private static func base62(_ bytes: [UInt8], width: Int) -> String {
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var number = bytes.map(Int.init)
        var digits: [Character] = []
        while number.contains(where: { $0 != 0 }) {
            // Long division of the whole number by 62; the remainder is the next digit.
            var remainder = 0
            for index in number.indices {
                let value = remainder * 256 + number[index]
                number[index] = value / 62
                remainder = value % 62
            }
            digits.append(alphabet[remainder])
        }
        while digits.count < width { digits.append("0") }
        return String(digits.reversed())
    }
}
