import APNSMockCore

extension Registry {
    /// Makes a subscription as a browser does when a page calls `pushManager.subscribe` with
    /// `applicationServerKey` (a 65-byte P-256 public key): new keys (`p256dh`, `auth`) and a new
    /// id (16 random bytes, base64url: 22 characters, the last part of the endpoint's path).
    /// `conditions`: its browser's device as the delivery model sees it.
    public func createWebPushSubscription(
        applicationServerKey: [UInt8], origin: String?, expiresAt: Int64?, conditions: DeviceConditions = .standard,
        now: Int64
    ) -> WebPushSubscription {
        var generator = SystemRandomNumberGenerator()
        let id = Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        var subscription = WebPushSubscription(
            id: id, applicationServerKey: applicationServerKey, keys: .generate(), origin: origin,
            expiresAt: expiresAt, createdAt: now)
        subscription.conditions = conditions
        change { state in
            state.webPushSubscriptions[id] = subscription
            countConditions(from: nil, to: conditions)
        }
        if conditions.needsModel { tell([(WebPushSubscription.deliveryKey(id), conditions)]) }
        return subscription
    }

    /// Gives subscription `id`'s browser new conditions (online, offline, saving power, a
    /// schedule, notifications allowed or not): what it holds is judged again. Returns the
    /// subscription, or `nil` for an unknown id. An unsubscribed one keeps what it has.
    @discardableResult
    public func setWebPushConditions(_ conditions: DeviceConditions, of id: String) -> WebPushSubscription? {
        let changed = change { state -> WebPushSubscription? in
            guard var subscription = state.webPushSubscriptions[id] else { return nil }
            guard subscription.deletedAt == nil else { return subscription }
            countConditions(from: subscription.conditions, to: conditions)
            subscription.conditions = conditions
            state.webPushSubscriptions[id] = subscription
            return subscription
        }
        if let changed, changed.deletedAt == nil { tell([(WebPushSubscription.deliveryKey(id), conditions)]) }
        return changed
    }

    /// The subscription `id`, deleted and expired ones included.
    public func webPushSubscription(_ id: String) -> WebPushSubscription? {
        snapshot().webPushSubscriptions[id]
    }

    /// Every subscription, oldest first (deleted and expired ones included).
    public func webPushSubscriptions() -> [WebPushSubscription] {
        snapshot().webPushSubscriptions.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Unsubscribes `id` at `now`: it stays, so that a push to it is answered 410 as Apple
    /// answers a push to an unsubscribed endpoint. Returns it, or `nil` for an unknown id.
    /// Deleting twice keeps the first time.
    @discardableResult
    /// What its browser held is discarded (`tokenInactive`, as for an uninstalled app).
    public func deleteWebPushSubscription(_ id: String, now: Int64) -> WebPushSubscription? {
        let deleted = change { state -> (WebPushSubscription, Bool)? in
            guard var subscription = state.webPushSubscriptions[id] else { return nil }
            let first = subscription.deletedAt == nil
            if first { subscription.deletedAt = now }
            state.webPushSubscriptions[id] = subscription
            return (subscription, first)
        }
        if let (subscription, first) = deleted, first, subscription.conditions.needsModel {
            tell([(WebPushSubscription.deliveryKey(id), WebPushSubscription.unsubscribedConditions(at: now))])
        }
        return deleted?.0
    }
}
