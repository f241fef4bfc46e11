import APNSMockCore
import Foundation
import Testing

/// The provider token's header and claims as the project's JSON reader (`JSONValue`) reads them:
/// the cases where it could differ from Foundation's `JSONSerialization`, which read them before.
@Suite struct ProviderTokenJSONTests {
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A token of `header` and `claims` with a 64-byte (r||s-shaped) signature.
    static func token(_ header: String, _ claims: String) -> String {
        encode(header) + "." + encode(claims) + "." + encode(String(repeating: "s", count: 64))
    }

    static let header = #"{"alg":"ES256","kid":"KEY1234567"}"#

    /// `iat` as written, and the seconds it is read as (`nil`: the token is refused).
    static let issuedAtRows: [(String, Int64?)] = [
        ("1700000000", 1_700_000_000),
        ("1700000000.9", 1_700_000_000),
        ("1.7e9", 1_700_000_000),
        ("17E8", 1_700_000_000),
        ("-0.5", -1),
        ("0", 0),
        (#""1700000000""#, 1_700_000_000),
        (#"" 1700000000 ""#, 1_700_000_000),
        (#""1.7e9""#, 1_700_000_000),
        (#""soon""#, nil),
        (#""""#, nil),
        // JSONSerialization read `true` as the number 1; a boolean is not a time.
        ("true", nil),
        ("false", nil),
        ("null", nil),
        ("[1700000000]", nil),
        (#"{"seconds":1700000000}"#, nil),
        ("1e15", nil),
        // Not JSON for JSONSerialization; infinite here: refused both ways.
        ("1e400", nil),
    ]

    @Test(arguments: issuedAtRows)
    func issuedAtIsAnIntegerAFloatOrANumericString(_ written: String, _ seconds: Int64?) {
        let parsed = ProviderTokenParser.parse(Self.token(Self.header, #"{"iss":"TEAM123456","iat":\#(written)}"#))
        #expect(parsed?.issuedAt == seconds)
        if seconds == nil {
            let problem = ProviderTokenParser.problem(
                with: Self.token(Self.header, #"{"iss":"TEAM123456","iat":\#(written)}"#)[...])
            #expect(problem.contains("no 'iat' as a number of seconds"), "\(problem)")
        }
    }

    /// A name given twice counts by its last value (RFC 7515 5.2; JSONSerialization kept the
    /// last too).
    @Test func aRepeatedNameCountsByItsLastValue() throws {
        let parsed = try #require(
            ProviderTokenParser.parse(
                Self.token(
                    #"{"alg":"HS256","kid":"OLD0000000","alg":"ES256","kid":"KEY1234567"}"#,
                    #"{"iss":"OTHER00000","iat":1,"iss":"TEAM123456","iat":1700000000}"#)))
        #expect(parsed.algorithm == "ES256")
        #expect(parsed.keyID == "KEY1234567")
        #expect(parsed.teamID == "TEAM123456")
        #expect(parsed.issuedAt == 1_700_000_000)
        // The last `alg` is the one refused.
        let refused = Self.token(#"{"alg":"ES256","alg":"HS256","kid":"KEY1234567"}"#, #"{"iss":"T","iat":1}"#)
        #expect(ProviderTokenParser.problem(with: refused[...]).contains("alg is 'HS256'"))
    }

    /// A header or claims part that is JSON but not an object, or not JSON at all.
    static let notAnObjectRows: [(header: String, claims: String, problem: String)] = [
        ("[1]", #"{"iss":"T","iat":1}"#, "header (its first part) is not a base64url-encoded JSON object"),
        (#""ES256""#, #"{"iss":"T","iat":1}"#, "header (its first part) is not a base64url-encoded JSON object"),
        ("1", #"{"iss":"T","iat":1}"#, "header (its first part) is not a base64url-encoded JSON object"),
        ("null", #"{"iss":"T","iat":1}"#, "header (its first part) is not a base64url-encoded JSON object"),
        (
            #"{"alg":"ES256",}"#, #"{"iss":"T","iat":1}"#,
            "header (its first part) is not a base64url-encoded JSON object"
        ),
        (
            #"{"alg":"ES256"} x"#, #"{"iss":"T","iat":1}"#,
            "header (its first part) is not a base64url-encoded JSON object"
        ),
        (header, "[]", "claims (its second part) are not a base64url-encoded JSON object"),
        (header, #"{"iss":"T","iat":1"#, "claims (its second part) are not a base64url-encoded JSON object"),
    ]

    @Test(arguments: notAnObjectRows)
    func aPartThatIsNotAJSONObjectIsRefused(_ row: (header: String, claims: String, problem: String)) {
        let token = Self.token(row.header, row.claims)
        #expect(ProviderTokenParser.parse(token) == nil)
        let problem = ProviderTokenParser.problem(with: token[...])
        #expect(problem.contains(row.problem), "\(problem)")
    }

    /// Names whose value is not a string are missing; whitespace, escapes and extra members are
    /// JSON as usual.
    @Test func valuesAreReadAsJSON() throws {
        #expect(ProviderTokenParser.parse(Self.token(#"{"alg":"ES256","kid":12}"#, #"{"iss":"T","iat":1}"#)) == nil)
        #expect(ProviderTokenParser.parse(Self.token(Self.header, #"{"iss":true,"iat":1}"#)) == nil)
        #expect(ProviderTokenParser.parse(Self.token(#"{"alg":"ES256","kid":""}"#, #"{"iss":"T","iat":1}"#)) == nil)
        let parsed = try #require(
            ProviderTokenParser.parse(
                Self.token(
                    " {\n\t\"typ\" : \"JWT\" , \"alg\" : \"ES\\u0032\\u00356\", \"kid\":\"KEY\\/1\", \"x\":{\"y\":[1,null]} } ",
                    #"{"iss":"TEAM\"1","iat":1700000000,"extra":[{}]}"#)))
        #expect(parsed.algorithm == "ES256")
        #expect(parsed.keyID == "KEY/1")
        #expect(parsed.teamID == "TEAM\"1")
    }
}
