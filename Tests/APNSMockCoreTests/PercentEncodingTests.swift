import APNSMockCore
import Testing

/// The one percent-encoder: every surface (the matcher's query string, MCP's calls, the CLI's
/// paths and queries, the dashboard links of `verify`) writes the same bytes.
@Suite struct PercentEncodingTests {
    /// Text, and what it is encoded as. The rows marked "was" encoded differently in the CLI
    /// before the encoders became one (`AdminOptions.encode` kept every Unicode letter or
    /// digit as it was; `report --window` encoded `-._~` too).
    static let rows: [(text: String, encoded: String)] = [
        ("", ""),
        ("aZ09-._~", "aZ09-._~"),
        ("payload.aps.alert.title", "payload.aps.alert.title"),
        ("a b&c=d+e/f#g%", "a%20b%26c%3Dd%2Be%2Ff%23g%25"),
        ("?;:@,$", "%3F%3B%3A%40%2C%24"),
        ("!*'()", "%21%2A%27%28%29"),
        ("[]{}|\\^`\"<>", "%5B%5D%7B%7D%7C%5C%5E%60%22%3C%3E"),
        ("\u{0}\t\n\u{7F}", "%00%09%0A%7F"),
        // was "é" (a Unicode letter) in the CLI's filters and fault ids.
        ("é", "%C3%A9"),
        // was "日本" in the CLI's filters.
        ("日本", "%E6%97%A5%E6%9C%AC"),
        // was "٣" (a Unicode digit) in the CLI's filters.
        ("٣", "%D9%A3"),
        ("😀", "%F0%9F%98%80"),
        // was "1%2E5s" in `report --window`.
        ("1.5s", "1.5s"),
        ("10m", "10m"),
    ]

    @Test(arguments: rows) func encodesOnlyUnreservedCharactersAsThemselves(row: (text: String, encoded: String)) {
        #expect(PercentEncoding.encoded(row.text) == row.encoded)
    }

    @Test func everyASCIIByteOutsideTheUnreservedSetIsEncoded() {
        for byte in UInt8(0)...UInt8(127) {
            let text = String(decoding: [byte], as: UTF8.self)
            let unreserved =
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("-._~".utf8).contains(byte)
            #expect(PercentEncoding.isUnreserved(byte) == unreserved)
            #expect(PercentEncoding.encoded(text) == (unreserved ? text : "%" + hex(byte)))
        }
    }

    @Test func aQueryStringEncodesEachNameAndValue() {
        #expect(PercentEncoding.query([]) == "")
        #expect(
            PercentEncoding.query([("payload.aps.alert.title", "Hi there"), ("status", "410"), ("a&b", "c=d")])
                == "payload.aps.alert.title=Hi%20there&status=410&a%26b=c%3Dd")
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
