import APNSMockCore
import HashTreeCollections
import NIOConcurrencyHelpers
import Synchronization

/// The keys and devices the mock was told about, the provider tokens it has already checked,
/// and the broadcast channels providers created (with the devices subscribed to them).
/// Thread-safe and synchronous (a lock ThreadSanitizer understands: `NIOLockedValueBox`); the
/// rules read a `RegistrySnapshot`.
///
/// The devices subscribed to broadcast channels are kept apart, under a lock of their own
/// (`ChannelSubscriptions`): the rules never read them, so a subscription is no change for a
/// connection's snapshot and copies nothing. Where both locks are taken, the state's is first.
public final class Registry: DeliveryConditionsSource {
    private let state: NIOLockedValueBox<RegistrySnapshot>
    /// How many devices and subscriptions have conditions other than the standard ones
    /// (`hasDeliveryConditions`), changed under the state's lock with them.
    private let conditioned = Atomic<Int>(0)
    private let subscriptions = NIOLockedValueBox(ChannelSubscriptions())
    private let changes = Atomic<UInt64>(0)
    /// Told of each device whose conditions may have changed (`observeDeviceConditions`).
    private let conditionsObserver = NIOLockedValueBox<DeviceConditionsObserver?>(nil)

    /// Receives an inbox's key and its conditions now (`standard` when it was removed): a
    /// device's token (lower case), or a Web Push subscription's `WebPushSubscription.deliveryKey`.
    public typealias DeviceConditionsObserver = @Sendable (_ key: String, _ conditions: DeviceConditions) -> Void

    /// A registry holding `keys` and `devices`, and the setup's broadcast channels (created at
    /// `now`, epoch ms) with at most `channelLimit` per app and environment.
    public init(
        keys: [ProviderKey] = [], devices: [DeviceRegistration] = [], channels: [ChannelSpec] = [],
        broadcastDisabled: [String] = [], channelLimit: Int = ChannelDirectory.defaultLimit,
        now: Int64 = WallClock.milliseconds()
    ) {
        var snapshot = RegistrySnapshot()
        for key in keys { snapshot.keys[key.keyID] = key }
        for device in devices { snapshot.devices[device.token] = device }
        conditioned.store(snapshot.devices.values.count { $0.conditions.needsModel }, ordering: .releasing)
        snapshot.channels.limit = channelLimit
        var subscribed = ChannelSubscriptions()
        Self.setUp(
            channels, broadcastDisabled: broadcastDisabled, createdAt: now, in: &snapshot.channels,
            subscriptions: &subscribed)
        state = NIOLockedValueBox(snapshot)
        subscriptions.withLockedValue { $0 = subscribed }
    }

    /// The current state, as a value (copy-on-write: cheap to take).
    public func snapshot() -> RegistrySnapshot { state.withLockedValue { $0 } }

    /// Counts changes: a connection keeps its snapshot while this stays the same.
    public var changeCount: UInt64 { changes.load(ordering: .acquiring) }

