import APNSMockCore
import Testing

@testable import APNSMockRegistry

/// Fault rules, modes, throttling and behaviors as the answer path and the admin API use them.
@Suite struct FaultControlTests {
    /// A live request as a rule's matcher sees it.
    struct Facts: DeliveryFacts {
        var matchToken: String?
        var matchTopic: String? = "com.example.app"
        var matchPushType: APNSPushType? = .alert
        var matchStatus: Int? = 200
        var matchReason: String? = nil
        var matchAPNSID: String? = nil
        var matchEnvironment: APNSEnvironment = .sandbox
        var matchAuthMethod: AuthenticationResult.Method? = .token
        func matchHeader(_ name: String) -> String? { nil }
        var matchPayload: [UInt8] = []
    }

    static func rule(_ json: String) -> JSONValue { JSONValue.parse(Array(json.utf8))! }

    /// The rule that acts on `facts`, as the answer path asks: matched on the snapshot, then
    /// claimed.
    static func hit(_ faults: FaultControl, _ facts: Facts, now: Int64 = 0) -> FaultHit? {
        let matching = faults.snapshot.rules.matchingIDs(facts, connectionID: 1)
        return faults.settle(FaultClaim(rules: matching), now: now).hit
    }

    static func throttled(_ faults: FaultControl, token: String, now: Int64) -> Bool {
        faults.settle(FaultClaim(throttleToken: token), now: now).throttled
    }

