/// What a verified VAPID credential says (RFC 8292 §2–3): who sends (`sub`), to which push
/// service (`aud`), until when (`exp`), with which application server key (`k`).
public struct VAPIDClaims: Sendable, Hashable {
    /// The `sub` claim: the sender's contact, a `mailto:` or `https:` URL.
    public var subject: String
    /// The `aud` claim: the push service's origin.
    public var audience: String
    /// The `exp` claim, seconds since 1970 (a fraction dropped).
    public var expiration: Int64
    /// `k`, decoded: the application server's public key as a 65-byte uncompressed P-256 point.
    public var publicKey: [UInt8]
    /// The JWT as sent (`t`); a record keeps it without its signature (`JWTSummary`).
    public var token: String

    public init(subject: String, audience: String, expiration: Int64, publicKey: [UInt8], token: String) {
        self.subject = subject
        self.audience = audience
        self.expiration = expiration
        self.publicKey = publicKey
        self.token = token
    }

    /// `publicKey` as base64url, as the `k` parameter and `applicationServerKey` write it.
    public var publicKeyBase64URL: String { Base64URL.encode(publicKey) }
}
