import Testing

@testable import APNSMockCore

/// A matcher value that can never match is refused, naming the field and the allowed form;
/// one that can is taken. The same rules hold in a query string and in JSON (or YAML).
@Suite("DeliveryMatcher: values a field takes")
struct MatcherValueTests {
    static let token = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"

    /// (field, value written in a query string) that are taken.
    static let valid: [(String, String)] = [
        ("token", token), ("token", token.uppercased()), ("token", String(repeating: "ab", count: 8)),
        ("token", String(repeating: "Ab", count: 256)),
        ("tokenPrefix", "7"), ("tokenPrefix", "740F"), ("tokenPrefix", String(repeating: "a", count: 512)),
        ("pushType", "alert"), ("pushType", "liveactivity"), ("pushType", "controls"),
        ("status", "200"), ("status", "410"), ("status", "599"),
        ("priority", "10"), ("priority", "5"), ("priority", "1"),
        ("environment", "sandbox"), ("environment", "production"),
        ("kind", "push"), ("kind", "broadcast"), ("kind", "channel"),
        ("outcome", "answered"), ("outcome", "connectionClosed"), ("outcome", "goAway"),
    ]

    /// (field, value, a part of the sentence that names the allowed form) that are refused.
    static let invalid: [(String, String, String)] = [
        ("token", "zz", "must be an even number of hex digits, 8–256 bytes; got 'zz'"),
        ("token", "abcd", "8–256 bytes"),
        ("token", String(repeating: "a", count: 17), "even number of hex digits"),
        ("token", String(repeating: "ab", count: 257), "8–256 bytes"),
        ("token", String(token.dropLast(2)) + "zz", "hex digits"),
        ("token", "", "is empty"),
        ("tokenPrefix", "xyz", "must be the start of a device token: 1 to 512 hex digits; got 'xyz'"),
        ("tokenPrefix", "ab cd", "hex digits"),
        ("tokenPrefix", String(repeating: "a", count: 513), "1 to 512 hex digits"),
        ("pushType", "Alert", "must be one of alert, background"),
        ("pushType", "push", "must be one of alert"),
        ("status", "199", "must be an HTTP status code from 200 to 599"),
        ("status", "100", "from 200 to 599"),
        ("status", "600", "from 200 to 599"),
        ("status", "0200", "from 200 to 599"),
        ("status", "+200", "from 200 to 599"),
        ("status", "ok", "from 200 to 599"),
        ("priority", "0", "must be an apns-priority: 10, 5 or 1; got '0'"),
        ("priority", "7", "10, 5 or 1"),
        ("priority", "100", "10, 5 or 1"),
        ("priority", "05", "10, 5 or 1"),
        ("priority", "high", "10, 5 or 1"),
        ("environment", "both", "must be 'sandbox' or 'production'; got 'both'"),
        ("environment", "Sandbox", "'sandbox' or 'production'"),
        ("kind", "pushes", "must be one of push, broadcast, channel, webPush; got 'pushes'"),
        ("outcome", "delivered", "must be one of pending, hung, answered"),
    ]

    @Test(arguments: valid)
    func queryValueIsTaken(_ row: (String, String)) throws {
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: row.0, value: row.1)
        #expect(matcher.conditions.count == 1)
        #expect(matcher.conditions.first?.fieldName == row.0)
    }

    @Test(arguments: invalid)
    func queryValueIsRefusedNamingTheField(_ row: (String, String, String)) {
        var matcher = DeliveryMatcher()
        let error = #expect(throws: MatcherError.self) { try matcher.add(queryParameter: row.0, value: row.1) }
        #expect(error?.field == row.0)
        #expect(error?.code == (row.1.isEmpty ? .emptyValue : .invalidValue))
        let message = error?.message(naming: "query parameter") ?? ""
        #expect(message.hasPrefix("query parameter '\(row.0)' "), "\(message)")
        #expect(message.contains(row.2), "\(message)")
    }

    @Test(arguments: invalid)
    func jsonValueIsRefusedNamingItsPath(_ row: (String, String, String)) {
        let error = #expect(throws: MatcherError.self) {
            try DeliveryMatcher(json: .object([(row.0, .string(row.1))]), at: "expect[2].match")
        }
        #expect(error?.field == "expect[2].match.\(row.0)")
        #expect(error?.message.contains(row.2) == true, "\(error?.message ?? "")")
    }

    @Test func tokensAreStoredLowerCase() throws {
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "token", value: Self.token.uppercased())
        try matcher.add(queryParameter: "tokenPrefix", value: "740F")
        #expect(matcher.conditions == [.token(Self.token), .tokenPrefix("740f")])
    }

    /// A token that reads as a JSON (or YAML) number would lose its leading zeros: hex is text.
    @Test func jsonTokenMustBeAString() {
        for field in ["token", "tokenPrefix"] {
            let error = #expect(throws: MatcherError.self) {
                try DeliveryMatcher(json: .object([(field, .integer(1_234_567_890_123_456))]))
            }
            #expect(
                error?.message
                    == "'match.\(field)' must be a string of hex digits; got 1234567890123456"
            )
        }
    }

    /// Numbers are read by value, as JSON Schema's `integer` says; text must be plain decimal.
    @Test func jsonNumbersAreReadByValue() throws {
        let json = try #require(JSONValue.parse(#"{"status": 4.1e2, "priority": 5.0}"#))
        #expect(try DeliveryMatcher(json: json).conditions == [.status(410), .priority(5)])
        for text in [#"{"status": 199}"#, #"{"status": 410.5}"#, #"{"priority": 7}"#, #"{"priority": "05"}"#] {
            let json = try #require(JSONValue.parse(text))
            #expect(throws: MatcherError.self) { try DeliveryMatcher(json: json) }
        }
    }
}
