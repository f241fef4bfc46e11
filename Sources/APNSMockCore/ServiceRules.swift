/// The rules of every API the mock serves, and which of them judges a request: on the APNs
/// port, `BroadcastRules` for `/4/broadcasts/…` and `RequestRules` for everything else (device
/// pushes, and the 404/405 of unknown paths); on the channel-management port, `ChannelRules`.
public struct ServiceRules: Sendable {
    public var device: RequestRules
    public var broadcast: BroadcastRules
    public var channels: ChannelRules

    /// The three rule sets over one validation policy.
    public init(policy: ValidationPolicy = ValidationPolicy()) {
        device = RequestRules(policy: policy)
        broadcast = BroadcastRules(policy: policy)
        channels = ChannelRules(policy: policy)
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
        }
    }
}
