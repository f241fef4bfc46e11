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
            writer.key(escaping: text)
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

    /// Numbers are written digit by digit: the ends of every width, zero, and negatives come
    /// out as `String(value)` writes them.
    @Test func numbersAreWrittenAsTheirDecimalText() {
        let values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, 1_764_115_200_000, .max, .min]
        var writer = JSONWriter()
        writer.beginArray()
        for value in values { writer.number(value) }
        writer.number(UInt64.max)
        writer.number(Int32.min)
        writer.number(UInt8(255))
        writer.number(Int?.none)
        writer.endArray()
        let expected = values.map(String.init) + [String(UInt64.max), String(Int32.min), "255", "null"]
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "[" + expected.joined(separator: ",") + "]")
    }

    /// The three ways to write a key agree: fixed at build time, known at run time, as bytes.
    @Test func keysWrittenEveryWayAgree() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("fixed")
        writer.number(1)
        writer.key(escaping: "run \"time\"")
        writer.number(2)
        Array("by\ntes".utf8).withUnsafeBufferPointer { writer.key(utf8: $0) }
        writer.number(3)
        writer.endObject()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Int])
        #expect(parsed == ["fixed": 1, "run \"time\"": 2, "by\ntes": 3])
    }
}
