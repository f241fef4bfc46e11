/// A subscription as the push rules need it: what it was made with, the keys that decrypt its
/// messages, and whether it still takes pushes. The store that keeps subscriptions hands one to
/// `WebPushRequestRules` for the id in a push's path.
public struct WebPushSubscription: Sendable, Equatable {
    /// The id in the endpoint's path.
    public var id: String
    /// The `applicationServerKey` given at subscribe time: the VAPID public key, 65 bytes.
    public var applicationServerKey: [UInt8]
    /// The browser-side keys (`p256dh`, `auth`) and their private half.
    public var keys: WebPushSubscriptionKeys
    /// The site that subscribed (`https://example.com`), when known; for records and display.
    public var origin: String?
    /// When the subscription expires, epoch milliseconds (`PushSubscription.expirationTime`);
    /// `nil` for never.
    public var expiresAt: Int64?
    /// When it was unsubscribed (deleted), epoch milliseconds; `nil` while it is active.
    public var deletedAt: Int64?
    /// When it was made, epoch milliseconds (lists are in this order).
    public var createdAt: Int64
    /// The browser's device as the delivery model sees it (`presence`, its schedule, whether
    /// the user allows notifications): what becomes of accepted pushes, as for an APNs device.
    public var conditions: DeviceConditions = .standard

    public init(
        id: String, applicationServerKey: [UInt8], keys: WebPushSubscriptionKeys, origin: String? = nil,
        expiresAt: Int64? = nil, deletedAt: Int64? = nil, createdAt: Int64 = 0
    ) {
        self.id = id
        self.createdAt = createdAt
        self.applicationServerKey = applicationServerKey
        self.keys = keys
        self.origin = origin
        self.expiresAt = expiresAt
        self.deletedAt = deletedAt
    }

    /// The key of the subscription's inbox in the delivery model: its id after `webPush/`, which
    /// no device token can be (a token is hex).
    public static func deliveryKey(_ id: String) -> String { deliveryKeyPrefix + id }

    /// The id in a `deliveryKey`, `nil` for a device's token.
    public static func id(inDeliveryKey key: String) -> String? {
        key.hasPrefix(deliveryKeyPrefix) ? String(key.dropFirst(deliveryKeyPrefix.count)) : nil
    }

    private static let deliveryKeyPrefix = "webPush/"

    /// The conditions that discard what an unsubscribed subscription held (as an uninstalled
    /// app's device does, at once): `tokenInactive`.
    public static func unsubscribedConditions(at now: Int64) -> DeviceConditions {
        DeviceConditions(installed: false, uninstalledAt: now, uninstallGrace: 0)
    }

    /// Whether it has expired at `now` (epoch milliseconds).
    public func isExpired(at now: Int64) -> Bool { expiresAt.map { $0 <= now } ?? false }

    /// `active`, `expired` or `deleted` at `now`, as the admin API says it.
    public func state(at now: Int64) -> String {
        if deletedAt != nil { return "deleted" }
        return isExpired(at: now) ? "expired" : "active"
    }
}
