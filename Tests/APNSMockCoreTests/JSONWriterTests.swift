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

    /// Escapes found wherever they sit against the writer's 8-byte scan (random strings, fixed
    /// seed), nested containers separated as written.
    @Test func randomStringsAtEveryAlignmentRoundTrip() throws {
        var random = SplitMix64(seed: 11)
        let pieces = ["a", "bc", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "~", "\u{7F}", "é", "🙂", "0123456789"]
        var texts: [String] = []
        for _ in 0..<400 {
            texts.append(
                (0..<Int(random.next() % 24)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        var writer = JSONWriter()
        writer.beginArray()
        for text in texts {
            writer.beginObject()
            writer.key(text)
            writer.string(text)
            writer.key("n")
            writer.beginArray()
            writer.endArray()
            writer.endObject()
        }
        writer.endArray()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [[String: Any]])
        #expect(parsed.count == texts.count)
        for (object, text) in zip(parsed, texts) {
            #expect(object[text] as? String == text)
            #expect((object["n"] as? [Any])?.isEmpty == true)
        }
    }
}
