/// What the payload analyzer needs to know besides the payload's bytes: the request's headers
/// as judged by the rules, an optional size-limit override and the device's localized strings.
public struct PayloadContext: Sendable {
    /// The push type as judged: a missing `apns-push-type` counts as `alert` (or `voip` for a
    /// `.voip` topic). `nil` when unknown; then only checks that need no push type are made and
    /// the size limit is `alert`'s.
    public var pushType: APNSPushType?
    /// Whether `apns-push-type` was sent.
    public var pushTypeHeaderPresent: Bool
    /// `apns-priority` as sent; `nil` when absent (APNs then uses 10).
    public var priority: String?
    /// `apns-topic` as sent (or as defaulted from a single-topic certificate); `nil` when unknown.
    public var topic: String?
    /// A payload limit that overrides the push type's (`--payload-limit`).
    public var payloadLimit: Int?
    /// The strings of the device's locale; `nil` when no localizations are loaded, in which case
    /// localization keys are shown as they are and not checked.
    public var strings: LocalizedStrings?
    /// A broadcast to a channel (`POST /4/broadcasts/apps/<bundleId>`), not a device push: its
    /// limit is 5120 bytes, and it can only update Live Activities, never start one.
    public var isBroadcast: Bool

    public init(
        pushType: APNSPushType? = .alert, pushTypeHeaderPresent: Bool = true, priority: String? = nil,
        topic: String? = nil, payloadLimit: Int? = nil, strings: LocalizedStrings? = nil, isBroadcast: Bool = false
    ) {
        self.isBroadcast = isBroadcast
        self.pushType = pushType
        self.pushTypeHeaderPresent = pushTypeHeaderPresent
        self.priority = priority
        self.topic = topic
        self.payloadLimit = payloadLimit
        self.strings = strings
    }

    /// The size limit applied: the override, else a broadcast's or the push type's (alert's when
    /// unknown).
    public var effectiveLimit: Int {
        payloadLimit ?? (isBroadcast ? BroadcastRules.payloadLimit : (pushType ?? .alert).payloadLimit)
    }

    /// The context of a broadcast sent with `apns-priority` `priority` (as sent): a Live
    /// Activity push with no topic to check.
    public static func broadcast(
        priority: String?, payloadLimit: Int? = nil, strings: LocalizedStrings? = nil
    ) -> PayloadContext {
        PayloadContext(
            pushType: BroadcastRules.pushType, pushTypeHeaderPresent: true, priority: priority, topic: nil,
            payloadLimit: payloadLimit, strings: strings, isBroadcast: true)
    }
}
