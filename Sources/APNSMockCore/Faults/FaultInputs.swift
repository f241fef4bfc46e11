/// What the server-wide fault controls say for one request, as the fault policy reads them:
/// the modes, the behaviors switched on, and two look-ups into shared state (the throttle's
/// counters and the rules' selections) that the policy calls only when it needs them.
public struct FaultInputs {
    /// The shutdown mode is on (503 Shutdown, except on connections already draining).
    public var shutdownMode: Bool
    /// The unavailable mode is on now (503 ServiceUnavailable).
    public var unavailable: Bool
    /// The behaviors switched on, with their lockout (milliseconds).
    public var behaviors: [ConnectionBehavior: Int64]
    /// Counts an accepted push to a device token; `true` when that token is over the throttle
    /// limit. `nil`: no throttle.
    public var throttle: ((String) -> Bool)?
    /// The first fault rule that acts on the request, given the rules' verdict and the answer
    /// so far. `nil`: no rules.
    public var rule: ((APNSVerdict, APNSAnswer) -> FaultHit?)?

    public init(
        shutdownMode: Bool = false, unavailable: Bool = false, behaviors: [ConnectionBehavior: Int64] = [:],
        throttle: ((String) -> Bool)? = nil, rule: ((APNSVerdict, APNSAnswer) -> FaultHit?)? = nil
    ) {
        self.shutdownMode = shutdownMode
        self.unavailable = unavailable
        self.behaviors = behaviors
        self.throttle = throttle
        self.rule = rule
    }
}
