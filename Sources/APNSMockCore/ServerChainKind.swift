/// Which generated server certificate chain `serve --chain` serves in place of the configured
/// certificate (`chain:` in the configuration file).
public enum ServerChainKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Leaf ← intermediate ← a root named like Apple's current APNs server root, written out
    /// for the client to trust.
    case appleLike = "apple-like"
    /// The same shape under a root nobody is given: a client must refuse the handshake.
    case untrustedRoot = "untrusted-root"

    public var description: String { rawValue }

    /// The names, for messages: `apple-like or untrusted-root`.
    public static let spelled = allCases.map(\.rawValue).joined(separator: " or ")
}
