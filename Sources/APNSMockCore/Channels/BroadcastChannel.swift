/// One broadcast channel: what its creation said, and its kept message. (The devices
/// subscribed to it are in `ChannelSubscriptions`.)
public struct BroadcastChannel: Sendable, Hashable {
    /// The channel id APNs issued: base64 of random bytes (`apns-channel-id`).
    public var id: String
    /// The app and environment the channel belongs to.
    public var scope: ChannelScope
    public var storagePolicy: MessageStoragePolicy
    /// The `push-type` of the create request, as sent (`LiveActivity` in some letter case).
    public var pushType: String
    /// When the channel was created, epoch milliseconds.
    public var createdAt: Int64
    /// A storage channel's kept message (its most recent broadcast), if any.
    public var storedMessage: StoredBroadcast?

    public init(
        id: String, scope: ChannelScope, storagePolicy: MessageStoragePolicy, pushType: String, createdAt: Int64
    ) {
        self.id = id
        self.scope = scope
        self.storagePolicy = storagePolicy
        self.pushType = pushType
        self.createdAt = createdAt
    }

    /// The app's bundle ID.
    public var bundleID: String { scope.bundleID }
    /// The channel's environment.
    public var environment: APNSEnvironment { scope.environment }
}
