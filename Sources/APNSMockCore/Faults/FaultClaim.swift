/// What the fault policy asks the shared fault controls for before it can finish a decision:
/// the counts that must hold exactly when several connections push at once, which a snapshot
/// cannot give. The controls settle a claim in one step (`FaultControl.settle`) and the policy
/// finishes with the `Settled` answer (`FaultPolicy.finish`).
public struct FaultClaim: Sendable, Equatable {
    /// Count an accepted push to this device token against the throttle; `nil`: no throttle
    /// check (no throttle, no device token, or the answer is not a 200).
    public var throttleToken: String?
    /// The ids of the rules that match the request as answered so far, in the order they are
    /// tried: the first whose selection ("first N", a probability, a window) takes it acts.
    public var rules: [String]
    /// The same when the throttle refuses the push (the rules then see its 429); only asked
    /// with a `throttleToken`.
    public var rulesIfThrottled: [String]

    public init(throttleToken: String? = nil, rules: [String] = [], rulesIfThrottled: [String] = []) {
        self.throttleToken = throttleToken
        self.rules = rules
        self.rulesIfThrottled = rulesIfThrottled
    }

    /// What the shared controls granted.
    public struct Settled: Sendable, Equatable {
        /// The push went over the throttle's limit for its token.
        public var throttled: Bool
        /// The rule that acts, with the delay drawn for it.
        public var hit: FaultHit?

        public init(throttled: Bool = false, hit: FaultHit? = nil) {
            self.throttled = throttled
            self.hit = hit
        }

        /// Nothing was claimed.
        public static let nothing = Settled()
    }
}
