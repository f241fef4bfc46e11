import APNSMockCore
import Synchronization

/// The keys and devices the mock was told about, and the provider tokens it has already
/// checked. Thread-safe and synchronous (a `Mutex`); the rules read a `RegistrySnapshot`.
public final class Registry: Sendable {
    private let state: Mutex<RegistrySnapshot>
    private let changes = Atomic<UInt64>(0)

    public init(keys: [ProviderKey] = [], devices: [DeviceRegistration] = []) {
        var snapshot = RegistrySnapshot()
        for key in keys { snapshot.keys[key.keyID] = key }
        for device in devices { snapshot.devices[device.token] = device }
        state = Mutex(snapshot)
    }

    /// The current state, as a value (copy-on-write: cheap to take).
    public func snapshot() -> RegistrySnapshot { state.withLock { $0 } }

    /// Counts changes: a connection keeps its snapshot while this stays the same.
    public var changeCount: UInt64 { changes.load(ordering: .acquiring) }

    /// Runs `body` on the state under the lock and counts a change.
    private func change<Result>(_ body: (inout RegistrySnapshot) -> Result) -> Result {
        state.withLock { state in
            defer { changes.add(1, ordering: .releasing) }
            return body(&state)
        }
    }

    /// Replaces every key and device by `keys` and `devices` (the start-up setup), forgetting
    /// remembered tokens: `POST /v1/reset`.
    public func reset(keys: [ProviderKey], devices: [DeviceRegistration]) {
        change { state in
            let generation = state.keyGeneration
            state = RegistrySnapshot()
            for key in keys { state.keys[key.keyID] = key }
            for device in devices { state.devices[device.token] = device }
            state.keyGeneration = generation &+ 1
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

    public func key(_ keyID: String) -> ProviderKey? { state.withLock { $0.keys[keyID] } }

    /// All keys, by key id.
    public func keys() -> [ProviderKey] { state.withLock { $0.keys.values.sorted { $0.keyID < $1.keyID } } }

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

    /// Adds or replaces a device registration.
    public func putDevice(_ device: DeviceRegistration) {
        change { $0.devices[device.token] = device }
    }

    @discardableResult
    public func removeDevice(_ token: String) -> Bool {
        change { $0.devices.removeValue(forKey: token.lowercased()) != nil }
    }

    public func device(_ token: String) -> DeviceRegistration? { state.withLock { $0.devices[token.lowercased()] } }

    public func devices() -> [DeviceRegistration] {
        state.withLock { $0.devices.values.sorted { $0.token < $1.token } }
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
}
