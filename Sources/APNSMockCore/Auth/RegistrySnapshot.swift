/// The keys, devices, known tokens and broadcast channels as the rules see them for one
/// request: a value, taken from the server's registry under its lock and read without one.
public struct RegistrySnapshot: Sendable {
    public var keys: [String: ProviderKey]
    public var devices: [String: DeviceRegistration]
    /// Tokens already parsed (and verified when their key is known), by the whole token string.
    public var tokens: [String: CachedProviderToken]
    /// Changes whenever a key is added, replaced or removed: a token remembered under another
    /// generation must be looked at again.
    public var keyGeneration: UInt64 = 0
    /// The broadcast channels of every app and environment, their subscribers, and each app's
    /// broadcast capability.
    public var channels = ChannelDirectory()

    public init(
        keys: [String: ProviderKey] = [:], devices: [String: DeviceRegistration] = [:],
        tokens: [String: CachedProviderToken] = [:]
    ) {
        self.keys = keys
        self.devices = devices
        self.tokens = tokens
    }
}
