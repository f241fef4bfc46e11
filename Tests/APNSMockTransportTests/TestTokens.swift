import Crypto
import Foundation

/// Provider tokens for the HTTP/2 tests, signed by a key made for this test run.
enum TestTokens {
    static let keyID = "TESTKEY001"
    static let teamID = "TESTTEAM01"
    static var key: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: keyBytes) }
    private static let keyBytes = P256.Signing.PrivateKey().rawRepresentation

    /// A signed ES256 token issued at `issuedAt` (epoch seconds).
    static func make(keyID: String = keyID, teamID: String = teamID, issuedAt: Int64 = 1_700_000_000 - 10) -> String {
        func encode(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let input =
            encode(Data(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8)) + "."
            + encode(Data(#"{"iss":"\#(teamID)","iat":\#(issuedAt)}"#.utf8))
        return input + "." + encode(try! key.signature(for: Data(input.utf8)).rawRepresentation)
    }
}
