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

    @Test(arguments: rows)
    func policyRow(_ row: Row) {
        var random = FastRandom(seed: (1, 2, 3, 4))
        let verdict = APNSVerdict(
            status: row.verdictStatus, reason: row.verdictReason, deviceToken: Self.token, pushType: .alert,
            topic: "com.example.app")
        var decision = RequestDecision(
            streamID: 1,
            answer: APNSAnswer.from(
                verdict, apnsID: .echoed("00000000-0000-0000-0000-000000000001"), environment: .production,
                random: &random))
        var inputs = FaultInputs(shutdownMode: row.shutdownMode, unavailable: row.unavailable, behaviors: row.behaviors)
        if let throttled = row.throttled { inputs.throttle = { _ in throttled } }
        if let hit = row.hit { inputs.rule = { _, _ in hit } }
        var state = row.state
        FaultPolicy.apply(
            inputs, verdict: verdict, environment: .production, draining: row.draining, now: row.now, to: &decision,
            state: &state, random: &random)
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
        var random = FastRandom(seed: (1, 2, 3, 4))
        let verdict = APNSVerdict(status: 200, reason: nil, kind: kind)
        var decision = RequestDecision(
            streamID: 1, answer: APNSAnswer.from(verdict, apnsID: .echoed("x"), environment: .sandbox, random: &random))
        var state = ConnectionFaultState()
        FaultPolicy.apply(
            FaultInputs(unavailable: true), verdict: verdict, environment: .sandbox, draining: false, now: 0,
            to: &decision, state: &state, random: &random)
        #expect(decision.answer.status == 503)
        #expect(decision.answer.reason?.rawValue == reason)
        #expect(decision.answer.idHeader == (kind == .push ? .apnsID : .requestID))
    }

    /// A rule sees the answer the modes and behaviors made (its matcher may ask for a status).
    @Test func aRuleSeesTheAnswerSoFar() {
        var random = FastRandom(seed: (1, 2, 3, 4))
        let verdict = APNSVerdict(status: 200, reason: nil, deviceToken: Self.token)
        var decision = RequestDecision(
            streamID: 1, answer: APNSAnswer.from(verdict, apnsID: .echoed("x"), environment: .sandbox, random: &random))
        var seen: Int?
        let inputs = FaultInputs(
            unavailable: true,
            rule: { _, answer in
                seen = answer.status
                return nil
            })
        var state = ConnectionFaultState()
        FaultPolicy.apply(
            inputs, verdict: verdict, environment: .sandbox, draining: false, now: 0, to: &decision, state: &state,
            random: &random)
        #expect(seen == 503)
    }

    /// A rule that turns a rejection into a 200 gives it a unique id in the sandbox, as APNs does.
    @Test func aRuleThatAccepts() {
        var random = FastRandom(seed: (1, 2, 3, 4))
        let verdict = APNSVerdict(status: 400, reason: .badDeviceToken)
        var decision = RequestDecision(
            streamID: 1, answer: APNSAnswer.from(verdict, apnsID: .echoed("x"), environment: .sandbox, random: &random))
        #expect(decision.answer.uniqueID == nil)
        let inputs = FaultInputs(rule: { _, _ in
            FaultHit(ruleID: "ok", action: FaultAction(.respond(FaultResponse(status: 200))))
        })
        var state = ConnectionFaultState()
        FaultPolicy.apply(
            inputs, verdict: verdict, environment: .sandbox, draining: false, now: 0, to: &decision, state: &state,
            random: &random)
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
        var random = FastRandom(seed: (1, 2, 3, 4))
        let verdict = APNSVerdict(status: 400, reason: .channelNotRegistered, kind: kind)
        var decision = RequestDecision(
            streamID: 1,
            answer: APNSAnswer.from(verdict, apnsID: .echoed("x"), environment: environment, random: &random))
        let inputs = FaultInputs(rule: { _, _ in
            FaultHit(ruleID: "ok", action: FaultAction(.respond(FaultResponse(status: 200))))
        })
        var state = ConnectionFaultState()
        FaultPolicy.apply(
            inputs, verdict: verdict, environment: environment, draining: false, now: 0, to: &decision,
            state: &state, random: &random)
        #expect(decision.answer.status == 200)
        #expect((decision.answer.uniqueID != nil) == unique)
        #expect(APNSAnswer.successCarriesUniqueID(kind: kind, environment: environment) == unique)
    }
}
