import Testing

@testable import APNSMockCore

/// The fault policy alone (pure): modes, the connection's behavior state, the throttle, a fault
/// rule's hit and the behaviors' reaction, as a table of one change per row from a 200 (or the
/// verdict a row names).
@Suite struct FaultPolicyTests {
    static let token = String(repeating: "ab", count: 32)

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        var verdictStatus = 200
        var verdictReason: APNSReason?
        var shutdownMode = false
        var unavailable = false
        var draining = false
        var behaviors: [ConnectionBehavior: Int64] = [:]
        var throttled: Bool?
        var hit: FaultHit?
        var state = ConnectionFaultState()
        var now: Int64 = 1_000
        // Expected
        var status: Int
        var reason: APNSReason?
        var fate: RequestDecision.Fate = .answer
        var delay: Int64?
        var faultID: String?
        var streamLimit: RequestDecision.StreamLimitChange?
        var refuseOpenStreams = false
        var after: ConnectionFaultState?

        var testDescription: String { name }
    }

    static func poisoned() -> ConnectionFaultState {
        var state = ConnectionFaultState()
        state.poisoned = true
        return state
    }

    static func lockedOut(until: Int64) -> ConnectionFaultState {
        var state = ConnectionFaultState()
        state.lockedOutUntil = until
        return state
    }

    static func limited() -> ConnectionFaultState {
        var state = ConnectionFaultState()
        state.limitedAfterRejection = true
        return state
    }

    static let rows: [Row] = [
        Row(name: "nothing on: the verdict's answer", status: 200),
        Row(name: "shutdown mode: 503 Shutdown", shutdownMode: true, status: 503, reason: .shutdown),
        Row(name: "shutdown mode spares a draining connection", shutdownMode: true, draining: true, status: 200),
        Row(
            name: "a draining connection still meets the unavailable mode", shutdownMode: true, unavailable: true,
            draining: true, status: 503, reason: .serviceUnavailable),
        Row(
            name: "unavailable mode: 503 ServiceUnavailable", unavailable: true, status: 503,
            reason: .serviceUnavailable),
        Row(
            name: "a poisoned connection answers 403 ExpiredProviderToken", state: poisoned(), status: 403,
            reason: .expiredProviderToken, after: poisoned()),
        Row(
            name: "a locked-out connection answers 429 until the lockout ends", state: lockedOut(until: 5_000),
            status: 429, reason: .tooManyProviderTokenUpdates),
        Row(name: "the lockout over: 200", state: lockedOut(until: 500), status: 200),
        Row(name: "over the throttle: 429 TooManyRequests", throttled: true, status: 429, reason: .tooManyRequests),
        Row(name: "under the throttle: 200", throttled: false, status: 200),
        Row(
            name: "the throttle counts accepted pushes only", verdictStatus: 400, verdictReason: .badDeviceToken,
            throttled: true, status: 400, reason: .badDeviceToken),
        Row(
            name: "a rule's respond replaces the answer",
            hit: FaultHit(
                ruleID: "f1",
                action: FaultAction(.respond(FaultResponse(status: 410, reason: .unregistered, timestamp: 7)))),
            status: 410, reason: .unregistered, faultID: "f1"),
        Row(
            name: "a rule's delay keeps the answer and holds it",
            hit: FaultHit(
                ruleID: "f2", action: FaultAction(delay: FaultDelay(milliseconds: 300), effect: nil),
                delayMilliseconds: 300),
            status: 200, delay: 300, faultID: "f2"),
        Row(
            name: "a rule's hang", hit: FaultHit(ruleID: "f3", action: FaultAction(.hang)), status: 200, fate: .hang,
            faultID: "f3"),
        Row(
            name: "a rule's reset", hit: FaultHit(ruleID: "f4", action: FaultAction(.resetStream(.internalError))),
            status: 200, fate: .reset(errorCode: 2), faultID: "f4"),
        Row(
            name: "a rule's GOAWAY",
            hit: FaultHit(
                ruleID: "f5", action: FaultAction(.goAway(errorCode: .noError, lastStreamID: 1, debugData: []))),
            status: 200, fate: .goAway(errorCode: 0, lastStreamID: 1, debugData: []), faultID: "f5"),
        Row(
            name: "a rule's GOAWAY that goes out before the answer",
            hit: FaultHit(
                ruleID: "f5",
                action: FaultAction(.goAway(errorCode: .noError, lastStreamID: nil, debugData: [], order: .goAwayFirst))
            ),
            status: 200, fate: .goAway(errorCode: 0, lastStreamID: nil, debugData: [], order: .goAwayFirst),
            faultID: "f5"),
        Row(
            name: "a rule's close", hit: FaultHit(ruleID: "f6", action: FaultAction(.close(respondFirst: true))),
            status: 200, fate: .close(respondFirst: true), faultID: "f6"),
        Row(
            name: "token-update-lockout starts on a 429 TooManyProviderTokenUpdates",
            verdictStatus: 429, verdictReason: .tooManyProviderTokenUpdates, behaviors: [.tokenUpdateLockout: 60_000],
            status: 429, reason: .tooManyProviderTokenUpdates, after: lockedOut(until: 61_000)),
        Row(
            name: "expired-token-poison strikes on ExpiredProviderToken", verdictStatus: 403,
            verdictReason: .expiredProviderToken, behaviors: [.expiredTokenPoison: 0], status: 403,
            reason: .expiredProviderToken, streamLimit: .limit(1), refuseOpenStreams: true, after: poisoned()),
        Row(
            name: "streams-after-rejection lowers the limit on a rejection", verdictStatus: 400,
            verdictReason: .badDeviceToken, behaviors: [.streamsAfterRejection: 0], status: 400,
            reason: .badDeviceToken, streamLimit: .limit(1), after: limited()),
        Row(
            name: "streams-after-rejection restores it on the next 200", behaviors: [.streamsAfterRejection: 0],
            state: limited(), status: 200, streamLimit: .restore, after: ConnectionFaultState()),
        Row(
            name: "a behavior reacts to the answer a rule made",
            behaviors: [.streamsAfterRejection: 0],
            hit: FaultHit(
                ruleID: "f7", action: FaultAction(.respond(FaultResponse(status: 500, reason: .internalServerError)))),
            status: 500, reason: .internalServerError, faultID: "f7", streamLimit: .limit(1), after: limited()),
    ]

    /// A rule that acts on every request.
    static func everyRequest(_ id: String, _ action: FaultAction) -> FaultRule {
        FaultRule(id: id, action: action, createdAt: 0)
    }

    static func rule(_ id: String, _ json: String) -> FaultRule {
        try! FaultRule.parse(JSONValue.parse(Array(json.utf8))!, id: id, createdAt: 0, defaultSeed: 0)
    }

    /// Both steps of the policy, the shared controls' answer scripted (`settled`): what `begin`
    /// claimed, and the decision `finish` made.
    static func decide(
        _ snapshot: FaultSnapshot, verdict: APNSVerdict, environment: APNSEnvironment = .production,
        draining: Bool = false, now: Int64 = 1_000, state: inout ConnectionFaultState,
        settled: FaultClaim.Settled = .nothing
    ) -> (claim: FaultClaim?, decision: RequestDecision) {
        var random = FastRandom(seed: (1, 2, 3, 4))
        var decision = RequestDecision(
            streamID: 1,
            answer: APNSAnswer.from(
                verdict, apnsID: .echoed("00000000-0000-0000-0000-000000000001"), environment: environment,
                random: &random))
        let claim = FaultPolicy.begin(
            FaultInputs(snapshot: snapshot, connectionID: 1), request: RequestBuilder().request, verdict: verdict,
            environment: environment, registry: RegistrySnapshot(), analysisOptions: PayloadAnalysisOptions(),
            draining: draining, now: now, state: state, decision: &decision)
        FaultPolicy.finish(
            snapshot, settled: claim == nil ? .nothing : settled, kind: verdict.kind, environment: environment,
            now: now, decision: &decision, state: &state, random: &random)
        return (claim, decision)
    }

    @Test(arguments: rows)
    func policyRow(_ row: Row) {
        let verdict = APNSVerdict(
            status: row.verdictStatus, reason: row.verdictReason, deviceToken: Self.token, pushType: .alert,
            topic: "com.example.app")
        let snapshot = FaultSnapshot(
            shutdownMode: row.shutdownMode, unavailableUntil: row.unavailable ? .max : nil, behaviors: row.behaviors,
            throttle: row.throttled == nil ? nil : ThrottleLimit(pushes: 1, windowMilliseconds: 1_000),
            rules: FaultRuleSet(row.hit.map { [Self.everyRequest($0.ruleID, $0.action)] } ?? []))
        var state = row.state
        let (claim, decision) = Self.decide(
            snapshot, verdict: verdict, draining: row.draining, now: row.now, state: &state,
            settled: FaultClaim.Settled(throttled: row.throttled ?? false, hit: row.hit))
        // What was claimed: a throttle slot only for a push still accepted, and the rule that
        // matches.
        #expect(claim?.rules == row.hit.map { [$0.ruleID] } ?? (claim == nil ? nil : []))
        let accepted = row.verdictStatus == 200 && row.status != 503 && row.reason != .expiredProviderToken
        if row.throttled != nil, accepted, !row.state.poisoned, row.now >= row.state.lockedOutUntil {
            #expect(claim?.throttleToken == Self.token)
        } else {
            #expect(claim?.throttleToken == nil)
        }
        #expect(decision.answer.status == row.status)
        #expect(decision.answer.reason == row.reason)
        #expect(decision.fate == row.fate)
        #expect(decision.delayMilliseconds == row.delay)
        #expect(decision.faultID == row.faultID)
        #expect(decision.streamLimit == row.streamLimit)
        #expect(decision.refuseOpenStreams == row.refuseOpenStreams)
        #expect(state == (row.after ?? row.state))
        if row.status != 200 { #expect(decision.answer.body != nil) }
    }

    /// The unavailable mode answers a broadcast or channel request as those APIs spell it:
    /// `Service Unavailable`, with the space ("Handling error responses from APNs").
    @Test(arguments: [
        (RecordKind.push, "ServiceUnavailable"), (.broadcast, "Service Unavailable"), (.channel, "Service Unavailable"),
    ])
    func theUnavailableModeSpellsTheReasonAsEachAPIDoes(_ kind: RecordKind, _ reason: String) {
        let verdict = APNSVerdict(status: 200, reason: nil, kind: kind)
        var state = ConnectionFaultState()
        let decision = Self.decide(
            FaultSnapshot(unavailableUntil: .max), verdict: verdict, environment: .sandbox, state: &state
        ).decision
        #expect(decision.answer.status == 503)
        #expect(decision.answer.reason?.rawValue == reason)
        #expect(decision.answer.idHeader == (kind == .push ? .apnsID : .requestID))
    }

    /// The unavailable mode ends by itself at its time: the snapshot says until when, and the
    /// policy compares.
    @Test func theUnavailableModeEndsAtItsTime() {
        let verdict = APNSVerdict(status: 200, reason: nil, deviceToken: Self.token)
        var state = ConnectionFaultState()
        let snapshot = FaultSnapshot(unavailableUntil: 2_000)
        #expect(Self.decide(snapshot, verdict: verdict, now: 1_999, state: &state).decision.answer.status == 503)
        #expect(Self.decide(snapshot, verdict: verdict, now: 2_000, state: &state).decision.answer.status == 200)
    }

    /// A rule sees the answer the modes and behaviors made (its matcher may ask for a status):
    /// a rule on 503 is claimed under the unavailable mode, a rule on 200 is not.
    @Test func aRuleSeesTheAnswerSoFar() throws {
        let verdict = APNSVerdict(status: 200, reason: nil, deviceToken: Self.token)
        let rules = FaultRuleSet([
            Self.rule("on200", #"{"match":{"status":200},"action":{"hang":{}}}"#),
            Self.rule("on503", #"{"match":{"status":503},"action":{"hang":{}}}"#),
        ])
        var state = ConnectionFaultState()
        let unavailable = Self.decide(
            FaultSnapshot(unavailableUntil: .max, rules: rules), verdict: verdict, state: &state)
        #expect(unavailable.claim?.rules == ["on503"])
        let open = Self.decide(FaultSnapshot(rules: rules), verdict: verdict, state: &state)
        #expect(open.claim?.rules == ["on200"])
    }

    /// With the throttle on, the rules are matched both ways: as the push would be answered if
    /// accepted, and with the throttle's 429; the shared controls pick the list once they know.
    @Test func underTheThrottleTheRulesAreMatchedBothWays() throws {
        let verdict = APNSVerdict(status: 200, reason: nil, deviceToken: Self.token)
        let snapshot = FaultSnapshot(
            throttle: ThrottleLimit(pushes: 1, windowMilliseconds: 1_000),
            rules: FaultRuleSet([
                Self.rule("on200", #"{"match":{"status":200},"action":{"hang":{}}}"#),
                Self.rule("on429", #"{"match":{"reason":"TooManyRequests"},"action":{"hang":{}}}"#),
            ]))
        var state = ConnectionFaultState()
        let claim = try #require(Self.decide(snapshot, verdict: verdict, state: &state).claim)
        #expect(claim == FaultClaim(throttleToken: Self.token, rules: ["on200"], rulesIfThrottled: ["on429"]))
    }

    /// Nothing to claim (no throttle; no rule that could match): the decision is made in one
    /// step, and the shared controls are not asked.
    @Test func nothingToClaimDecidesInOneStep() {
        let verdict = APNSVerdict(status: 200, reason: nil, deviceToken: Self.token)
        var state = ConnectionFaultState()
        let rules = FaultRuleSet([Self.rule("other", #"{"match":{"status":410},"action":{"hang":{}}}"#)])
        #expect(Self.decide(FaultSnapshot(rules: rules), verdict: verdict, state: &state).claim == nil)
        #expect(Self.decide(FaultSnapshot(shutdownMode: true), verdict: verdict, state: &state).claim == nil)
    }

    /// A rule that turns a rejection into a 200 gives it a unique id in the sandbox, as APNs does.
    @Test func aRuleThatAccepts() {
        let verdict = APNSVerdict(status: 400, reason: .badDeviceToken)
        let accept = FaultHit(ruleID: "ok", action: FaultAction(.respond(FaultResponse(status: 200))))
        var state = ConnectionFaultState()
        let decision = Self.decide(
            FaultSnapshot(rules: FaultRuleSet([Self.everyRequest("ok", accept.action)])), verdict: verdict,
            environment: .sandbox, state: &state, settled: FaultClaim.Settled(hit: accept)
        ).decision
        #expect(decision.answer.status == 200)
        #expect(decision.answer.body == nil)
        #expect(decision.answer.uniqueID != nil)
    }

    /// A rule's 200 carries `apns-unique-id` where a success of that kind does: a device push's
    /// in the sandbox only, a broadcast's in every environment ("Sending broadcast push
    /// notification requests to APNs"), a channel request's never.
    @Test(arguments: [
        (RecordKind.push, APNSEnvironment.sandbox, true), (.push, .production, false), (.broadcast, .sandbox, true),
        (.broadcast, .production, true), (.channel, .sandbox, false), (.channel, .production, false),
    ])
    func aRuleThatAcceptsGivesTheKindsUniqueID(_ kind: RecordKind, _ environment: APNSEnvironment, _ unique: Bool) {
        let verdict = APNSVerdict(status: 400, reason: .channelNotRegistered, kind: kind)
        let accept = FaultHit(ruleID: "ok", action: FaultAction(.respond(FaultResponse(status: 200))))
        var state = ConnectionFaultState()
        let decision = Self.decide(
            FaultSnapshot(rules: FaultRuleSet([Self.everyRequest("ok", accept.action)])), verdict: verdict,
            environment: environment, state: &state, settled: FaultClaim.Settled(hit: accept)
        ).decision
        #expect(decision.answer.status == 200)
        #expect((decision.answer.uniqueID != nil) == unique)
        #expect(APNSAnswer.successCarriesUniqueID(kind: kind, environment: environment) == unique)
    }

    /// The stream-limit GOAWAY and the refuse-tls mode are the policy's to decide, from the
    /// snapshot.
    @Test func handshakesAndStreamLimitsAreDecidedFromTheSnapshot() {
        #expect(FaultPolicy.refusesHandshake(FaultSnapshot(refusesTLS: true)))
        #expect(!FaultPolicy.refusesHandshake(FaultSnapshot()))
        #expect(FaultPolicy.answersStreamLimitWithGoAway(FaultSnapshot(behaviors: [.streamLimitGoAway: 0])))
        #expect(!FaultPolicy.answersStreamLimitWithGoAway(FaultSnapshot(behaviors: [.streamsAfterRejection: 0])))
    }
}
