import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Provider authentication tokens (ES256 JWTs) and the `.p8` keys that sign them.
public enum ProviderToken {
    /// A signed token: `{"alg":"ES256","kid":keyID}` . `{"iss":teamID,"iat":issuedAt}` . r||s.
    public static func make(privateKeyPEM: String, keyID: String, teamID: String, issuedAt: Date = Date()) throws
        -> String
    {
        let key = try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
        let claims = #"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#
        let signingInput = base64URL(Data(header.utf8)) + "." + base64URL(Data(claims.utf8))
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + base64URL(signature.rawRepresentation)
    }

    /// A new signing key: the `.p8` (PKCS#8 PEM) private key and its public key PEM.
    public static func generateKey() -> (privateKeyPEM: String, publicKeyPEM: String) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation + "\n", key.publicKey.pemRepresentation + "\n")
    }

    /// Base64url without padding.
    public static func base64URL(_ data: Data) -> String {
        Base64URL.encode(data)
    }
}
