/// The broadcast channels of every app, per environment, and each app's broadcast capability
/// (the devices subscribed to them are in `ChannelSubscriptions`): a
/// plain value (no lock), so the rules read a copy and the registry that owns the state changes
/// it under its own lock (APNS-REFERENCE §6).
///
/// - Channels are per app and environment: a sandbox channel is not found in production.
/// - An id is never issued twice: every id ever issued is remembered, also after its channel
///   is deleted or the app's capability is turned off.
/// - An app has at most `limit` channels in each environment (`CannotCreateChannelConfig`).
/// - The broadcast capability is on for every app until turned off; turning it off deletes all
///   the app's channels in both environments, as Apple does.
public struct ChannelDirectory: Sendable {
    /// Apple's limit: 10,000 channels per app and environment.
    public static let defaultLimit = 10_000

    /// The most channels an app may have in one environment.
    public var limit: Int

    private var channelsByScope: [ChannelScope: [String: BroadcastChannel]] = [:]
    private var scopeByID: [String: ChannelScope] = [:]
    private var issuedIDs: Set<String> = []
    private var disabledBundleIDs: Set<String> = []
    /// Whether a deleted channel's kept message may still be delivered ("APNs may still deliver
    /// stored messages after you delete the channel"): off by default, so that a test's delete
    /// is final unless it asks otherwise.
    public var storedMessagesOutliveChannels = false
    /// Deleted channels whose message is kept, by id, while `storedMessagesOutliveChannels`:
    /// the channel as it was (its app and environment say who may still get the message).
    private var deletedChannelsKeepingMessages: [String: BroadcastChannel] = [:]

    public init(limit: Int = ChannelDirectory.defaultLimit) {
        self.limit = limit
    }

    // MARK: reading

    /// The channel `id` of `scope`, `nil` when it has none by that id (another app's or the
    /// other environment's channel included).
    public func channel(_ id: String, in scope: ChannelScope) -> BroadcastChannel? {
        channelsByScope[scope]?[id]
    }

    /// The channel `id`, whatever its app and environment.
    public func channel(id: String) -> BroadcastChannel? {
        guard let scope = scopeByID[id] else { return nil }
        return channelsByScope[scope]?[id]
    }

    /// The channels of `scope`, oldest first (ties by id).
    public func channels(in scope: ChannelScope) -> [BroadcastChannel] {
        Self.ordered(channelsByScope[scope].map { Array($0.values) } ?? [])
    }

    /// Every channel, oldest first (ties by id).
    public var allChannels: [BroadcastChannel] {
        Self.ordered(channelsByScope.values.flatMap(\.values))
    }

    /// How many channels `scope` has.
    public func count(in scope: ChannelScope) -> Int { channelsByScope[scope]?.count ?? 0 }

    /// The number of channels in all.
    public var totalCount: Int { scopeByID.count }

    /// Whether `id` was ever issued (or given to `create`), deleted or not.
    public func wasIssued(_ id: String) -> Bool { issuedIDs.contains(id) }

    /// Whether `bundleID`'s broadcast capability is on (the default).
    public func isBroadcastEnabled(bundleID: String) -> Bool { !disabledBundleIDs.contains(bundleID) }

    // MARK: channels

    /// Creates a channel in `scope` and returns it. The id is new base64 from `generator`,
    /// never one issued before; or, for setup, `id` when given (recorded as issued, so the
    /// generator never returns it).
    ///
    /// - Throws: `featureNotEnabled` when the app's capability is off, `limitReached` when it
    ///   has `limit` channels in `scope`, `channelExists` when `id` names a current channel.
    public mutating func create(
        in scope: ChannelScope, storagePolicy: MessageStoragePolicy, pushType: String, createdAt: Int64,
        id: String? = nil, using generator: inout some RandomNumberGenerator
    ) throws(ChannelDirectoryError) -> BroadcastChannel {
        guard isBroadcastEnabled(bundleID: scope.bundleID) else { throw .featureNotEnabled }
        guard count(in: scope) < limit else { throw .limitReached }
        let channelID: String
        if let id {
            guard scopeByID[id] == nil else { throw .channelExists }
            channelID = id
        } else {
            var candidate = ChannelID.generate(using: &generator)
            while issuedIDs.contains(candidate) { candidate = ChannelID.generate(using: &generator) }
            channelID = candidate
        }
        let channel = BroadcastChannel(
            id: channelID, scope: scope, storagePolicy: storagePolicy, pushType: pushType, createdAt: createdAt)
        issuedIDs.insert(channelID)
        scopeByID[channelID] = scope
        channelsByScope[scope, default: [:]][channelID] = channel
        return channel
    }

