import DeltaSyncCore
import Foundation
import Testing

/// Base64url without padding out; base64url or standard base64, padded or not, in.
struct Base64URLTests {
    @Test func roundTripsEveryLengthAndTakesStandardBase64() throws {
        for length in 0..<10 {
            let bytes = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 61 &+ 250) })
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            #expect(Base64URL.decode(encoded) == bytes)
            #expect(Base64URL.decode(bytes.base64EncodedString()) == bytes)
        }
        #expect(Base64URL.decode("not base64!") == nil)
    }
}
