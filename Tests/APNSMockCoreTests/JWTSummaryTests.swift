import APNSMockCore
import Foundation
import Testing

/// `JWTSummary`: decodes a provider token's header and claims for the record, never the
/// signature. A provider token is `bearer <header>.<claims>.<signature>`, each segment
/// base64url without padding ("Establishing a token-based connection to APNs"; RFC 7519).
@Suite("JWTSummary")
struct JWTSummaryTests {
    static let header = #"{"alg":"ES256","kid":"ABC123DEFG"}"#
    static let claims = #"{"iss":"DEF123GHIJ","iat":1700000000}"#
    static let signature = "MEUCIQDx-signature_bytes"

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static var token: String { "\(base64URL(header)).\(base64URL(claims)).\(signature)" }

    @Test("Decodes header and claims from `bearer h.c.sig`")
    func decodesBearer() {
        let summary = JWTSummary(authorization: "bearer \(Self.token)")
        #expect(summary.headerJSON == Self.header)
        #expect(summary.claimsJSON == Self.claims)
    }

    @Test(
        "The scheme's case and extra spaces do not matter", arguments: ["bearer ", "Bearer ", "BEARER ", "bearer   "])
    func schemeSpelling(prefix: String) {
        let summary = JWTSummary(authorization: prefix + Self.token)
        #expect(summary.headerJSON == Self.header)
        #expect(summary.claimsJSON == Self.claims)
    }

    @Test("Decodes a token without the scheme, and a token without the signature")
    func withoutSchemeOrSignature() {
        let bare = JWTSummary(authorization: Self.token)
        #expect(bare.headerJSON == Self.header)
        #expect(bare.claimsJSON == Self.claims)
        let unsigned = JWTSummary(authorization: "bearer \(Self.base64URL(Self.header)).\(Self.base64URL(Self.claims))")
        #expect(unsigned.headerJSON == Self.header)
        #expect(unsigned.claimsJSON == Self.claims)
    }

    @Test("Unpadded segments of every length modulo 4 decode", arguments: 0..<3)
    func padding(extra: Int) {
        // Lengths 36, 37, 38 bytes give base64 of every padding class.
        let claims = #"{"iss":"DEF123GHIJ","iat":17000000"# + String(repeating: "0", count: extra) + "}"
        let summary = JWTSummary(authorization: "bearer \(Self.base64URL(Self.header)).\(Self.base64URL(claims)).sig")
        #expect(summary.claimsJSON == claims)
    }

    @Test("base64url's - and _ are decoded")
    func urlAlphabet() throws {
        // Bytes chosen so that standard base64 holds both '+' and '/'.
        let claims = try #require(
            (0..<64).lazy.map { #"{"sub":"\#(String(repeating: "~", count: $0))?>>?"}"# }
                .first { text in
                    let standard = Data(text.utf8).base64EncodedString()
                    return standard.contains("+") && standard.contains("/")
                })
        let segment = Self.base64URL(claims)
        #expect(segment.contains("-") && segment.contains("_"))
        let summary = JWTSummary(authorization: "bearer \(Self.base64URL(Self.header)).\(segment).sig")
        #expect(summary.claimsJSON == claims)
    }

    @Test("A header that decodes and claims that do not")
    func halfValid() {
        let summary = JWTSummary(authorization: "bearer \(Self.base64URL(Self.header)).!!!.sig")
        #expect(summary.headerJSON == Self.header)
        #expect(summary.claimsJSON == nil)
    }

    @Test("Base64 that is not JSON gives nil")
    func notJSON() {
        let summary = JWTSummary(
            authorization: "bearer \(Self.base64URL("not json")).\(Self.base64URL("[1,2")).sig")
        #expect(summary.headerJSON == nil)
        #expect(summary.claimsJSON == nil)
    }

    @Test(
        "Malformed or garbage input gives nil fields and no crash",
        arguments: [
            "", " ", "bearer", "bearer ", "bearer .", "bearer ..", "bearer ...", "bearer a", "bearer garbage",
            "bearer a.b.c", "bearer %%%.***.!!!", "bearer 🙂.💥.x", "bearer \u{0}.\u{1}.\u{2}",
            "bearer " + String(repeating: ".", count: 1000), "bearer " + String(repeating: "A", count: 10001),
            "bearer ====.====.====", "basic dXNlcjpwYXNz",
        ])
    func garbage(authorization: String) {
        let summary = JWTSummary(authorization: authorization)
        #expect(summary.headerJSON == nil)
        #expect(summary.claimsJSON == nil)
    }

    @Test("The smallest JSON object, {} (e30), decodes")
    func emptyObjects() {
        let summary = JWTSummary(authorization: "bearer e30.e30.")
        #expect(summary.headerJSON == "{}")
        #expect(summary.claimsJSON == "{}")
    }

    @Test("strippingSignature removes only the signature")
    func strippingSignature() {
        let h = Self.base64URL(Self.header)
        let c = Self.base64URL(Self.claims)
        #expect(JWTSummary.strippingSignature("bearer \(h).\(c).\(Self.signature)") == "bearer \(h).\(c)")
        #expect(JWTSummary.strippingSignature("bearer h.c.sig") == "bearer h.c")
        #expect(JWTSummary.strippingSignature("bearer h.c.") == "bearer h.c")
        #expect(JWTSummary.strippingSignature("a.b.c.d") == "a.b.c")
    }

    @Test(
        "strippingSignature leaves a value without a signature alone",
        arguments: ["bearer h.c", "bearer h", "", "h.c", "."])
    func strippingNothing(authorization: String) {
        #expect(JWTSummary.strippingSignature(authorization) == authorization)
    }

    @Test("The stripped form still decodes to the same header and claims")
    func strippedStillDecodes() {
        let stripped = JWTSummary.strippingSignature("bearer \(Self.token)")
        #expect(!stripped.contains(Self.signature))
        let summary = JWTSummary(authorization: stripped)
        #expect(summary.headerJSON == Self.header)
        #expect(summary.claimsJSON == Self.claims)
    }
}
