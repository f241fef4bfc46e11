import Crypto

/// A token-signing key the mock was told about (APNs's "Keys" in the developer account).
///
/// Since 2025 Apple issues team-scoped keys (optionally limited to one environment) and
/// topic-specific keys (limited to some bundle IDs, each with at most one related key).
public struct ProviderKey: Sendable {
    /// The 10-character key id (`kid`).
    public var keyID: String
    /// The 10-character team id the key belongs to (`iss`).
    public var teamID: String
    /// The public half of the ES256 key, as its x963 bytes (held as bytes: the key type is not
    /// `Sendable` in this swift-crypto).
    public var publicKeyX963: [UInt8]
    public var environment: EnvironmentScope
    /// The bundle IDs of a topic-specific key; empty for a team-scoped key.
    public var topics: [String]
    /// The one key related to a topic-specific key.
    public var relatedKeyID: String?

    public init(
        keyID: String, teamID: String, publicKey: P256.Signing.PublicKey, environment: EnvironmentScope = .both,
        topics: [String] = [], relatedKeyID: String? = nil
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKeyX963 = Array(publicKey.x963Representation)
        self.environment = environment
        self.topics = topics
        self.relatedKeyID = relatedKeyID
    }

    /// The public key.
    public var publicKey: P256.Signing.PublicKey? { try? P256.Signing.PublicKey(x963Representation: publicKeyX963) }

    /// Whether the key is limited to some topics.
    public var isTopicSpecific: Bool { !topics.isEmpty }

    /// Whether a push to `topic` is within this key's topics (a topic-specific key covers its
    /// bundle IDs and their push-type suffixes, e.g. `com.example.app.voip`).
    public func covers(topic: String) -> Bool {
        guard isTopicSpecific else { return true }
        return topics.contains { topic == $0 || topic.hasPrefix($0 + ".") }
    }
}
