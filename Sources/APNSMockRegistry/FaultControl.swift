import APNSMockCore
import NIOConcurrencyHelpers
import Synchronization

/// Fault rules, server-wide modes, throttling and APNs behaviors: everything that makes the
/// mock answer other than the rules say. The admin API and expectation files change it; every
/// APNs connection reads it.
///
/// The answer path reads `active` once per push (one relaxed atomic load): while it is empty
/// nothing else here is looked at, so a push costs what it costs without faults.
///
/// Thread-safe (`NIOLockedValueBox`, `Atomic`).
public final class FaultControl: Sendable {
    /// What is switched on, for the answer path's one check.
    public struct Active: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let rules = Active(rawValue: 1)
        public static let shutdown = Active(rawValue: 2)
        public static let unavailable = Active(rawValue: 4)
        public static let throttle = Active(rawValue: 8)
        public static let behaviors = Active(rawValue: 16)
        public static let refuseTLS = Active(rawValue: 32)
    }

    /// A rule as listed, with its counts.
    public struct ListedRule: Sendable {
        public var rule: FaultRule
        public var hits: Int
        public var matches: Int

        public init(rule: FaultRule, hits: Int, matches: Int) {
            self.rule = rule
            self.hits = hits
            self.matches = matches
        }
    }

    private struct RuleEntry {
        var rule: FaultRule
        var selector: FaultSelector
    }

    private struct State {
        var rules: [RuleEntry] = []
        /// What the fault policy reads, remade whenever anything here changes but the counts,
        /// so that the answer path takes it with one lock hold (it decides outside the lock).
        var snapshot = FaultSnapshot.none
        /// The rules as the snapshot holds them.
        var ruleSet = FaultRuleSet.empty
        var nextRuleNumber = 1
        var shutdown = false
        /// 503 ServiceUnavailable until this epoch millisecond (`Int64.max`: until cleared).
        var unavailableUntil: Int64?
        /// TLS handshakes still to fail (`refuse-tls`).
        var tlsRefusals = 0
        var behaviors: [ConnectionBehavior: Int64] = [:]
        /// Per device token, the times of its recent pushes (throttling).
        var recentPushes: [String: [Int64]] = [:]
    }

    private let state = NIOLockedValueBox(State())
    private let activeBits = Atomic<UInt32>(0)
    /// The seed of rules that name none (`serve --seed`).
    public let defaultSeed: UInt64
    /// `--throttle`, if set.
    public let throttle: ThrottleLimit?

    public init(defaultSeed: UInt64 = 0, throttle: ThrottleLimit? = nil, behaviors: [ConnectionBehavior: Int64] = [:]) {
        self.defaultSeed = defaultSeed
        self.throttle = throttle
        state.withLockedValue { state in
            state.behaviors = behaviors
            refreshActive(&state)
        }
    }

    /// What is switched on now.
    @inline(__always)
    public var active: Active { Active(rawValue: activeBits.load(ordering: .relaxed)) }

    /// Remakes the snapshot the answer path reads, then what is switched on.
    private func refreshActive(_ state: inout State) {
        state.snapshot = FaultSnapshot(
            shutdownMode: state.shutdown, unavailableUntil: state.unavailableUntil, refusesTLS: state.tlsRefusals > 0,
            behaviors: state.behaviors, throttle: throttle, rules: state.ruleSet)
        var active: Active = []
        if !state.rules.isEmpty { active.insert(.rules) }
        if state.shutdown { active.insert(.shutdown) }
        if state.unavailableUntil != nil { active.insert(.unavailable) }
        if throttle != nil { active.insert(.throttle) }
        if !state.behaviors.isEmpty { active.insert(.behaviors) }
        if state.tlsRefusals > 0 { active.insert(.refuseTLS) }
        activeBits.store(active.rawValue, ordering: .relaxed)
    }

    /// Remakes the answer path's snapshot of the rules, then the rest.
    private func rulesChanged(_ state: inout State) {
        state.ruleSet = FaultRuleSet(state.rules.map(\.rule))
        refreshActive(&state)
    }

    // MARK: rules

    /// Adds a rule read from `json` (`POST /v1/faults`, `setup.faults`); its `id` is the one it
    /// names or `f1`, `f2`, ….
    /// - Throws: `FaultRuleError` naming the field, or an id already in use.
    @discardableResult
    public func addRule(json: JSONValue, now: Int64) throws(FaultRuleError) -> FaultRule {
        let number = state.withLockedValue { state in
            defer { state.nextRuleNumber += 1 }
            return state.nextRuleNumber
        }
        let rule = try FaultRule.parse(json, id: "f\(number)", createdAt: now, defaultSeed: defaultSeed)
        try add(rule)
        return rule
    }

    /// Puts the rule `json` describes under `id`: in the place of the rule with that id (its counts
    /// start again), or after the others when there is none. Returns the rule and whether it is new.
    /// - Throws: `FaultRuleError` when `json` is not a rule, or names another id.
    public func putRule(json: JSONValue, id: String, now: Int64) throws(FaultRuleError) -> (
        rule: FaultRule, created: Bool
    ) {
        guard FaultRule.isValidID(id) else {
            throw FaultRuleError(
                "the rule id '\(id)' must be 1 to \(FaultRule.idLengthLimit) characters from A-Z, a-z, 0-9, '.', '_' and '-'"
            )
        }
        let rule = try FaultRule.parse(json, id: id, createdAt: now, defaultSeed: defaultSeed)
        guard rule.id == id else {
            throw FaultRuleError(
                "the body's 'id' ('\(rule.id)') is not the id in the path ('\(id)'); leave it out or make them equal")
        }
        let created = state.withLockedValue { state -> Bool in
            let entry = RuleEntry(rule: rule, selector: rule.makeSelector())
            defer { rulesChanged(&state) }
            guard let index = state.rules.firstIndex(where: { $0.rule.id == id }) else {
                state.rules.append(entry)
                return true
            }
            state.rules[index] = entry
            return false
        }
        return (rule, created)
    }

    /// Adds `rule` after the others.
    /// - Throws: `FaultRuleError` when its id is in use.
    public func add(_ rule: FaultRule) throws(FaultRuleError) {
        let added = state.withLockedValue { state -> Bool in
            guard !state.rules.contains(where: { $0.rule.id == rule.id }) else { return false }
            state.rules.append(RuleEntry(rule: rule, selector: rule.makeSelector()))
            rulesChanged(&state)
            return true
        }
        guard added else {
            throw FaultRuleError("a fault rule with id '\(rule.id)' exists already", code: .duplicateID)
        }
    }

    /// The rules in the order they are tried.
    public func rules() -> [ListedRule] {
        state.withLockedValue { state in
            state.rules.map { ListedRule(rule: $0.rule, hits: $0.selector.hits, matches: $0.selector.matches) }
        }
    }

    /// The rule `id` with its counts.
    public func rule(id: String) -> ListedRule? {
        rules().first { $0.rule.id == id }
    }

    /// Removes rule `id`; `false` when there is none.
    @discardableResult
    public func removeRule(id: String) -> Bool {
        state.withLockedValue { state in
            guard let index = state.rules.firstIndex(where: { $0.rule.id == id }) else { return false }
            state.rules.remove(at: index)
            rulesChanged(&state)
            return true
        }
    }

    /// Removes every rule; returns how many there were.
    @discardableResult
    public func removeAllRules() -> Int {
        state.withLockedValue { state in
            let count = state.rules.count
            state.rules.removeAll()
            rulesChanged(&state)
            return count
        }
    }

    /// The controls as the fault policy reads them (one lock hold, one retain).
    public var snapshot: FaultSnapshot { state.withLockedValue { $0.snapshot } }

    /// Settles what the fault policy claimed for one request at `now`, in one lock hold, so
    /// that connections pushing at once count exactly: the push is counted against the
    /// throttle (when it names a token), then the first of the claimed rules whose selection
    /// takes it acts. Every rule asked counts the match (and the hit).
    public func settle(_ claim: FaultClaim, now: Int64) -> FaultClaim.Settled {
        state.withLockedValue { state in
            var settled = FaultClaim.Settled()
            if let token = claim.throttleToken, let throttle {
                settled.throttled = Self.countPush(to: token, now: now, limit: throttle, in: &state)
            }
            for id in settled.throttled ? claim.rulesIfThrottled : claim.rules {
                // A rule removed since it was matched is skipped.
                guard let index = state.rules.firstIndex(where: { $0.rule.id == id }),
                    state.rules[index].selector.select(now: now)
                else { continue }
                let action = state.rules[index].rule.action
                let delay = action.delay.map { state.rules[index].selector.drawDelay($0) }
                settled.hit = FaultHit(ruleID: id, action: action, delayMilliseconds: delay)
                break
            }
            return settled
        }
    }

    /// Counts a push to `token` at `now`; whether it is over `limit`.
    private static func countPush(to token: String, now: Int64, limit: ThrottleLimit, in state: inout State) -> Bool {
        var times = state.recentPushes[token] ?? []
        let start = now - limit.windowMilliseconds
        times.removeAll { $0 <= start }
        times.append(now)
        // Only as many times as the limit needs are kept.
        if times.count > limit.pushes + 1 { times.removeFirst(times.count - limit.pushes - 1) }
        state.recentPushes[token] = times
        if state.recentPushes.count > 100_000 { state.recentPushes.removeAll() }
        return times.count > limit.pushes
    }

    // MARK: modes

    /// `POST /v1/modes/shutdown` (on) and `DELETE` (off).
    public func setShutdown(_ on: Bool) {
        state.withLockedValue { state in
            state.shutdown = on
            refreshActive(&state)
        }
    }

    public var isShuttingDown: Bool { state.withLockedValue { $0.shutdown } }

    /// `POST /v1/modes/unavailable`: 503 ServiceUnavailable until `until` (epoch ms; `nil`:
    /// until cleared).
    public func setUnavailable(until: Int64?) {
        state.withLockedValue { state in
            state.unavailableUntil = until ?? Int64.max
            refreshActive(&state)
        }
    }

    /// `DELETE /v1/modes/unavailable`.
    public func clearUnavailable() {
        state.withLockedValue { state in
            state.unavailableUntil = nil
            refreshActive(&state)
        }
    }

    /// When the unavailable mode ends (`Int64.max`: when cleared), if it is on at `now`. An
    /// expired mode is cleared here.
    public func unavailableUntil(now: Int64) -> Int64? {
        state.withLockedValue { state in
            guard let until = state.unavailableUntil else { return nil }
            if now >= until {
                state.unavailableUntil = nil
                refreshActive(&state)
                return nil
            }
            return until
        }
    }

    /// `POST /v1/modes/refuse-tls`: the next `count` TLS handshakes fail.
    public func refuseTLS(count: Int) {
        state.withLockedValue { state in
            state.tlsRefusals = max(0, count)
            refreshActive(&state)
        }
    }

    /// Handshakes still to refuse.
    public var tlsRefusals: Int { state.withLockedValue { $0.tlsRefusals } }

    /// Claims one of the refuse-tls mode's refusals for a handshake (asked when
    /// `FaultPolicy.refusesHandshake` says so); `false` when none is left.
    public func claimTLSRefusal() -> Bool {
        state.withLockedValue { state in
            guard state.tlsRefusals > 0 else { return false }
            state.tlsRefusals -= 1
            if state.tlsRefusals == 0 { refreshActive(&state) }
            return true
        }
    }

    // MARK: behaviors

    /// Switches `behavior` on; `lockoutMilliseconds` for `token-update-lockout`.
    public func enable(_ behavior: ConnectionBehavior, lockoutMilliseconds: Int64? = nil) {
        state.withLockedValue { state in
            state.behaviors[behavior] = lockoutMilliseconds ?? ConnectionBehavior.defaultLockoutMilliseconds
            refreshActive(&state)
        }
    }

    /// Switches `behavior` off; `false` when it was off.
    @discardableResult
    public func disable(_ behavior: ConnectionBehavior) -> Bool {
        state.withLockedValue { state in
            let removed = state.behaviors.removeValue(forKey: behavior) != nil
            refreshActive(&state)
            return removed
        }
    }

    /// The behaviors switched on, with their lockout (milliseconds).
    public var behaviors: [ConnectionBehavior: Int64] { state.withLockedValue { $0.behaviors } }

    /// Whether `behavior` is on.
    public func isEnabled(_ behavior: ConnectionBehavior) -> Bool {
        state.withLockedValue { $0.behaviors[behavior] != nil }
    }

    // MARK: reset

    /// `POST /v1/reset`: no rules, no modes, throttle counts forgotten; behaviors go back to
    /// `behaviors` (those the server started with).
    public func reset(behaviors: [ConnectionBehavior: Int64]) {
        state.withLockedValue { state in
            state = State(nextRuleNumber: state.nextRuleNumber)
            state.behaviors = behaviors
            refreshActive(&state)
        }
    }
}
