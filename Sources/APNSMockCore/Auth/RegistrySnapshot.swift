public import HashTreeCollections

/// The keys, devices, known tokens and broadcast channels as the rules see them for one
/// request: a value, taken from the server's registry under its lock and read without one.
public struct RegistrySnapshot: Sendable {
    public var keys: [String: ProviderKey]
    /// The registered devices by token (lower case): a persistent hash tree, so that changing
    /// one device while connections hold earlier snapshots copies a path of the tree, not the
    /// whole table (a million devices cost the same to change as ten).
    public var devices: TreeDictionary<String, DeviceRegistration>
    /// Tokens already parsed (and verified when their key is known), by the whole token string.
    public var tokens: [String: CachedProviderToken]
    /// Changes whenever a key is added, replaced or removed: a token remembered under another
    /// generation must be looked at again.
    public var keyGeneration: UInt64 = 0
    /// The Web Push subscriptions by id, deleted and expired ones included (a push to them is
    /// answered 410, not 404).
    public var webPushSubscriptions: [String: WebPushSubscription] = [:]
    /// The broadcast channels of every app and environment, their subscribers, and each app's
    /// broadcast capability. Kept behind one reference (copy-on-write), so that copying a
    /// snapshot for every device push costs one retain, not one per collection of the directory.
    public var channels: ChannelDirectory {
        get { channelBox.value }
        set {
            if isKnownUniquelyReferenced(&channelBox) {
                channelBox.value = newValue
            } else {
                channelBox = ChannelBox(newValue)
            }
        }
        _modify {
            if !isKnownUniquelyReferenced(&channelBox) { channelBox = ChannelBox(channelBox.value) }
            yield &channelBox.value
        }
    }
    private var channelBox = ChannelBox(ChannelDirectory())

    /// The box of `channels`. `@unchecked Sendable`: a box is changed only through `channels`'
    /// setter or `_modify`, and only while uniquely referenced (a shared box is copied first), so
    /// no box another snapshot or thread can see is ever changed.
    private final class ChannelBox: @unchecked Sendable {
        var value: ChannelDirectory
        init(_ value: ChannelDirectory) { self.value = value }
    }

    /// The device registered under `token` (lower case), if any. Every device push asks: an empty
    /// table answers without hashing the token (a `TreeDictionary` look-up hashes its key first,
    /// even in an empty tree: about 600 instructions for a 64-character token, which a
    /// `Dictionary` did not spend when empty).
    public func device(_ token: String) -> DeviceRegistration? {
        devices.isEmpty ? nil : devices[token]
    }

    public init(
        keys: [String: ProviderKey] = [:], devices: [String: DeviceRegistration] = [:],
        tokens: [String: CachedProviderToken] = [:]
    ) {
        self.keys = keys
        self.devices = TreeDictionary(uniqueKeysWithValues: devices.map { ($0.key, $0.value) })
        self.tokens = tokens
    }
}
