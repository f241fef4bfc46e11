import APNSMockCore

extension Registry {
    /// Makes a subscription as a browser does when a page calls `pushManager.subscribe` with
    /// `applicationServerKey` (a 65-byte P-256 public key): new keys (`p256dh`, `auth`) and a new
    /// id (16 random bytes, base64url: 22 characters, the last part of the endpoint's path).
    public func createWebPushSubscription(
        applicationServerKey: [UInt8], origin: String?, expiresAt: Int64?, now: Int64
    ) -> WebPushSubscription {
        var generator = SystemRandomNumberGenerator()
        let id = Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let subscription = WebPushSubscription(
            id: id, applicationServerKey: applicationServerKey, keys: .generate(), origin: origin,
            expiresAt: expiresAt, createdAt: now)
        change { $0.webPushSubscriptions[id] = subscription }
        return subscription
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
    public func deleteWebPushSubscription(_ id: String, now: Int64) -> WebPushSubscription? {
        change { state in
            guard var subscription = state.webPushSubscriptions[id] else { return nil }
            if subscription.deletedAt == nil { subscription.deletedAt = now }
            state.webPushSubscriptions[id] = subscription
            return subscription
        }
    }
}