    /// Deletes channel `id` of `scope`; returns it, or `nil` when `scope` has no such channel.
    @discardableResult
    public mutating func delete(_ id: String, in scope: ChannelScope) -> BroadcastChannel? {
        guard scopeByID[id] == scope else { return nil }
        return delete(id: id)
    }

    /// Deletes channel `id` wherever it is; returns it, or `nil` when there is none.
    @discardableResult
    public mutating func delete(id: String) -> BroadcastChannel? {
        guard let scope = scopeByID.removeValue(forKey: id) else { return nil }
        let removed = channelsByScope[scope]?.removeValue(forKey: id)
        if channelsByScope[scope]?.isEmpty == true { channelsByScope[scope] = nil }
        keepMessage(of: removed)
        return removed
    }

    /// Keeps a deleted channel's message when `storedMessagesOutliveChannels`.
    private mutating func keepMessage(of channel: BroadcastChannel?) {
        guard storedMessagesOutliveChannels, let channel, channel.storedMessage != nil else { return }
        deletedChannelsKeepingMessages[channel.id] = channel
    }

    /// Channel `id` as it was when deleted, while it keeps a message that may still be delivered
    /// (`storedMessagesOutliveChannels`); `nil` otherwise.
    public func deletedChannelKeepingMessage(id: String) -> BroadcastChannel? {
        deletedChannelsKeepingMessages[id]
    }

    /// Keeps `message` as channel `id`'s (a storage channel's most recent broadcast).
    public mutating func store(_ message: StoredBroadcast, in id: String) {
        update(id) { $0.storedMessage = message }
    }

    /// The message channel `id` keeps at `now` (a deleted channel's too, while
    /// `storedMessagesOutliveChannels`), `nil` when none or expired.
    public func storedMessage(of id: String, at now: Int64) -> StoredBroadcast? {
        guard let message = (channel(id: id) ?? deletedChannelKeepingMessage(id: id))?.storedMessage,
            message.expiresAt > now
        else { return nil }
        return message
    }

    /// Deletes every channel (ids stay issued) and turns every app's capability back on.
    public mutating func removeAll() {
        channelsByScope = [:]
        scopeByID = [:]
        disabledBundleIDs = []
        deletedChannelsKeepingMessages = [:]
    }

    // MARK: capability

    /// Turns `bundleID`'s broadcast capability on or off. Turning it off deletes all its
    /// channels in both environments; returns the channels deleted.
    @discardableResult
    public mutating func setBroadcastEnabled(_ enabled: Bool, bundleID: String) -> [BroadcastChannel] {
        guard !enabled else {
            disabledBundleIDs.remove(bundleID)
            return []
        }
        disabledBundleIDs.insert(bundleID)
        var deleted: [BroadcastChannel] = []
        for environment in APNSEnvironment.allCases {
            let scope = ChannelScope(bundleID: bundleID, environment: environment)
            guard let channels = channelsByScope.removeValue(forKey: scope) else { continue }
            for id in channels.keys { scopeByID[id] = nil }
            for channel in channels.values { keepMessage(of: channel) }
            deleted += channels.values
        }
        return Self.ordered(deleted)
    }

    @discardableResult
    private mutating func update(_ id: String, _ change: (inout BroadcastChannel) -> Void) -> BroadcastChannel? {
        guard let scope = scopeByID[id], var channel = channelsByScope[scope]?.removeValue(forKey: id) else {
            return nil
        }
        change(&channel)
        channelsByScope[scope]?[id] = channel
        return channel
    }

    private static func ordered(_ channels: [BroadcastChannel]) -> [BroadcastChannel] {
        channels.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }
}
