import APNSMockCore
import Testing

/// `PayloadKind.classify`. APNs expects "a JSON dictionary" ("Generating a remote
/// notification"); the mock classifies other bodies for the record and `--strict-payload`.
@Suite("PayloadKind.classify")
struct PayloadKindTests {
    struct PayloadCase: Sendable, CustomTestStringConvertible {
        let bytes: [UInt8]
        let kind: PayloadKind
        let label: String
        var testDescription: String { "\(label) → \(kind)" }
        init(_ text: String, _ kind: PayloadKind) {
            self.bytes = Array(text.utf8)
            self.kind = kind
            self.label = text.isEmpty ? "(empty)" : String(text.prefix(40))
        }
        init(bytes: [UInt8], _ kind: PayloadKind, _ label: String) {
            self.bytes = bytes
            self.kind = kind
            self.label = label
        }
    }

    static let cases: [PayloadCase] = [
        PayloadCase("", .empty),
        PayloadCase("{}", .object),
        PayloadCase(#"{"aps":{"alert":"hi"}}"#, .object),
        PayloadCase(#"  {"aps":{"alert":"hi","badge":1},"custom":[1,2]}  "#, .object),
        PayloadCase(#"{"aps":{"alert":"héllo 🙂"}}"#, .object),
        PayloadCase("[]", .otherJSON),
        PayloadCase(#"[{"aps":{}}]"#, .otherJSON),
        PayloadCase(#""hi""#, .otherJSON),
        PayloadCase("42", .otherJSON),
        PayloadCase("true", .otherJSON),
        PayloadCase("null", .otherJSON),
        PayloadCase("hello", .notJSON),
        PayloadCase("{", .notJSON),
        PayloadCase(#"{"aps":}"#, .notJSON),
        PayloadCase(#"{"a":1} trailing"#, .notJSON),
        PayloadCase(#"{"a":1}{"b":2}"#, .notJSON),
        PayloadCase("   ", .notJSON),
        PayloadCase("{'aps':{}}", .notJSON),
        PayloadCase(bytes: [0xFF, 0xFE, 0x00], .notJSON, "invalid UTF-8"),
    ]

    @Test("classify", arguments: cases)
    func classify(_ row: PayloadCase) {
        #expect(PayloadKind.classify(row.bytes) == row.kind)
    }

    @Test("A JSON object truncated at the limit is not JSON")
    func truncatedObject() {
        let full = RequestBuilder.jsonPayload(size: 4097)
        #expect(PayloadKind.classify(full) == .object)
        #expect(PayloadKind.classify(Array(full.prefix(4096))) == .notJSON)
    }

    @Test("Raw values are stable (they appear in recorded deliveries)")
    func rawValues() {
        let kinds: [PayloadKind] = [.empty, .object, .otherJSON, .notJSON, .truncated]
        #expect(kinds.map(\.rawValue) == ["empty", "object", "otherJSON", "notJSON", "truncated"])
    }
}
