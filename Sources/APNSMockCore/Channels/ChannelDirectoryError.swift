/// Why `ChannelDirectory` refused to create a channel, with the reason APNs answers.
public enum ChannelDirectoryError: Error, Sendable, Hashable {
    /// The app's broadcast capability is off (400 FeatureNotEnabled).
    case featureNotEnabled
    /// The app has `ChannelDirectory.limit` channels in that environment already (400
    /// CannotCreateChannelConfig).
    case limitReached
    /// A channel with the id asked for exists already (setup with an explicit id only).
    case channelExists

    /// The reason APNs answers with.
    public var reason: APNSReason {
        switch self {
        case .featureNotEnabled: .featureNotEnabled
        case .limitReached, .channelExists: .cannotCreateChannelConfig
        }
    }
}
