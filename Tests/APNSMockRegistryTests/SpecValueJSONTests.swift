import APNSMockCore
import APNSMockRegistry
import Testing

/// Admin bodies and specs are read by Core's JSON reader (`JSONValue`), the one that reads
/// payloads and provider tokens: one reader, one wording of a syntax error.
@Suite struct SpecValueJSONTests {
    /// The keys of an object, in the order `value` holds them.
    static func keys(_ value: SpecValue) -> [String] {
        guard case .object(let fields) = value else { return [] }
        return fields.map(\.key)
    }

    @Test func fieldsKeepTheOrderWritten() throws {
        let value = try SpecValue.parse(json: Array(#"{"topic":"a","environment":"sandbox","bundleId":"b"}"#.utf8))
        #expect(Self.keys(value) == ["topic", "environment", "bundleId"])
    }

    /// RFC 8259 leaves a repeated name to the reader; this one keeps the last value, where it
    /// was last written.
    @Test func aRepeatedKeyKeepsItsLastValue() throws {
        let value = try SpecValue.parse(json: Array(#"{"a":1,"b":2,"a":3}"#.utf8))
        guard case .object(let fields) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(fields.map(\.key) == ["b", "a"])
        guard case .integer(3) = fields[1].value else {
            Issue.record("a is \(fields[1].value)")
            return
        }
    }

    @Test(arguments: [
        ("7", "integer"), ("-9223372036854775808", "integer"), ("7.0", "number"), ("1e3", "number"),
        ("9223372036854775808", "number"), ("true", "bool"), ("null", "null"), (#""7""#, "string"),
    ])
    func numbersWithoutAFractionAreIntegers(_ text: String, _ kind: String) throws {
        let value = try SpecValue.parse(json: Array(text.utf8))
        let found: String
        switch value {
        case .integer: found = "integer"
        case .number: found = "number"
        case .bool: found = "bool"
        case .null: found = "null"
        case .string: found = "string"
        default: found = "\(value)"
        }
        #expect(found == kind, "\(text)")
    }

    /// The problem names where the text stops being JSON, as every other JSON reader of the
    /// project words it.
    @Test func notJSONNamesTheLineAndColumn() {
        #expect {
            _ = try SpecValue.parse(json: Array("{\n  \"a\": tru\n}".utf8))
        } throws: { error in
            let text = "\(error)"
            return text.contains("is not valid JSON") && text.contains("line 2")
        }
    }
}
