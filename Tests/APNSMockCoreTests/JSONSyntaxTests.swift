import APNSMockCore
import Foundation
import Testing

/// `JSONSyntax` against Foundation's parser: the same verdict on valid payloads and on
/// thousands of damaged ones.
@Suite struct JSONSyntaxTests {
    static func foundationVerdict(_ bytes: [UInt8]) -> JSONSyntax.TopLevel {
        guard let value = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            return .invalid
        }
        return value is [String: Any] ? .object : .otherValue
    }

    static func check(_ bytes: [UInt8]) -> JSONSyntax.TopLevel { bytes.withUnsafeBufferPointer(JSONSyntax.check) }

    static let samples = [
        #"{"aps":{"alert":{"title":"Hi","body":"There"},"badge":3,"sound":"default"},"id":-12.5e+3}"#,
        #"{"aps":{"content-available":1},"list":[1,2.0,-0.5,1E9,true,false,null,"a\"b\\c\/d\b\f\n\r\t\u00e9"]}"#,
        #"[{"a":[[[]]]},{},"",0]"#, #"  "héllo 🙂 \ud83d\ude42"  "#, "-0", "1.5e-7", "[ ]", "{ \"k\" : { } }",
    ]

    @Test func validSamplesAgree() {
        for sample in Self.samples {
            let bytes = Array(sample.utf8)
            #expect(Self.check(bytes) == Self.foundationVerdict(bytes), "\(sample)")
            #expect(Self.check(bytes) != .invalid, "\(sample)")
        }
    }

    @Test func damagedSamplesAgree() {
        // Seeded: the same 20,000 damaged texts on every run (several seeds).
        for seed: UInt64 in 1...5 { damagedSamplesAgree(seed: seed) }
    }

    func damagedSamplesAgree(seed: UInt64) {
        var generator = FastRandom(seed: (seed, 0x9E37_79B9, seed << 17, 42))
        let noise: [UInt8] = Array(#"{}[]":,.-+eE0123456789 \tnulltruefalse\u"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        var disagreements: [String] = []
        for _ in 0..<4_000 {
            var bytes = Array(Self.samples.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = noise.randomElement(using: &generator)!
                case 1: bytes.remove(at: index)
                default: bytes.insert(noise.randomElement(using: &generator)!, at: index)
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            let foundation = Self.foundationVerdict(bytes)
            let known =
                (foundation != .invalid && Self.foundationLeniency(bytes))
                || (foundation == .invalid && Self.beyondDoubleRange(bytes))
            if Self.check(bytes) != foundation && !known {
                disagreements.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    /// Where Foundation accepts what RFC 8259 does not (a comma before a closing bracket, a NUL
    /// byte): the check stays strict, as APNs's "JSON dictionary" is plain JSON.
    static func foundationLeniency(_ bytes: [UInt8]) -> Bool {
        if bytes.contains(0) { return true }
        let significant = bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        return zip(significant, significant.dropFirst()).contains { pair in
            pair.0 == UInt8(ascii: ",") && (pair.1 == UInt8(ascii: "]") || pair.1 == UInt8(ascii: "}"))
        }
    }

    /// Foundation refuses a number a `Double` cannot hold (`1e999`); the JSON grammar has no
    /// such limit, and neither has the check.
    static func beyondDoubleRange(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains(/[eE][+-]?[0-9]{3,}/)
    }

    @Test func strictWhereFoundationIsLenient() {
        for text in ["[5, ]", #"{"a":1,}"#, #"["\ud83d"]"#, #""\ude42""#] {
            #expect(Self.check(Array(text.utf8)) == .invalid, "\(text)")
        }
    }

    @Test func nestingIsBounded() {
        let deep = Array(String(repeating: "[", count: 100_000).utf8)
        #expect(Self.check(deep) == .invalid)
        let fine = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        #expect(Self.check(fine) == .otherValue)
    }
}