    /// Runs `body` on the state under the lock and counts a change.
    func change<Result, Failure: Error>(
        _ body: (inout RegistrySnapshot) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome = state.withLockedValue { state -> Swift.Result<Result, Failure> in
            defer { changes.add(1, ordering: .releasing) }
            do throws(Failure) { return .success(try body(&state)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// Replaces every key and device by `keys` and `devices` (the start-up setup), forgetting
    /// remembered tokens: `POST /v1/reset`.
    /// Channels are deleted too (their ids stay issued: none is ever issued again), every
    /// app's broadcast capability is on again, and then the setup's `channels` are created
    /// again (at `now`, epoch ms; fixed ids are the same, others new) and the capability of
    /// the `broadcastDisabled` apps turned off.
    public func reset(
        keys: [ProviderKey], devices: [DeviceRegistration], channels setupChannels: [ChannelSpec] = [],
        broadcastDisabled: [String] = [], now: Int64 = WallClock.milliseconds()
    ) {
        let (before, subscriptionsBefore) = change { state in
            let before = (state.devices, state.webPushSubscriptions)
            let generation = state.keyGeneration
            var channels = state.channels
            channels.removeAll()
            subscriptions.withLockedValue { subscribed in
                subscribed.removeAll()
                Self.setUp(
                    setupChannels, broadcastDisabled: broadcastDisabled, createdAt: now, in: &channels,
                    subscriptions: &subscribed)
            }
            state = RegistrySnapshot()
            state.channels = channels
            for key in keys { state.keys[key.keyID] = key }
            for device in devices { state.devices[device.token] = device }
            conditioned.store(state.devices.values.count { $0.conditions.needsModel }, ordering: .releasing)
            state.keyGeneration = generation &+ 1
            return before
        }
        var changed: [(String, DeviceConditions)] = []
        for (token, device) in before where device.conditions.needsModel { changed.append((token, .standard)) }
        // Subscriptions are not set up: each one's browser forgets its conditions.
        for (id, subscription) in subscriptionsBefore where subscription.conditions.needsModel {
            changed.append((WebPushSubscription.deliveryKey(id), .standard))
        }
        for device in devices where device.conditions.needsModel || before[device.token] != nil {
            changed.append((device.token, device.conditions))
        }
        tell(changed)
    }

    /// Turns off the capability of the `broadcastDisabled` apps and creates `channels` with
    /// their subscribers: those with a fixed id first, so that no id issued for the others is
    /// one of them. A channel that cannot be created (its app's capability is off, the limit
    /// is reached, its id is taken) is left out; `ChannelSpec.checkSetup` tells beforehand.
    private static func setUp(
        _ channels: [ChannelSpec], broadcastDisabled: [String], createdAt: Int64, in directory: inout ChannelDirectory,
        subscriptions: inout ChannelSubscriptions
    ) {
        for bundleID in broadcastDisabled { directory.setBroadcastEnabled(false, bundleID: bundleID) }
        // Not SystemRandomNumberGenerator: an `inout` of a zero-sized value has no real address, and
        // ThreadSanitizer's access check crashed on the one it was given (make test-tsan).
        var generator = FastRandom()
        for spec in channels.filter({ $0.id != nil }) + channels.filter({ $0.id == nil }) {
            guard
                let channel = try? directory.create(
                    in: spec.scope, storagePolicy: spec.storagePolicy, pushType: spec.pushType, createdAt: createdAt,
                    id: spec.id, using: &generator)
            else { continue }
            subscriptions.subscribe(spec.subscribers.lazy.map { $0.lowercased() }, to: channel.id)
        }
    }

    // MARK: keys

    /// Adds or replaces a key. Tokens remembered for that key id are forgotten, so the next
    /// push with them is checked against the new key.
    public func putKey(_ key: ProviderKey) {
        change { state in
            state.keys[key.keyID] = key
            state.tokens = state.tokens.filter { $0.value.keyID != key.keyID }
            state.keyGeneration &+= 1
        }
    }

    /// Removes a key and forgets its tokens. Returns whether it existed.
    @discardableResult
    public func removeKey(_ keyID: String) -> Bool {
        change { state in
            state.tokens = state.tokens.filter { $0.value.keyID != keyID }
            state.keyGeneration &+= 1
            return state.keys.removeValue(forKey: keyID) != nil
        }
    }

    public func key(_ keyID: String) -> ProviderKey? { state.withLockedValue { $0.keys[keyID] } }

    /// All keys, by key id.
    public func keys() -> [ProviderKey] { state.withLockedValue { $0.keys.values.sorted { $0.keyID < $1.keyID } } }

    /// Remembers a token checked for the first time (bounded: the oldest entries are not
    /// tracked, so the cache is simply emptied when it grows past `tokenCacheLimit`).
    public func remember(_ token: NewProviderToken) {
        change { state in
            if state.tokens.count >= Self.tokenCacheLimit { state.tokens.removeAll() }
            state.tokens[token.token] = token.details
        }
    }

    /// The most tokens remembered at once.
    public static let tokenCacheLimit = 10_000

    // MARK: devices

    /// Calls `observer` with every device whose conditions may have changed, after each
    /// change (outside the lock), and at once with each device whose conditions are not the
    /// standard ones: how the delivery store learns of presence, notifications and
    /// installation, from whichever route, file or test changed them.
    public func observeDeviceConditions(_ observer: @escaping DeviceConditionsObserver) {
        conditionsObserver.withLockedValue { $0 = observer }
        for device in devices() where device.conditions.needsModel { observer(device.token, device.conditions) }
        for subscription in webPushSubscriptions() where subscription.conditions.needsModel {
            observer(WebPushSubscription.deliveryKey(subscription.id), subscription.conditions)
        }
    }

    /// Counts a device's or subscription's conditions changing from `old` to `new` (`nil`: none),
    /// under the state's lock.
    func countConditions(from old: DeviceConditions?, to new: DeviceConditions?) {
        let change = (new?.needsModel == true ? 1 : 0) - (old?.needsModel == true ? 1 : 0)
        if change != 0 { conditioned.add(change, ordering: .releasing) }
    }

    public var hasDeliveryConditions: Bool { conditioned.load(ordering: .acquiring) > 0 }

    /// The conditions of a device (by its lower-case token) or of a Web Push subscription's
    /// browser (`WebPushSubscription.deliveryKey`; an unsubscribed one discards what comes), `nil`
    /// when standard or unknown: what the delivery store judges a push by when the device has no
    /// inbox there.
    public func deliveryConditions(of key: String) -> DeviceConditions? {
        let conditions = state.withLockedValue { state -> DeviceConditions? in
            guard let id = WebPushSubscription.id(inDeliveryKey: key) else { return state.device(key)?.conditions }
            guard let subscription = state.webPushSubscriptions[id] else { return nil }
            if let deletedAt = subscription.deletedAt {
                return WebPushSubscription.unsubscribedConditions(at: deletedAt)
            }
            return subscription.conditions
        }
        return conditions?.needsModel == true ? conditions : nil
    }

    func tell(_ changed: [(String, DeviceConditions)]) {
        guard !changed.isEmpty, let observer = conditionsObserver.withLockedValue({ $0 }) else { return }
        for (token, conditions) in changed { observer(token, conditions) }
    }

    /// Adds or replaces a device registration.
    public func putDevice(_ device: DeviceRegistration) {
        let previous = change { state in
            defer { state.devices[device.token] = device }
            let previous = state.devices[device.token]?.conditions
            countConditions(from: previous, to: device.conditions)
            return previous
        }
        if (previous ?? .standard) != device.conditions { tell([(device.token, device.conditions)]) }
    }

    /// Adds or replaces every device of `devices` in one change (tokens distinct); returns how
    /// many were new. The delivery store hears of each device whose conditions changed.
    @discardableResult
    public func putDevices(_ devices: [DeviceRegistration]) -> Int {
        let (created, changed) = change { state -> (Int, [(String, DeviceConditions)]) in
            var created = 0
            var changed: [(String, DeviceConditions)] = []
            for device in devices {
                let previous = state.devices.updateValue(device, forKey: device.token)
                countConditions(from: previous?.conditions, to: device.conditions)
                if previous == nil { created += 1 }
                if (previous?.conditions ?? .standard) != device.conditions {
                    changed.append((device.token, device.conditions))
                }
            }
            return (created, changed)
        }
        tell(changed)
        return created
    }

    @discardableResult
    public func removeDevice(_ token: String) -> Bool {
        let removed = change { state in
            let removed = state.devices.removeValue(forKey: token.lowercased())
            countConditions(from: removed?.conditions, to: nil)
            return removed
        }
        if let removed, removed.conditions.needsModel { tell([(removed.token, .standard)]) }
        return removed != nil
    }

    public func device(_ token: String) -> DeviceRegistration? {
        state.withLockedValue { $0.devices[token.lowercased()] }
    }

    public func devices() -> [DeviceRegistration] {
        state.withLockedValue { $0.devices.values.sorted { $0.token < $1.token } }
    }

    /// Up to `limit` devices in ascending token order, those after token `after` (lower case)
    /// only; `more` says whether devices follow, `count` how many are registered. One pass
    /// over a snapshot's tokens (taken under the lock, walked outside it), sorting a page.
    public func devicePage(after: String?, limit: Int) -> (devices: [DeviceRegistration], more: Bool, count: Int) {
        let devices = state.withLockedValue { $0.devices }
        let page = SmallestValues.page(of: devices.keys, after: after, limit: limit)
        return (page.values.compactMap { devices[$0] }, page.more, devices.count)
    }

    /// Changes a device's state; registers the token when unknown. Returns the new registration.
    @discardableResult
    public func setDeviceState(_ token: String, _ newState: DeviceRegistration.State) -> DeviceRegistration {
        change { state in
            var device = state.devices[token.lowercased()] ?? DeviceRegistration(token: token)
            device.state = newState
            state.devices[device.token] = device
            return device
        }
    }

    // MARK: broadcast channels (APNS-REFERENCE §6)

    /// The channels and capabilities as they are now.
    public func channelDirectory() -> ChannelDirectory { state.withLockedValue { $0.channels } }

    /// The most channels an app may have in one environment (Apple's: 10,000).
    public var channelLimit: Int {
        get { state.withLockedValue { $0.channels.limit } }
        set { change { $0.channels.limit = newValue } }
    }

    /// Creates a channel (a new id from `generator`, or `id` for setup); throws when the app's
    /// capability is off, it has `channelLimit` channels in `scope`, or `id` is taken.
    public func createChannel(
        in scope: ChannelScope, storagePolicy: MessageStoragePolicy, pushType: String = "LiveActivity",
        createdAt: Int64, id: String? = nil, using generator: inout some RandomNumberGenerator
    ) throws(ChannelDirectoryError) -> BroadcastChannel {
        try change { (state) throws(ChannelDirectoryError) -> BroadcastChannel in
            try state.channels.create(
                in: scope, storagePolicy: storagePolicy, pushType: pushType, createdAt: createdAt, id: id,
                using: &generator)
        }
    }

    /// Deletes channel `id` (of `scope` when given) and its subscriptions; returns it, `nil`
    /// when there is none.
    @discardableResult
    public func deleteChannel(_ id: String, in scope: ChannelScope? = nil) -> BroadcastChannel? {
        change { state in
            let deleted = scope.map { state.channels.delete(id, in: $0) } ?? state.channels.delete(id: id)
            if deleted != nil { subscriptions.withLockedValue { _ = $0.removeAll(of: id) } }
            return deleted
        }
    }

    /// Channel `id`, wherever it is.
    public func channel(_ id: String) -> BroadcastChannel? { state.withLockedValue { $0.channels.channel(id: id) } }

    /// Channel `id` as it was when deleted, while its kept message may still be delivered
    /// (see `ChannelDirectory.deletedChannelKeepingMessage(id:)`).
    public func deletedChannelKeepingMessage(_ id: String) -> BroadcastChannel? {
        state.withLockedValue { $0.channels.deletedChannelKeepingMessage(id: id) }
    }

    /// Turns an app's broadcast capability on or off; off deletes all its channels (returned)
    /// and their subscriptions.
    @discardableResult
    public func setBroadcastEnabled(_ enabled: Bool, bundleID: String) -> [BroadcastChannel] {
        change { state in
            let deleted = state.channels.setBroadcastEnabled(enabled, bundleID: bundleID)
            if !deleted.isEmpty {
                subscriptions.withLockedValue { subscribed in
                    for channel in deleted { subscribed.removeAll(of: channel.id) }
                }
            }
            return deleted
        }
    }

    /// Keeps `message` as storage channel `id`'s most recent broadcast.
    public func storeBroadcast(_ message: StoredBroadcast, in id: String) {
        change { $0.channels.store(message, in: id) }
    }

    /// The message channel `id` keeps at `now` (see `ChannelDirectory.storedMessage(of:at:)`).
    public func storedMessage(of id: String, at now: Int64) -> StoredBroadcast? {
        state.withLockedValue { $0.channels.storedMessage(of: id, at: now) }
    }

    /// Whether a deleted channel's kept message may still be delivered (off by default).
    public var storedMessagesOutliveChannels: Bool {
        get { state.withLockedValue { $0.channels.storedMessagesOutliveChannels } }
        set { change { $0.channels.storedMessagesOutliveChannels = newValue } }
    }

    // MARK: subscriptions

    /// Subscribes `token`'s Live Activity to channel `id`; returns how many devices the channel
    /// has now, `nil` when there is no such channel.
    @discardableResult
    public func subscribe(_ token: String, to id: String) -> Int? {
        let token = token.lowercased()
        return state.withLockedValue { state -> Int? in
            guard state.channels.channel(id: id) != nil else { return nil }
            return subscriptions.withLockedValue { subscribed in
                subscribed.subscribe(token, to: id)
                return subscribed.count(of: id)
            }
        }
    }

    /// Subscribes every device of `tokens` to channel `id`; returns how many were not subscribed
    /// before and how many the channel has now, `nil` when there is no such channel.
    public func subscribe(_ tokens: [String], to id: String) -> (added: Int, subscribers: Int)? {
        let tokens = tokens.map { $0.lowercased() }
        return state.withLockedValue { state -> (added: Int, subscribers: Int)? in
            guard state.channels.channel(id: id) != nil else { return nil }
            return subscriptions.withLockedValue { subscribed in
                let added = subscribed.subscribe(tokens, to: id)
                return (added, subscribed.count(of: id))
            }
        }
    }

    /// Ends `token`'s subscription to channel `id`; returns whether it was subscribed, `nil`
    /// when there is no such channel.
    @discardableResult
    public func unsubscribe(_ token: String, from id: String) -> Bool? {
        let token = token.lowercased()
        return state.withLockedValue { state -> Bool? in
            guard state.channels.channel(id: id) != nil else { return nil }
            return subscriptions.withLockedValue { $0.unsubscribe(token, from: id) }
        }
    }

    /// Ends every subscription to channel `id` (a broadcast's `end` event); returns the tokens
    /// that were subscribed.
    @discardableResult
    public func unsubscribeAll(from id: String) -> Set<String> {
        subscriptions.withLockedValue { $0.removeAll(of: id) }
    }

    /// How many devices are subscribed to channel `id`.
    public func subscriberCount(of id: String) -> Int { subscriptions.withLockedValue { $0.count(of: id) } }

    /// The devices subscribed to channel `id` (lower-case tokens; taking them copies nothing).
    public func subscribers(of id: String) -> Set<String> { subscriptions.withLockedValue { $0.tokens(of: id) } }

    /// Whether `token` is subscribed to channel `id`.
    public func isSubscribed(_ token: String, to id: String) -> Bool {
        subscriptions.withLockedValue { $0.contains(token.lowercased(), in: id) }
    }

    /// Up to `limit` of channel `id`'s tokens, ascending, after `after`; `more` when others follow.
    public func subscriberPage(of id: String, after: String?, limit: Int) -> (tokens: [String], more: Bool) {
        subscriptions.withLockedValue { $0.page(of: id, after: after?.lowercased(), limit: limit) }
    }
}
