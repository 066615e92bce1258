import DeltaSyncCore
import Testing

@Suite struct AWSDateTimeFormatTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00.000Z"),
        (951_782_400_123, "2000-02-29T00:00:00.123Z"),
        (1_709_251_199_999, "2024-02-29T23:59:59.999Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (253_402_300_799_000, "9999-12-31T23:59:59.000Z"),
    ])
    func formatsMillisecondsAsUTC(milliseconds: Int, expected: String) {
        #expect(AWSDateTimeFormat.string(fromMilliseconds: milliseconds) == expected)
    }
}
