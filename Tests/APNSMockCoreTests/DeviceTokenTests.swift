import APNSMockCore
import Testing

/// `DeviceToken.normalized`: even-length hex of 8–256 bytes, lower-cased. Token length is
/// variable (classic tokens are 32 bytes, Live Activity tokens longer), so 64 digits is not a
/// rule (APNS-REFERENCE §2).
@Suite("DeviceToken.normalized")
struct DeviceTokenTests {
    @Test("Limits are 8 and 256 bytes")
    func limits() {
        #expect(DeviceToken.minimumBytes == 8)
        #expect(DeviceToken.maximumBytes == 256)
    }

    @Test("Lower-case hex of an accepted length comes back unchanged", arguments: [16, 18, 64, 160, 510, 512])
    func lowerCaseUnchanged(digits: Int) {
        let token = RequestBuilder.hexToken(digits: digits)
        #expect(DeviceToken.normalized(token) == token)
    }

    @Test("Upper-case and mixed-case hex is lower-cased")
    func upperCaseLowered() {
        #expect(DeviceToken.normalized("0123456789ABCDEF") == "0123456789abcdef")
        #expect(DeviceToken.normalized("0123456789AbCdEf") == "0123456789abcdef")
        let upper = RequestBuilder.hexToken(digits: 64, upperCase: true)
        #expect(DeviceToken.normalized(upper) == upper.lowercased())
    }

    @Test(
        "Lengths outside 8–256 bytes, or odd, are rejected",
        arguments: [0, 1, 2, 14, 15, 17, 63, 65, 511, 513, 514, 1024])
    func badLengths(digits: Int) {
        #expect(DeviceToken.normalized(RequestBuilder.hexToken(digits: digits)) == nil)
    }

    @Test(
        "Characters other than hex digits are rejected",
        arguments: [
            "0123456789abcdeg", "0123456789abcde ", " 0123456789abcde", "0123456789abcd-f", "0x23456789abcdef",
            "0123456789abcdé", "0123456789abcd\u{0}f", "０123456789abcdef", "zzzzzzzzzzzzzzzz",
        ])
    func badCharacters(token: String) {
        #expect(DeviceToken.normalized(token) == nil)
    }

    @Test("A multi-byte character is measured in UTF-8 bytes, not characters")
    func multiByteLength() {
        // 15 hex digits plus "é" (2 bytes) is 17 bytes: odd, and not hex either way.
        #expect(DeviceToken.normalized("0123456789abcde" + "é") == nil)
    }

    @Test("Accepts a Substring")
    func substring() {
        let path = "/3/device/ABCDEF0123456789"
        let token = path.dropFirst("/3/device/".count)
        #expect(DeviceToken.normalized(token) == "abcdef0123456789")
    }
}
