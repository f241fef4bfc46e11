/// The server-wide fault controls at one moment, as the fault policy reads them: the modes, the
/// behaviors, the throttle's limit and the rules. Immutable; `FaultControl` makes a new one
/// whenever the admin API or a file changes them, and every connection reads the same one.
///
/// The counts that must hold exactly across connections (the throttle's pushes per token, a
/// rule's "first N" and probability draws, the refuse-tls handshakes left) are not here: the
/// policy asks for them as a `FaultClaim`, which the shared controls settle at once.
public struct FaultSnapshot: Sendable {
    /// The shutdown mode is on (503 Shutdown, except on connections already draining).
    public var shutdownMode: Bool
    /// 503 ServiceUnavailable until this epoch millisecond (`Int64.max`: until cleared);
    /// `nil`: off.
    public var unavailableUntil: Int64?
    /// The refuse-tls mode has handshakes left to fail.
    public var refusesTLS: Bool
    /// The behaviors switched on, with their lockout (milliseconds).
    public var behaviors: [ConnectionBehavior: Int64]
    /// `--throttle`, if set.
    public var throttle: ThrottleLimit?
    /// The fault rules, in the order they are tried.
    public var rules: FaultRuleSet

    public init(
        shutdownMode: Bool = false, unavailableUntil: Int64? = nil, refusesTLS: Bool = false,
        behaviors: [ConnectionBehavior: Int64] = [:], throttle: ThrottleLimit? = nil, rules: FaultRuleSet = .empty
    ) {
        self.shutdownMode = shutdownMode
        self.unavailableUntil = unavailableUntil
        self.refusesTLS = refusesTLS
        self.behaviors = behaviors
        self.throttle = throttle
        self.rules = rules
    }

    /// Whether the unavailable mode is on at `now` (epoch milliseconds).
    public func isUnavailable(now: Int64) -> Bool {
        guard let until = unavailableUntil else { return false }
        return now < until
    }
}
