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

    /// The same for an object of more fields than are compared pair by pair (16; 15 fields and
    /// the repeated one are 16): there a dictionary of each key's last place decides.
    @Test(arguments: [3, 15, 16, 40])
    func aRepeatedKeyKeepsItsLastValueInAnObjectOfAnySize(_ count: Int) throws {
        let fields = (0..<count).map { "\"k\($0)\":\($0)" } + ["\"k0\":-1"]
        let value = try SpecValue.parse(json: Array("{\(fields.joined(separator: ","))}".utf8))
        guard case .object(let read) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(read.map(\.key) == (1..<count).map { "k\($0)" } + ["k0"])
        guard case .integer(-1) = read[count - 1].value else {
            Issue.record("k0 is \(read[count - 1].value)")
            return
        }
    }

    /// A bulk body's entry that is no object is named by its place in the list.
    @Test func anEntryThatIsNoObjectIsNamedByItsIndex() {
        #expect {
            _ = try DeviceSpec.decodeBulk(
                json: Array(#"{"devices":[{"token":"\#(String(repeating: "ab", count: 32))"},7]}"#.utf8), now: 0)
        } throws: { error in
            "\(error)" == "devices[1] must be an object of named fields; got a number"
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
