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

    public init(
        pushType: APNSPushType? = .alert, pushTypeHeaderPresent: Bool = true, priority: String? = nil,
        topic: String? = nil, payloadLimit: Int? = nil, strings: LocalizedStrings? = nil
    ) {
        self.pushType = pushType
        self.pushTypeHeaderPresent = pushTypeHeaderPresent
        self.priority = priority
        self.topic = topic
        self.payloadLimit = payloadLimit
        self.strings = strings
    }

    /// The size limit applied: the override, else the push type's (alert's when unknown).
    public var effectiveLimit: Int { payloadLimit ?? (pushType ?? .alert).payloadLimit }
}
