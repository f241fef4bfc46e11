import Foundation
import Testing

@testable import APNSMockCore

@Suite struct JSONWriterTests {
    /// Every string comes out as JSON that parses back to the same string: quotes, backslashes,
    /// control characters, non-ASCII, runs with nothing to escape at either end.
    @Test(arguments: [
        "", "plain", #"say "hi""#, #"back\slash"#, "line\nfeed\r\ttab", "\u{0}\u{1}\u{1F}", "héllo 🙂",
        #""leading and trailing""#, String(repeating: "x", count: 5000) + "\"",
    ])
    func stringsRoundTrip(_ text: String) throws {
        var writer = JSONWriter()
        writer.beginArray()
        writer.string(text)
        writer.endArray()
        let parsed = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
        #expect(parsed == [text])
    }
}
