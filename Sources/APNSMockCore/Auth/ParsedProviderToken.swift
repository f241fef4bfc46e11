import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A provider token (JWT) taken apart, not yet trusted.
public struct ParsedProviderToken: Sendable {
    /// `alg` from the header.
    public var algorithm: String
    /// `kid` from the header.
    public var keyID: String
    /// `iss` from the claims: the team id.
    public var teamID: String
    /// `iat` from the claims, epoch seconds (fractions dropped).
    public var issuedAt: Int64
    /// `<header>.<claims>` as sent: what the signature covers.
    public var signingInput: [UInt8]
    /// The ES256 signature in raw r||s form (a DER signature is converted).
    public var signature: [UInt8]

    /// Whether the signature was made by `key`.
    public func isSigned(by key: ProviderKey) -> Bool {
        guard let publicKey = key.publicKey,
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return publicKey.isValidSignature(signature, for: signingInput)
    }
}
