import Testing

@testable import APNSMockCore

/// The connection's state machine alone: requests and events in, actions out, no sockets or
/// nghttp2. Each record is written once (`record`) and completed once only if it waited.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine

    static let answer = APNSAnswer(status: 200, apnsID: .echoed("00000000-0000-0000-0000-000000000001"))

    static func decision(
        stream: Int32, delay: Int64? = nil, fate: RequestDecision.Fate = .answer, streams: UInt32? = nil
    ) -> RequestDecision {
        RequestDecision(
            streamID: stream, answer: answer, delayMilliseconds: delay, fate: fate, maxConcurrentStreams: streams)
    }

    /// A readable form of the actions, for comparisons.
    static func describe(_ actions: [Machine.Action]) -> [String] {
        func recorded(_ recorded: Machine.RecordedAnswer) -> String {
            let status =
                recorded.answeredAt == nil ? "-" : recorded.outcome == .goAway ? "goaway" : "\(recorded.answer.status)"
            return "\(status) \(recorded.outcome.rawValue)"
        }
        return actions.map { action in
            switch action {
            case .record(let stream, let r): "record \(stream) \(recorded(r))"
            case .complete(let stream, _, let r): "complete \(stream) \(recorded(r))"
            case .respond(let stream, let answer, _): "respond \(stream) \(answer.status)"
            case .resetStream(let stream, let code): "reset \(stream) \(code)"
            case .goAway(let code, let last, let debug):
                "goaway \(code) \(last.map(String.init) ?? "last") \(String(decoding: debug, as: UTF8.self))"
            case .announceMaxConcurrentStreams(let limit): "settings \(limit)"
            case .startTimer(let stream, let ms): "timer \(stream) \(ms)"
            case .cancelTimer(let stream): "cancel \(stream)"
            case .close(let afterFlush): afterFlush ? "close after flush" : "close now"
            case .refuseStreamsBeingReceived(let except): "refuse all but \(except)"
            case .applyEffect(let stream, let at, _): "effect \(stream) at \(at)"
            case .claimFaults(let claim): "claim \(claim.rules)"
            }
        }
    }

    static func step(_ machine: inout Machine, _ body: (inout Machine, inout [Machine.Action]) -> Void) -> [String] {
        var actions: [Machine.Action] = []
        body(&machine, &actions)
        return describe(actions)
    }

    /// An event's own result and the actions it appended.
    static func event<Result>(
        _ machine: inout Machine, _ body: (inout Machine, inout [Machine.Action]) -> Result
    ) -> (Result, [String]) {
        var actions: [Machine.Action] = []
        let result = body(&machine, &actions)
        return (result, describe(actions))
    }

    /// The actions for `decision`; the common case (answered now, no actions) reads as the
    /// record and the answer the session then writes and sends.
    static func decide(_ machine: inout Machine, _ decision: RequestDecision, first: Bool = false) -> [String] {
        var answeredNow = false
        let actions = step(&machine) {
            answeredNow = $0.requestDecided(decision, firstAuthenticated: first, now: 0, into: &$1)
        }
        guard answeredNow else { return actions }
        #expect(actions.isEmpty)
        return [
            "record \(decision.streamID) \(decision.answer.status) answered",
            "respond \(decision.streamID) \(decision.answer.status)",
        ]
    }

    @Test func theCommonRequestIsRecordedAnsweredOnce() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        #expect(Self.decide(&machine, Self.decision(stream: 1)) == ["record 1 200 answered", "respond 1 200"])
        #expect(machine.isWaiting(streamID: 1) == false)
    }

    @Test func aDelayedAnswerIsRecordedPendingThenCompletedWhenItsTimerFires() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        #expect(Self.decide(&machine, Self.decision(stream: 3, delay: 500)) == ["record 3 - pending", "timer 3 500"])
        #expect(machine.isWaiting(streamID: 3) == true)
        let fired = Self.event(&machine) { $0.timerFired(streamID: 3, now: 500, into: &$1) }
        #expect(fired.0 == .performActions)
        #expect(fired.1 == ["complete 3 200 answered", "respond 3 200"])
        #expect(machine.isWaiting(streamID: 3) == false)
        // A second firing (a stale timer) does nothing.
        let stale = Self.event(&machine) { $0.timerFired(streamID: 3, now: 600, into: &$1) }
        #expect(stale.0 == .nothingDue && stale.1.isEmpty)
    }

    /// The store's sequence number of a waiting stream's record is the machine's to keep: the
    /// completion names it (the session keeps no table of open records), whatever ends the wait.
    @Test func aWaitingStreamsCompletionNamesItsRecord() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 3, delay: 500))
        _ = Self.decide(&machine, Self.decision(stream: 5, fate: .hang))
        #expect(machine.recordStored(streamID: 3, sequence: 41) == .noted)
        #expect(machine.recordStored(streamID: 5, sequence: 42) == .noted)
        #expect(machine.recordStored(streamID: 7, sequence: 43) == .notWaiting)
        var fired: [ConnectionStateMachine.Action] = []
        _ = machine.timerFired(streamID: 3, now: 500, into: &fired)
        #expect(fired.contains { if case .complete(3, 41, _) = $0 { true } else { false } })
        var closed: [ConnectionStateMachine.Action] = []
        _ = machine.connectionClosed(into: &closed)
        #expect(closed.contains { if case .complete(5, 42, _) = $0 { true } else { false } })
        #expect(machine.recordStored(streamID: 5, sequence: 44) == .notWaiting)
    }

    /// What an answer is counted by (kind, push type, when its request was ready) goes out with
    /// it, after a delay as at once: the session keeps no table of it.
    @Test func aDelayedAnswerCarriesItsLabels() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        var decision = Self.decision(stream: 3, delay: 20, fate: .close(respondFirst: true))
        let labels = AnswerLabels(kind: .broadcast, pushType: .liveactivity, readyAt: 42)
        decision.labels = labels
        _ = Self.decide(&machine, decision)
        var actions: [Machine.Action] = []
        #expect(machine.timerFired(streamID: 3, now: 20, into: &actions) == .performActions)
        let responded = actions.compactMap { action -> AnswerLabels? in
            guard case .respond(3, _, let carried) = action else { return nil }
            return carried
        }
        #expect(responded == [labels])
    }

    /// The decision is the answer: a success whose request has an effect waits for it before
    /// any action (`applyEffect`), and is recorded and sent as the effect finished it, with the
    /// rest of its fate after (here a GOAWAY that covers it, answer first).
    @Test(arguments: [
        (EffectOutcome(change: .channelCreated(id: "ch"), recordChannelID: "ch"), 201, "ch"),
        (EffectOutcome(change: .rejected(.channelNotRegistered)), 400, nil),
    ])
    func aSuccessWithAnEffectIsAnsweredAsTheEffectFinishedIt(
        _ outcome: EffectOutcome, _ status: Int, _ channelID: String?
    ) throws {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        var decision = Self.decision(
            stream: 1, fate: .goAway(errorCode: 0, lastStreamID: nil, debugData: [], order: .answerFirst))
        decision.answer.status = 201
        let held = HeldRequest(
            request: Self.request(), verdict: APNSVerdict(status: 201, reason: nil, kind: .channel),
            environment: .sandbox, receivedAt: 7)
        decision.held = held
        #expect(Self.decide(&machine, decision) == ["effect 1 at 0"])
        var actions: [Machine.Action] = []
        #expect(machine.effectApplied(streamID: 1, outcome: outcome, into: &actions) == .performActions)
        #expect(Self.describe(actions) == ["record 1 \(status) answered", "respond 1 \(status)", "goaway 0 last "])
        guard case .record(_, let recorded) = actions.first, case .respond(_, let sent, _) = actions[1] else {
            Issue.record("no record and answer")
            return
        }
        #expect(recorded.answer == sent, "the record and the wire carry one answer")
        #expect(sent.channelID == channelID)
        #expect(recorded.effect == outcome)
        // Nothing is pending any more.
        #expect(machine.effectApplied(streamID: 1, outcome: outcome, into: &actions) == .nothingOwed)
    }

    @Test func aStreamResetByTheClientWhileDelayedIsCancelledNotAnswered() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 5, delay: 1000))
        let closed = Self.event(&machine) { $0.streamsClosed([5], into: &$1) }
        #expect(closed.0 == .performActions)
        #expect(closed.1 == ["cancel 5", "complete 5 - cancelled"])
        #expect(Self.event(&machine) { $0.timerFired(streamID: 5, now: 1000, into: &$1) }.0 == .nothingDue)
        let again = Self.event(&machine) { $0.streamsClosed([5], into: &$1) }
        #expect(again.0 == .nothingOwed && again.1.isEmpty)
    }

    /// Every close is reported; only the streams still owed are ended, in the order reported.
    @Test func closesOfStreamsNotOwedAreIgnored() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1))
        _ = Self.decide(&machine, Self.decision(stream: 3, fate: .hang))
        _ = Self.decide(&machine, Self.decision(stream: 5, delay: 100))
        let none = Self.event(&machine) { $0.streamsClosed([1, 7], into: &$1) }
        #expect(none.0 == .nothingOwed && none.1.isEmpty)
        let both = Self.event(&machine) { $0.streamsClosed([1, 5, 3], into: &$1) }
        #expect(both.0 == .performActions)
        #expect(both.1 == ["cancel 5", "complete 5 - cancelled", "complete 3 - cancelled"])
        #expect(Self.event(&machine) { $0.streamsClosed([3, 5], into: &$1) }.0 == .nothingOwed)
    }

    @Test func aConnectionClosedWithAnswersPendingRecordsEachAsNeverAnswered() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1, delay: 100))
        #expect(Self.decide(&machine, Self.decision(stream: 3, fate: .hang)) == ["record 3 - hung"])
        let closed = Self.event(&machine) { $0.connectionClosed(into: &$1) }
        #expect(closed.0 == Machine.OnConnectionClosed(reason: .clientClosed))
        #expect(closed.1 == ["cancel 1", "complete 1 - connectionClosed", "complete 3 - connectionClosed"])
        #expect(machine.phaseName == "closed")
        #expect(machine.isClosed == true)
    }

    @Test func aHungStreamIsNeverAnsweredAndEndsWhenTheClientResetsIt() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1, fate: .hang))
        #expect(Self.step(&machine) { $0.timerFired(streamID: 1, now: 99, into: &$1) }.isEmpty)
        #expect(Self.step(&machine) { $0.streamsClosed([1], into: &$1) } == ["complete 1 - cancelled"])
    }

    @Test func delayThenAnotherAction() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1, delay: 10, fate: .reset(errorCode: 7)))
        #expect(
            Self.step(&machine) { $0.timerFired(streamID: 1, now: 10, into: &$1) } == [
                "complete 1 - reset", "reset 1 7",
            ])
    }

    @Test func goAwayAnswersTheStreamsItCoversAndNotTheOthers() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        let covered = Self.decide(
            &machine,
            Self.decision(stream: 5, fate: .goAway(errorCode: 0, lastStreamID: nil, debugData: Array("x".utf8))))
        #expect(covered == ["record 5 200 answered", "respond 5 200", "goaway 0 last x"])
        #expect(machine.phaseName == "draining")
        var other = Machine(configuredStreams: 1000, authLimited: false)
        let beyond = Self.decide(
            &other, Self.decision(stream: 7, fate: .goAway(errorCode: 2, lastStreamID: 5, debugData: [])))
        #expect(beyond == ["goaway 2 5 ", "record 7 - goAway", "reset 7 7", "close after flush"])
        #expect(other.isClosed == true)
    }

    /// Issue 29: the stream a GOAWAY covers is answered before it (`answerFirst`, the default:
    /// python-hyper's h2 takes a frame after GOAWAY as a protocol error, and aioapns then sends
    /// the push again) or after it (`goAwayFirst`), as the rule says; the transport sends the
    /// frames in this order.
    @Test(arguments: [
        (GoAwayOrder?.none, ["record 5 200 answered", "respond 5 200", "goaway 0 last x"]),
        (.answerFirst, ["record 5 200 answered", "respond 5 200", "goaway 0 last x"]),
        (.goAwayFirst, ["goaway 0 last x", "record 5 200 answered", "respond 5 200"]),
    ])
    func theCoveredStreamIsAnsweredBeforeOrAfterTheGoAwayAsTheOrderSays(
        _ order: GoAwayOrder?, _ expected: [String]
    ) {
        for lastStreamID: Int32? in [nil, 5, 9] {
            var machine = Machine(configuredStreams: 1000, authLimited: false)
            let fate: RequestDecision.Fate =
                if let order {
                    .goAway(errorCode: 0, lastStreamID: lastStreamID, debugData: Array("x".utf8), order: order)
                } else {
                    .goAway(errorCode: 0, lastStreamID: lastStreamID, debugData: Array("x".utf8))
                }
            let last = lastStreamID.map(String.init) ?? "last"
            let actions = Self.decide(&machine, Self.decision(stream: 5, fate: fate))
            #expect(actions == expected.map { $0 == "goaway 0 last x" ? "goaway 0 \(last) x" : $0 })
            #expect(machine.phaseName == "draining")
        }
    }

    /// A stream above the GOAWAY's last stream is refused whatever the order: GOAWAY, then its
    /// record and RST_STREAM REFUSED_STREAM.
    @Test(arguments: GoAwayOrder.allCases)
    func aStreamTheGoAwayDoesNotCoverIsRefusedInEitherOrder(_ order: GoAwayOrder) {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        let actions = Self.decide(
            &machine,
            Self.decision(stream: 7, fate: .goAway(errorCode: 0, lastStreamID: 5, debugData: [], order: order)))
        #expect(actions == ["goaway 0 5 ", "record 7 - goAway", "reset 7 7"])
    }

    /// A delayed stream the GOAWAY covers keeps its order when its timer fires; streams waiting
    /// above the last stream are refused right after the GOAWAY.
    @Test func aDelayedGoAwayAnswersFirstAndRefusesTheWaitingStreamsAboveIt() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(
            &machine,
            Self.decision(stream: 3, delay: 10, fate: .goAway(errorCode: 0, lastStreamID: 3, debugData: [])))
        _ = Self.decide(&machine, Self.decision(stream: 5, delay: 100))
        #expect(
            Self.step(&machine) { $0.timerFired(streamID: 3, now: 10, into: &$1) } == [
                "complete 3 200 answered", "respond 3 200", "goaway 0 3 ", "cancel 5", "reset 5 7",
                "complete 5 - goAway",
            ])
    }

    /// Issue 18: a GOAWAY's last stream id is never below a stream already answered (RFC 9113
    /// §6.8: it is the highest stream the sender may have acted on).
    @Test func aRuleGoAwayNeverNamesALastStreamBelowOneAnswered() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        for stream: Int32 in [1, 3, 5] { _ = Self.decide(&machine, Self.decision(stream: stream)) }
        let actions = Self.decide(
            &machine, Self.decision(stream: 7, fate: .goAway(errorCode: 0, lastStreamID: 1, debugData: [])))
        #expect(actions == ["goaway 0 5 ", "record 7 - goAway", "reset 7 7"])
        // A later stream is above the (raised) last stream id: refused, recorded.
        #expect(Self.decide(&machine, Self.decision(stream: 9)) == ["record 9 - goAway", "reset 9 7"])
    }

    /// Streams waiting (a delay, a hang) above a GOAWAY's last stream were not processed, as
    /// the GOAWAY says: refused and recorded `goAway` with it, not when their delay ends (seen
    /// with Pushy, whose Netty forgets them at once: the record said `cancelled` when the
    /// connection closed first). A waiting stream the GOAWAY covers is still answered.
    @Test func streamsWaitingAboveAGoAwayAreRefusedWithIt() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1))
        _ = Self.decide(&machine, Self.decision(stream: 3, delay: 100))
        _ = Self.decide(&machine, Self.decision(stream: 5, delay: 100))
        _ = Self.decide(&machine, Self.decision(stream: 9, fate: .hang))
        #expect(
            Self.decide(&machine, Self.decision(stream: 7, fate: .goAway(errorCode: 0, lastStreamID: 3, debugData: [])))
                == [
                    "goaway 0 3 ", "cancel 5", "reset 5 7", "complete 5 - goAway", "reset 9 7", "complete 9 - goAway",
                    "record 7 - goAway", "reset 7 7",
                ])
        #expect(Self.step(&machine) { $0.timerFired(streamID: 5, now: 100, into: &$1) }.isEmpty)
        #expect(
            Self.step(&machine) { $0.timerFired(streamID: 3, now: 100, into: &$1) } == [
                "complete 3 200 answered", "respond 3 200",
            ])
        #expect(Self.step(&machine) { $0.connectionClosed(into: &$1) }.isEmpty)
    }

    @Test func closeWithAndWithoutAnAnswer() {
        var first = Machine(configuredStreams: 1000, authLimited: false)
        #expect(
            Self.decide(&first, Self.decision(stream: 1, fate: .close(respondFirst: true))) == [
                "record 1 200 answered", "respond 1 200", "close after flush",
            ])
        var second = Machine(configuredStreams: 1000, authLimited: false)
        #expect(
            Self.decide(&second, Self.decision(stream: 1, fate: .close(respondFirst: false))) == [
                "record 1 - connectionClosed", "close now",
            ])
    }

    @Test func shutdownSendsOneGoAwayAndLetsDelayedAnswersFinish() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1, delay: 50))
        let debug = Array(#"{"reason":"Shutdown"}"#.utf8)
        let first = Self.event(&machine) { $0.shutdown(debugData: debug, into: &$1) }
        #expect(first.0 == .goAwaySent)
        #expect(first.1 == [#"goaway 0 last {"reason":"Shutdown"}"#])
        let second = Self.event(&machine) { $0.shutdown(debugData: debug, into: &$1) }
        #expect(second.0 == .alreadyEnding && second.1.isEmpty)
        #expect(
            Self.step(&machine) { $0.timerFired(streamID: 1, now: 50, into: &$1) } == [
                "complete 1 200 answered", "respond 1 200",
            ])
    }

    @Test func theIdleTimeoutEndsOnlyAnIdleConnection() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1, delay: 50))
        var actions: [Machine.Action] = []
        #expect(machine.idleTimeoutElapsed(streamsBeingReceived: 0, debugData: [], into: &actions) == .keptOpen)
        _ = Self.step(&machine) { $0.timerFired(streamID: 1, now: 50, into: &$1) }
        #expect(machine.idleTimeoutElapsed(streamsBeingReceived: 1, debugData: [], into: &actions) == .keptOpen)
        #expect(actions.isEmpty)
        #expect(
            machine.idleTimeoutElapsed(streamsBeingReceived: 0, debugData: Array("i".utf8), into: &actions) == .ended)
        #expect(Self.describe(actions) == ["goaway 0 last i"])
        #expect(machine.phaseName == "draining")
    }

    /// The first authenticated push raises a token connection's limit, but not over a limit a
    /// fault rule set: the rule's SETTINGS survive the next push.
    @Test func aRuleLimitSurvivesTheFirstAuthenticatedPush() {
        var machine = Machine(configuredStreams: 1000, authLimited: true)
        #expect(machine.announcedStreams == 1)
        #expect(
            Self.decide(&machine, Self.decision(stream: 1, streams: 3)) == [
                "settings 3", "record 1 200 answered", "respond 1 200",
            ])
        #expect(
            Self.decide(&machine, Self.decision(stream: 3), first: true) == ["record 3 200 answered", "respond 3 200"])
        #expect(machine.announcedStreams == 3)
        // A behavior's limit does not override the rule's either.
        var limited = Self.decision(stream: 5)
        limited.streamLimit = .limit(1)
        #expect(Self.decide(&machine, limited) == ["record 5 200 answered", "respond 5 200"])
    }

    @Test func withoutARuleTheFirstAuthenticatedPushRaisesTheLimitOnce() {
        var machine = Machine(configuredStreams: 1000, authLimited: true)
        #expect(
            Self.decide(&machine, Self.decision(stream: 1), first: true) == [
                "settings 1000", "record 1 200 answered", "respond 1 200",
            ])
        var limited = Self.decision(stream: 3)
        limited.streamLimit = .limit(1)
        #expect(Self.decide(&machine, limited).first == "settings 1")
        var restored = Self.decision(stream: 5)
        restored.streamLimit = .restore
        #expect(Self.decide(&machine, restored).first == "settings 1000")
        #expect(Self.decide(&machine, restored).first == "record 5 200 answered")
    }

    /// Issue 18: the answer to a certificate of the other environment is only a GOAWAY: the
    /// record says so (outcome goAway, no status), and the GOAWAY names the last stream answered.
    @Test func aCertificateOfTheOtherEnvironmentEndsTheConnection() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        var decision = Self.decision(stream: 1, fate: .goAwayInsteadOfAnswer)
        decision.answer.body = Array("{}".utf8)
        #expect(Self.decide(&machine, decision) == ["record 1 goaway goAway", "goaway 0 0 {}", "close after flush"])
        // Requests decided after the close are recorded as never answered.
        #expect(Self.decide(&machine, Self.decision(stream: 3)) == ["record 3 - connectionClosed"])
    }

    /// expired-token-poison: one stream, and every other open stream refused (a delayed one
    /// included, recorded as reset).
    @Test func poisonLimitsStreamsAndRefusesTheOthers() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.decide(&machine, Self.decision(stream: 1, delay: 100))
        var poison = Self.decision(stream: 3)
        poison.streamLimit = .limit(1)
        poison.refuseOpenStreams = true
        #expect(
            Self.decide(&machine, poison) == [
                "settings 1", "cancel 1", "reset 1 7", "complete 1 - reset", "refuse all but 3",
                "record 3 200 answered", "respond 3 200",
            ])
        var restore = Self.decision(stream: 5)
        restore.streamLimit = .restore
        #expect(Self.decide(&machine, restore) == ["settings 1000", "record 5 200 answered", "respond 5 200"])
    }

    @Test func theStreamLimitGoAwayClosesOnce() {
        var machine = Machine(configuredStreams: 2, authLimited: false)
        let (result, actions) = Self.event(&machine) { $0.http2Failed(.streamLimit, into: &$1) }
        #expect(result == .closeAfterFlush)
        #expect(actions == ["goaway 7 last Maximum active streams violated for this endpoint.", "close after flush"])
        #expect(machine.isClosed == true)
        let again = Self.event(&machine) { $0.http2Failed(.streamLimit, into: &$1) }
        #expect(again.0 == .alreadyClosing && again.1.isEmpty)
    }

    // MARK: whole requests: rules, authentication state, fault policy

    static func request() -> APNSRequest { RequestBuilder().request }

    /// A request arrives whole; when the fault policy claims shared counts, `settled` is what
    /// the shared controls grant (and the claim is returned through `claimed`).
    static func ready(
        _ machine: inout Machine, stream: Int32, faults: FaultInputs? = nil, request: APNSRequest = request(),
        settled: FaultClaim.Settled = .nothing, claimed: inout FaultClaim?
    ) -> (APNSVerdict, [String]) {
        var random = FastRandom(seed: (1, 2, 3, 4))
        var actions: [Machine.Action] = []
        var decided = machine.requestReady(
            request, streamID: stream, environment: .sandbox, registry: RegistrySnapshot(),
            rules: ServiceRules(), faults: faults, now: RequestBuilder.now, random: &random, into: &actions)
        if case .claimFaults = decided.next {
            guard case .claimFaults(let claim)? = actions.last, actions.count == 1 else {
                Issue.record("a claim is the one action of its request: \(describe(actions))")
                return (decided.verdict, [])
            }
            claimed = claim
            actions.removeAll()
            decided = machine.faultsClaimed(settled, random: &random, into: &actions)!
        }
        if case .answerNow(let answer) = decided.next {
            #expect(actions.isEmpty)
            return (
                decided.verdict, ["record \(stream) \(answer.status) answered", "respond \(stream) \(answer.status)"]
            )
        }
        return (decided.verdict, describe(actions))
    }

    static func ready(
        _ machine: inout Machine, stream: Int32, faults: FaultInputs? = nil, request: APNSRequest = request()
    ) -> (APNSVerdict, [String]) {
        var claimed: FaultClaim?
        return ready(&machine, stream: stream, faults: faults, request: request, claimed: &claimed)
    }

    /// The machine keeps the connection's authentication state: the first accepted push lifts
    /// the one-stream start, once.
    @Test func theFirstAcceptedPushLiftsTheOneStreamStart() {
        var machine = Machine(configuredStreams: 1000, authentication: .token, authLimited: true)
        let (verdict, first) = Self.ready(&machine, stream: 1)
        #expect(verdict.status == 200)
        #expect(first == ["settings 1000", "record 1 200 answered", "respond 1 200"])
        #expect(Self.ready(&machine, stream: 3).1 == ["record 3 200 answered", "respond 3 200"])
    }

    /// A delay rule from the fault inputs holds the answer; the verdict still comes back for
    /// the record.
    @Test func aFaultRuleDelaysTheAnswer() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        let action = FaultAction(delay: FaultDelay(milliseconds: 250), effect: nil)
        let faults = FaultInputs(
            snapshot: FaultSnapshot(rules: FaultRuleSet([FaultRule(id: "f1", action: action, createdAt: 0)])))
        var claimed: FaultClaim?
        let (verdict, actions) = Self.ready(
            &machine, stream: 1, faults: faults,
            settled: FaultClaim.Settled(hit: FaultHit(ruleID: "f1", action: action, delayMilliseconds: 250)),
            claimed: &claimed)
        #expect(claimed == FaultClaim(rules: ["f1"]))
        #expect(verdict.status == 200)
        #expect(actions == ["record 1 - pending", "timer 1 250"])
    }

    /// A claim that the shared controls deny (the rule's selection did not take this request)
    /// leaves the answer as the rules made it.
    @Test func aDeniedClaimAnswersAsTheRulesSaid() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        let faults = FaultInputs(
            snapshot: FaultSnapshot(
                rules: FaultRuleSet([FaultRule(id: "f1", action: FaultAction(.hang), createdAt: 0)])))
        var claimed: FaultClaim?
        let (_, actions) = Self.ready(&machine, stream: 1, faults: faults, claimed: &claimed)
        #expect(claimed == FaultClaim(rules: ["f1"]))
        #expect(actions == ["record 1 200 answered", "respond 1 200"])
        var random = FastRandom(seed: (1, 2, 3, 4))
        var none: [Machine.Action] = []
        #expect(machine.faultsClaimed(.nothing, random: &random, into: &none) == nil)
    }
}
