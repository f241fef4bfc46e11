import APNSMockCore
import APNSMockStore
import Testing

@testable import APNSMockTransport

/// The connection's state machine alone: decisions in, actions out, no sockets or nghttp2.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = APNSSession.StateMachine

    static let answer = PreparedAnswer(
        status: 200, reason: nil, timestamp: nil, apnsID: .echoed("00000000-0000-0000-0000-000000000001"),
        uniqueID: nil, body: nil)

    static func decision(
        stream: Int32, sequence: UInt64 = 1, delay: Int64? = nil, final: RequestDecision.Final = .answer,
        streams: UInt32? = nil, firstAuthenticated: Bool = false
    ) -> RequestDecision {
        RequestDecision(
            streamID: stream, sequence: sequence, answer: answer, delayMilliseconds: delay, final: final,
            maxConcurrentStreams: streams, firstAuthenticatedPush: firstAuthenticated)
    }

    /// A readable form of the actions, for comparisons.
    static func describe(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .respond(let stream, let answer): "respond \(stream) \(answer.status)"
            case .completeRecord(let sequence, let response, let outcome):
                "complete \(sequence) \(response.map { String($0.status) } ?? "-") \(outcome.rawValue)"
            case .resetStream(let stream, let code): "reset \(stream) \(code)"
            case .goAway(let code, let last, let debug):
                "goaway \(code) \(last.map(String.init) ?? "last") \(String(decoding: debug, as: UTF8.self))"
            case .announceMaxConcurrentStreams(let limit): "settings \(limit)"
            case .startTimer(let stream, let ms): "timer \(stream) \(ms)"
            case .cancelTimer(let stream): "cancel \(stream)"
            case .close(let afterFlush): afterFlush ? "close after flush" : "close now"
            case .refuseStreamsBeingReceived(let except): "refuse all but \(except)"
            }
        }
    }

    static func step(_ machine: inout Machine, _ body: (inout Machine, inout [Machine.Action]) -> Void) -> [String] {
        var actions: [Machine.Action] = []
        body(&machine, &actions)
        return describe(actions)
    }

    @Test func theCommonRequestIsImmediate() {
        #expect(Machine.isImmediate(Self.decision(stream: 1)))
        #expect(!Machine.isImmediate(Self.decision(stream: 1, delay: 5)))
        #expect(!Machine.isImmediate(Self.decision(stream: 1, final: .hang)))
        #expect(!Machine.isImmediate(Self.decision(stream: 1, streams: 1)))
        #expect(!Machine.isImmediate(Self.decision(stream: 1, firstAuthenticated: true)))
    }

    @Test func aDelayedAnswerGoesOutWhenItsTimerFires() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        let decided = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 3, sequence: 7, delay: 500), recordComplete: false, now: 0, into: &$1)
        }
        #expect(decided == ["timer 3 500"])
        #expect(machine.waiting[3] != nil)
        let fired = Self.step(&machine) { $0.timerFired(streamID: 3, now: 500, into: &$1) }
        #expect(fired == ["respond 3 200", "complete 7 200 answered"])
        #expect(machine.waiting.isEmpty)
        // A second firing (a stale timer) does nothing.
        #expect(Self.step(&machine) { $0.timerFired(streamID: 3, now: 600, into: &$1) }.isEmpty)
    }

    @Test func aStreamResetByTheClientWhileDelayedIsCancelledNotAnswered() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 5, sequence: 2, delay: 1000), recordComplete: false, now: 0, into: &$1)
        }
        let closed = Self.step(&machine) { $0.streamClosed(streamID: 5, into: &$1) }
        #expect(closed == ["cancel 5", "complete 2 - cancelled"])
        #expect(Self.step(&machine) { $0.timerFired(streamID: 5, now: 1000, into: &$1) }.isEmpty)
    }

    @Test func aConnectionClosedWithAnswersPendingRecordsEachAsNeverAnswered() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 1, sequence: 1, delay: 100), recordComplete: false, now: 0, into: &$1)
        }
        let hung = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 3, sequence: 2, final: .hang), recordComplete: false, now: 0, into: &$1)
        }
        #expect(hung == ["complete 2 - hung"])
        let closed = Self.step(&machine) { $0.connectionClosed(into: &$1) }
        #expect(closed == ["cancel 1", "complete 1 - connectionClosed", "complete 2 - connectionClosed"])
        #expect(machine.phase == .closed)
    }

    @Test func aHungStreamIsNeverAnsweredAndEndsWhenTheClientResetsIt() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 1, sequence: 4, final: .hang), recordComplete: false, now: 0, into: &$1)
        }
        #expect(Self.step(&machine) { $0.timerFired(streamID: 1, now: 99, into: &$1) }.isEmpty)
        #expect(Self.step(&machine) { $0.streamClosed(streamID: 1, into: &$1) } == ["complete 4 - cancelled"])
    }

    @Test func delayThenAnotherAction() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 1, sequence: 9, delay: 10, final: .reset(errorCode: 7)), recordComplete: false,
                now: 0, into: &$1)
        }
        #expect(
            Self.step(&machine) { $0.timerFired(streamID: 1, now: 10, into: &$1) } == [
                "reset 1 7", "complete 9 - reset",
            ])
    }

    @Test func goAwayAnswersTheStreamsItCoversAndNotTheOthers() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        let covered = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(
                    stream: 5, sequence: 1, final: .goAway(errorCode: 0, lastStreamID: nil, debugData: Array("x".utf8))),
                recordComplete: false, now: 0, into: &$1)
        }
        #expect(covered == ["goaway 0 last x", "respond 5 200", "complete 1 200 answered"])
        #expect(machine.phase == .draining)
        var other = Machine(configuredStreams: 1000, authLimited: false)
        let beyond = Self.step(&other) {
            $0.requestDecided(
                Self.decision(stream: 7, sequence: 2, final: .goAway(errorCode: 2, lastStreamID: 5, debugData: [])),
                recordComplete: false, now: 0, into: &$1)
        }
        #expect(beyond == ["goaway 2 5 ", "reset 7 7", "complete 2 - goAway", "close after flush"])
        #expect(other.phase == .closed)
    }

    @Test func closeWithAndWithoutAnAnswer() {
        var first = Machine(configuredStreams: 1000, authLimited: false)
        #expect(
            Self.step(&first) {
                $0.requestDecided(
                    Self.decision(stream: 1, final: .close(respondFirst: true)), recordComplete: false, now: 0,
                    into: &$1)
            } == ["respond 1 200", "complete 1 200 answered", "close after flush"])
        var second = Machine(configuredStreams: 1000, authLimited: false)
        #expect(
            Self.step(&second) {
                $0.requestDecided(
                    Self.decision(stream: 1, final: .close(respondFirst: false)), recordComplete: false, now: 0,
                    into: &$1)
            } == ["complete 1 - connectionClosed", "close now"])
    }

    @Test func shutdownSendsOneGoAwayAndLetsDelayedAnswersFinish() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 1, sequence: 3, delay: 50), recordComplete: false, now: 0, into: &$1)
        }
        let debug = Array(#"{"reason":"Shutdown"}"#.utf8)
        #expect(
            Self.step(&machine) { $0.shutdown(debugData: debug, into: &$1) } == [
                #"goaway 0 last {"reason":"Shutdown"}"#
            ])
        #expect(Self.step(&machine) { $0.shutdown(debugData: debug, into: &$1) }.isEmpty)
        #expect(
            Self.step(&machine) { $0.timerFired(streamID: 1, now: 50, into: &$1) } == [
                "respond 1 200", "complete 3 200 answered",
            ])
    }

    /// The first authenticated push raises a token connection's limit, but not over a limit a
    /// fault rule set: the rule's SETTINGS survive the next push.
    @Test func aRuleLimitSurvivesTheFirstAuthenticatedPush() {
        var machine = Machine(configuredStreams: 1000, authLimited: true)
        #expect(machine.announcedStreams == 1)
        let ruled = Self.step(&machine) {
            $0.requestDecided(Self.decision(stream: 1, streams: 3), recordComplete: true, now: 0, into: &$1)
        }
        #expect(ruled == ["settings 3", "respond 1 200"])
        let authenticated = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 3, firstAuthenticated: true), recordComplete: true, now: 0, into: &$1)
        }
        #expect(authenticated == ["respond 3 200"])
        #expect(machine.announcedStreams == 3)
        // A behavior's limit does not override the rule's either.
        #expect(Self.step(&machine) { $0.limitStreams(1, into: &$1) }.isEmpty)
    }

    @Test func withoutARuleTheFirstAuthenticatedPushRaisesTheLimitOnce() {
        var machine = Machine(configuredStreams: 1000, authLimited: true)
        let first = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 1, firstAuthenticated: true), recordComplete: true, now: 0, into: &$1)
        }
        #expect(first == ["settings 1000", "respond 1 200"])
        #expect(Self.step(&machine) { $0.limitStreams(1, into: &$1) } == ["settings 1"])
        #expect(Self.step(&machine) { $0.restoreStreamLimit(into: &$1) } == ["settings 1000"])
        #expect(Self.step(&machine) { $0.restoreStreamLimit(into: &$1) }.isEmpty)
    }

    @Test func aCertificateOfTheOtherEnvironmentEndsTheConnection() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        var decision = Self.decision(stream: 1, final: .goAwayInsteadOfAnswer)
        decision.answer.body = Array("{}".utf8)
        let actions = Self.step(&machine) { $0.requestDecided(decision, recordComplete: true, now: 0, into: &$1) }
        #expect(actions == ["goaway 0 0 {}", "close after flush"])
        // Requests decided after the close are recorded as never answered.
        let late = Self.step(&machine) {
            $0.requestDecided(Self.decision(stream: 3, sequence: 2), recordComplete: false, now: 0, into: &$1)
        }
        #expect(late == ["complete 2 - connectionClosed"])
    }

    /// expired-token-poison: one stream, and every other open stream refused (a delayed one
    /// included, recorded as reset).
    @Test func poisonLimitsStreamsAndRefusesTheOthers() {
        var machine = Machine(configuredStreams: 1000, authLimited: false)
        _ = Self.step(&machine) {
            $0.requestDecided(
                Self.decision(stream: 1, sequence: 1, delay: 100), recordComplete: false, now: 0, into: &$1)
        }
        var poison = Self.decision(stream: 3, sequence: 2)
        poison.streamLimit = .limit(1)
        poison.refuseOpenStreams = true
        let actions = Self.step(&machine) { $0.requestDecided(poison, recordComplete: true, now: 0, into: &$1) }
        #expect(
            actions == [
                "settings 1", "cancel 1", "reset 1 7", "complete 1 - reset", "refuse all but 3", "respond 3 200",
            ])
        var restore = Self.decision(stream: 5, sequence: 3)
        restore.streamLimit = .restore
        #expect(
            Self.step(&machine) { $0.requestDecided(restore, recordComplete: true, now: 0, into: &$1) } == [
                "settings 1000", "respond 5 200",
            ])
    }
}