    @Test func nothingIsActiveUntilSomethingIsSwitchedOn() throws {
        let faults = FaultControl()
        #expect(faults.active.isEmpty)
        try faults.addRule(json: Self.rule(#"{"action":{"hang":{}}}"#), now: 0)
        #expect(faults.active == .rules)
        faults.removeAllRules()
        faults.setShutdown(true)
        #expect(faults.active == .shutdown)
        faults.setShutdown(false)
        #expect(faults.active.isEmpty)
        #expect(FaultControl(throttle: ThrottleLimit(pushes: 1, windowMilliseconds: 1000)).active == .throttle)
    }

    /// Rules are tried in creation order; the first whose match and selection hold acts, and
    /// rules after it are not asked (their counts stay).
    @Test func firstRuleWhoseMatchAndSelectionHoldActs() throws {
        let faults = FaultControl()
        let first = try faults.addRule(
            json: Self.rule(#"{"match":{"tokenPrefix":"ab"},"select":{"nth":2},"action":{"hang":{}}}"#), now: 0)
        let second = try faults.addRule(json: Self.rule(#"{"action":{"resetStream":{}}}"#), now: 0)
        #expect(first.id == "f1" && second.id == "f2")
        let ab = Facts(matchToken: "abcd")
        let cd = Facts(matchToken: "cdef")
        #expect(Self.hit(faults, ab)?.ruleID == "f2")
        #expect(Self.hit(faults, ab)?.ruleID == "f1")
        #expect(Self.hit(faults, cd)?.ruleID == "f2")
        let counts = faults.rules().map { "\($0.rule.id) \($0.matches)/\($0.hits)" }
        #expect(counts == ["f1 2/1", "f2 2/2"])
    }

    @Test func idsAreUniqueAndRulesCanBeRemoved() throws {
        let faults = FaultControl()
        try faults.addRule(json: Self.rule(#"{"id":"x","action":{"hang":{}}}"#), now: 0)
        #expect(throws: FaultRuleError.self) {
            try faults.addRule(json: Self.rule(#"{"id":"x","action":{"hang":{}}}"#), now: 0)
        }
        #expect(faults.removeRule(id: "x"))
        #expect(!faults.removeRule(id: "x"))
        #expect(faults.active.isEmpty)
    }

    @Test func aDelayIsDrawnWithinItsRange() throws {
        let faults = FaultControl(defaultSeed: 7)
        try faults.addRule(json: Self.rule(#"{"action":{"delay":{"min":"100ms","max":"200ms"}}}"#), now: 0)
        for _ in 0..<50 {
            let delay = try #require(
                Self.hit(faults, Facts(matchToken: "ab"))?.delayMilliseconds)
            #expect((100...200).contains(delay))
        }
    }

    @Test func unavailableEndsByItself() {
        let faults = FaultControl()
        faults.setUnavailable(until: 1000)
        #expect(faults.unavailableUntil(now: 999) == 1000)
        #expect(faults.unavailableUntil(now: 1000) == nil)
        #expect(faults.active.isEmpty)
        faults.setUnavailable(until: nil)
        #expect(faults.unavailableUntil(now: .max - 1) == .max)
        faults.clearUnavailable()
        #expect(faults.unavailableUntil(now: 0) == nil)
    }

    @Test func refuseTLSCountsDown() {
        let faults = FaultControl()
        faults.refuseTLS(count: 2)
        #expect(faults.active == .refuseTLS && FaultPolicy.refusesHandshake(faults.snapshot))
        #expect(faults.claimTLSRefusal())
        #expect(faults.claimTLSRefusal())
        #expect(!faults.claimTLSRefusal())
        #expect(faults.active.isEmpty && !FaultPolicy.refusesHandshake(faults.snapshot))
    }

    /// `--throttle 2/10s`: a token's third push within 10 s is over; once the window moves on
    /// it is not.
    @Test func throttleIsASlidingWindowPerToken() {
        let faults = FaultControl(throttle: ThrottleLimit(pushes: 2, windowMilliseconds: 10_000))
        #expect(!Self.throttled(faults, token: "a", now: 0))
        #expect(!Self.throttled(faults, token: "a", now: 1000))
        #expect(Self.throttled(faults, token: "a", now: 2000))
        #expect(!Self.throttled(faults, token: "b", now: 2000))
        #expect(!Self.throttled(faults, token: "a", now: 11_500))
    }

    /// Connections on several threads claim at once: a rule's "first 5" acts exactly five times
    /// and a throttle of 10 lets exactly ten pushes through, because the counts are taken
    /// when the claim is settled, not read from the snapshot the decisions were made on.
    @Test func claimsCountExactlyAcrossConnections() async throws {
        let faults = FaultControl(throttle: ThrottleLimit(pushes: 10, windowMilliseconds: 3_600_000))
        try faults.addRule(json: Self.rule(#"{"select":{"first":5},"action":{"hang":{}}}"#), now: 0)
        let facts = Facts(matchToken: "abcd")
        let matching = faults.snapshot.rules.matchingIDs(facts, connectionID: 1)
        #expect(matching == ["f1"])
        let results = await withTaskGroup(of: [FaultClaim.Settled].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<100).map { _ in
                        faults.settle(
                            FaultClaim(throttleToken: "abcd", rules: matching, rulesIfThrottled: matching), now: 1)
                    }
                }
            }
            var all: [FaultClaim.Settled] = []
            for await part in group { all += part }
            return all
        }
        #expect(results.count == 800)
        #expect(results.filter { $0.hit != nil }.count == 5)
        #expect(results.filter { !$0.throttled }.count == 10)
        #expect(faults.rules().map(\.hits) == [5])
    }

    @Test func resetClearsRulesAndModesAndRestoresTheStartingBehaviors() throws {
        let faults = FaultControl(behaviors: [.streamsAfterRejection: 0])
        try faults.addRule(json: Self.rule(#"{"action":{"hang":{}}}"#), now: 0)
        faults.setShutdown(true)
        faults.refuseTLS(count: 3)
        faults.enable(.tokenUpdateLockout, lockoutMilliseconds: 5000)
        faults.reset(behaviors: [.streamsAfterRejection: 0])
        #expect(faults.rules().isEmpty)
        #expect(!faults.isShuttingDown && faults.tlsRefusals == 0)
        #expect(Set(faults.behaviors.keys) == [.streamsAfterRejection])
        #expect(faults.active == .behaviors)
    }

    @Test(arguments: [
        ("3/10s", 3, 10_000), ("100/1m", 100, 60_000), ("5/30", 5, 30_000), ("1/500ms", 1, 500),
    ])
    func throttleLimitsRead(_ text: String, _ pushes: Int, _ window: Int64) throws {
        let limit = try ThrottleLimit(parsing: text)
        #expect(limit.pushes == pushes && limit.windowMilliseconds == window)
    }

    @Test(arguments: ["3", "0/10s", "x/10s", "3/", "3/soon", "3/0s", "3/2d"])
    func badThrottleLimitsAreRefused(_ text: String) {
        #expect(throws: FaultRuleError.self) { try ThrottleLimit(parsing: text) }
    }

    @Test func behaviorSpecs() throws {
        #expect(try ConnectionBehavior.parse(spec: "expired-token-poison") == (.expiredTokenPoison, nil))
        #expect(try ConnectionBehavior.parse(spec: "token-update-lockout=2m") == (.tokenUpdateLockout, 120_000))
        #expect(throws: FaultRuleError.self) { try ConnectionBehavior.parse(spec: "stream-limit") }
        #expect(throws: FaultRuleError.self) { try ConnectionBehavior.parse(spec: "streams-after-rejection=5s") }
    }
}
