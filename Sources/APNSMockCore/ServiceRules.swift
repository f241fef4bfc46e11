/// The rules of every API the mock serves, and which of them judges a request: on the APNs
/// port, `BroadcastRules` for `/4/broadcasts/…` and `RequestRules` for everything else (device
/// pushes, and the 404/405 of unknown paths); on the channel-management port, `ChannelRules`.
public struct ServiceRules: Sendable {
    public var device: RequestRules
    public var broadcast: BroadcastRules
    public var channels: ChannelRules
    public var webPush: WebPushRequestRules

    /// The three rule sets over one validation policy.
    public init(policy: ValidationPolicy = ValidationPolicy()) {
        device = RequestRules(policy: policy)
        broadcast = BroadcastRules(policy: policy)
        channels = ChannelRules(policy: policy)
        webPush = WebPushRequestRules()
    }

    /// The validation policy they share.
    public var policy: ValidationPolicy { device.policy }

    /// What APNs would answer to `request` on a connection of `service` described by `context`
    /// (whose registry snapshot carries the channels).
    public func evaluate(_ request: APNSRequest, context: ConnectionContext, service: APNSService) -> APNSVerdict {
        switch service {
        case .push:
            if BroadcastRules.isBroadcastPath(request.path) {
                return broadcast.evaluate(request, context: context, channels: context.registry.channels)
            }
            return device.evaluate(request, context: context)
        case .channelManagement:
            return channels.evaluate(request, context: context, channels: context.registry.channels)
        case .webPush:
            return evaluateWebPush(request, context: context)
        }
    }

    /// A web push, judged by `webPush` against the snapshot's subscriptions. The push service's
    /// origin, which a VAPID token's `aud` must name, is the one the request was sent to
    /// (`https://` and its `:authority` or `Host`): the endpoint URL the client was given.
    @inline(never)
    private func evaluateWebPush(_ request: APNSRequest, context: ConnectionContext) -> APNSVerdict {
        let webPushRequest = WebPushRequest(
            method: request.method, path: request.path, headers: request.headers, body: request.payload,
            bodyLength: request.payloadSize)
        let subscriptions = context.registry.webPushSubscriptions
        let verdict = webPush.evaluate(
            webPushRequest, endpointOrigin: Self.origin(authority: request.authority), now: context.now
        ) { subscriptions[$0] }
        return APNSVerdict(webPush: verdict)
    }

    /// `https://` and `authority` without the default port 443 (RFC 6454 §6.2 serializes an
    /// origin without it).
    static func origin(authority: String?) -> String {
        guard var authority, !authority.isEmpty else { return "https://" }
        if authority.hasSuffix(":443") { authority.removeLast(4) }
        return "https://" + authority.lowercased()
    }
}
