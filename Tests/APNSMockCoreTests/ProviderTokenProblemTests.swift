import APNSMockCore
import Foundation
import Testing

private typealias B = RequestBuilder

/// A refused provider token's detail names what is actually wrong with it, not a generic
/// "not a JWT": an HS256 token is refused for its `alg`, a token without `kid` for its `kid`.
@Suite struct ProviderTokenProblemTests {
    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// An HMAC-signed token (a 32-byte signature) as a JWT library makes one by default.
    static let hs256 =
        encode(#"{"alg":"HS256","typ":"JWT"}"#) + "." + encode(#"{"iss":"TEAM123456","iat":1700000000}"#) + "."
        + encode(String(repeating: "s", count: 32))

    static let header = encode(#"{"alg":"ES256","kid":"KEY1234567"}"#)
    static let cases: [(String, String)] = [
        (hs256, "the provider token's alg is 'HS256'; APNs accepts only ES256"),
        ("not-a-jwt", "the provider token has 1 part separated by '.'; a JWT has three"),
        ("a.b", "has 2 parts"),
        ("e30.e30.c2ln", "the provider token's header has no 'alg'"),
        (encode(#"{"alg":"ES256"}"#) + ".e30.c2ln", "the provider token's header has no 'kid'"),
        (header + ".e30.c2ln", "the provider token's claims have no 'iss'"),
        (header + "." + encode(#"{"iss":"TEAM123456"}"#) + ".c2ln", "the provider token's claims have no 'iat'"),
        (
            header + "." + encode(#"{"iss":"TEAM123456","iat":1}"#) + ".c2ln",
            "the provider token's signature is 3 bytes"
        ),
        ("%%%.e30.c2ln", "the provider token's header (its first part) is not a base64url-encoded JSON object"),
    ]

    @Test(arguments: cases)
    func namesTheFirstThingWrong(_ token: String, _ expected: String) {
        #expect(ProviderTokenParser.parse(token) == nil)
        let problem = ProviderTokenParser.problem(with: token[...])
        #expect(problem.contains(expected), "\(problem)")
    }

    /// Through the rules: the detail of the 403 is the problem.
    @Test func theRejectionDetailIsTheProblem() {
        var builder = B()
        builder.authorization = "bearer " + Self.hs256
        let result = builder.evaluate()
        #expect(result.reason == .invalidProviderToken)
        #expect(result.detail?.contains("alg is 'HS256'") == true, "\(String(describing: result.detail))")
    }
}
