/// What a token-authenticated connection has accepted so far. A value owned by the connection;
/// the rules return the next one and the connection keeps it.
public struct ConnectionAuthState: Sendable, Hashable {
    /// The team of the first accepted push; other teams are refused on this connection.
    public var boundTeamID: String?
    /// The key of the first accepted push, and whether it was topic-specific.
    public var firstKeyID: String?
    /// The token currently in use and when it was first accepted here (epoch ms).
    public var currentToken: String?
    public var currentTokenAcceptedAt: Int64?
    /// What the current token says, so the next push with it needs no look-up at all.
    public var currentTokenDetails: CachedProviderToken?
    /// The registry's `keyGeneration` when `currentTokenDetails` was taken.
    public var currentTokenKeyGeneration: UInt64 = 0

    public init() {}

    /// Whether a push has been accepted (the connection is past its one-stream start).
    public var isEstablished: Bool { boundTeamID != nil }
}
