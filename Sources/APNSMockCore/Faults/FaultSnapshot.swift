/// The server-wide fault controls at one moment, as the fault policy reads them: the modes, the
/// behaviors, the throttle's limit and the rules. Immutable; `FaultControl` makes a new one
/// whenever the admin API or a file changes them, and every connection reads the same one
/// (a class: a push takes it with one retain).
///
/// The counts that must hold exactly across connections (the throttle's pushes per token, a
/// rule's "first N" and probability draws, the refuse-tls handshakes left) are not here: the
/// policy asks for them as a `FaultClaim`, which the shared controls settle at once.
public final class FaultSnapshot: Sendable {
    /// The shutdown mode is on (503 Shutdown, except on connections already draining).
    public let shutdownMode: Bool
    /// 503 ServiceUnavailable until this epoch millisecond (`Int64.max`: until cleared);
    /// `nil`: off.
    public let unavailableUntil: Int64?
    /// The refuse-tls mode has handshakes left to fail.
    public let refusesTLS: Bool
    /// The behaviors switched on, with their lockout (milliseconds).
    public let behaviors: [ConnectionBehavior: Int64]
    /// `--throttle`, if set.
    public let throttle: ThrottleLimit?
    /// The fault rules, in the order they are tried.
    public let rules: FaultRuleSet

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

    /// Nothing switched on.
    public static let none = FaultSnapshot()

    /// Whether the unavailable mode is on at `now` (epoch milliseconds).
    public func isUnavailable(now: Int64) -> Bool {
        guard let until = unavailableUntil else { return false }
        return now < until
    }
}
