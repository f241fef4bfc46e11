/// What was learned from a provider token the first time it was seen, so that reusing it (the
/// normal case) costs a dictionary look-up instead of a parse and a signature check. Expiry,
/// team and key rules still run on every push.
public struct CachedProviderToken: Sendable, Hashable {
    public var keyID: String
    public var teamID: String
    /// `iat`, epoch seconds.
    public var issuedAt: Int64
    /// The signature was checked against a registered key (false: the key is unknown).
    public var signatureVerified: Bool

    public init(keyID: String, teamID: String, issuedAt: Int64, signatureVerified: Bool) {
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
        self.signatureVerified = signatureVerified
    }
}
