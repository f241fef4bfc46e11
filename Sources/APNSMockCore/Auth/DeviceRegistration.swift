/// A device token the mock was told about.
public struct DeviceRegistration: Sendable, Hashable {
    /// What APNs thinks of the token.
    public enum State: Sendable, Hashable {
        case active
        /// The app was removed; APNs answers 410 Unregistered with this time (epoch ms).
        case unregistered(at: Int64)
        /// The token expired; APNs answers 410 ExpiredToken with this time (epoch ms).
        case expired(at: Int64)
    }

    /// Lower-case hex.
    public var token: String
    /// The bundle ID (or full topic) the token belongs to; `nil` accepts any topic.
    public var topic: String?
    /// The environment the token was issued in; `nil` accepts either.
    public var environment: APNSEnvironment?
    public var state: State
    /// The device's language (`fr`, `pt-BR`): the localizations its previews use; `nil` takes
    /// the server's `--locale`.
    public var locale: String?
    /// Presence, notifications, whether the app is installed, scheduled presence: what
    /// becomes of the pushes APNs accepts for it (`DeliveryModel`).
    public var conditions: DeviceConditions

    public init(
        token: String, topic: String? = nil, environment: APNSEnvironment? = nil, state: State = .active,
        locale: String? = nil, conditions: DeviceConditions = .standard
    ) {
        self.conditions = conditions
        // A token already normalized (as every admin route's and setup's is) is kept, not copied.
        self.token = DeviceToken.isLowercaseHexToken(token) ? token : token.lowercased()
        self.topic = topic
        self.environment = environment
        self.state = state
        self.locale = locale
    }

    /// Whether a push to `topic` is for this token's app.
    public func accepts(topic pushTopic: String?) -> Bool {
        guard let topic else { return true }
        guard let pushTopic else { return false }
        return pushTopic == topic || pushTopic.hasPrefix(topic + ".")
    }
}
