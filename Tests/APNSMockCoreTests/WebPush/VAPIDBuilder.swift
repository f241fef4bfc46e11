import APNSMockCore
import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A valid VAPID `Authorization` header (RFC 8292) for a push at `now`, with every part
/// changeable for the rule tables.
struct VAPIDBuilder: Sendable {
    static let audience = "https://webpush.apns-mock.test:8443"
    /// Now, epoch milliseconds.
    static let now: Int64 = 1_800_000_000_000
    static let nowSeconds = now / 1000
    /// The application server's key (the subscription's), and a second one; as bytes because
    /// swift-crypto's key types are not `Sendable`.
    static let applicationServerKeyBytes = [UInt8](repeating: 0x11, count: 32)
    static let otherKeyBytes = [UInt8](repeating: 0x22, count: 32)
    static var applicationServerKey: P256.Signing.PrivateKey {
        try! P256.Signing.PrivateKey(rawRepresentation: applicationServerKeyBytes)
    }
    static var otherKey: P256.Signing.PrivateKey { try! P256.Signing.PrivateKey(rawRepresentation: otherKeyBytes) }

    /// The key the JWT is signed with, as bytes.
    var signerBytes = Self.applicationServerKeyBytes
    /// The key the JWT is signed with.
    var signer: P256.Signing.PrivateKey {
        get { try! P256.Signing.PrivateKey(rawRepresentation: signerBytes) }
        set { signerBytes = Array(newValue.rawRepresentation) }
    }
    /// The `k` parameter; the signer's public key when `nil`.
    var publicKey: String?
    /// The key the subscription was made with.
    var subscriptionKey = Array(Self.applicationServerKey.publicKey.x963Representation)
    var header = #"{"typ":"JWT","alg":"ES256"}"#
    var audience: JSONValue? = .string(Self.audience)
    var expiration: JSONValue? = .integer(Self.nowSeconds + 12 * 3600)
    var subject: JSONValue? = .string("mailto:push@example.com")
    /// Sign with a DER signature instead of JWS's R||S.
    var derSignature = false
    /// Replaces the token's signature part.
    var signaturePart: String?
    /// Builds the header from the token and the key.
    var format: @Sendable (_ token: String, _ key: String) -> String = { "vapid t=\($0), k=\($1)" }
    /// The whole header, overriding everything else; `.some(nil)` for no header.
    var authorization: String??

    var claimsJSON: String {
        var members: [(key: String, value: JSONValue)] = []
        if let audience { members.append(("aud", audience)) }
        if let expiration { members.append(("exp", expiration)) }
        if let subject { members.append(("sub", subject)) }
        return JSONValue.object(members).jsonText
    }

    var token: String {
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claimsJSON.utf8))
        let signature = try! signer.signature(for: Array(signingInput.utf8))
        let signatureBytes = derSignature ? Array(signature.derRepresentation) : Array(signature.rawRepresentation)
        return signingInput + "." + (signaturePart ?? Base64URL.encode(signatureBytes))
    }

    var authorizationHeader: String? {
        if let authorization { return authorization }
        return format(token, publicKey ?? Base64URL.encode(Array(signer.publicKey.x963Representation)))
    }

    func verify() -> Result<VAPIDClaims, WebPushRejection> {
        VAPIDVerifier.verify(
            authorization: authorizationHeader, applicationServerKey: subscriptionKey, audience: Self.audience,
            now: Self.now)
    }

    func with(_ change: (inout VAPIDBuilder) -> Void) -> VAPIDBuilder {
        var copy = self
        change(&copy)
        return copy
    }
}
