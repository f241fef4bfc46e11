import Testing

@testable import APNSMockCore

/// What a fault rule's HTTP/2-only actions become on an HTTP/1.1 connection (Web Push without
/// ALPN h2): the fate HTTP/1.1 can carry out, and a record that says what happened instead.
@Suite struct RequestDecisionHTTP1Tests {
    typealias Machine = ConnectionStateMachine

    static func decision(_ fate: RequestDecision.Fate, streams: UInt32? = nil) -> RequestDecision {
        var decision = ConnectionStateMachineTests.decision(stream: 1, fate: fate, streams: streams)
        decision.faultID = "rule"
        decision.detail = "fault rule 'rule' did it"
        return decision
    }

    @Test func aResetClosesTheConnectionWithoutAnAnswer() {
        var decision = Self.decision(.reset(errorCode: HTTP2ErrorCode.cancel.rawValue))
        decision.adaptForHTTP1()
        #expect(decision.fate == .close(respondFirst: false))
        #expect(
            decision.detail
                == "fault rule 'rule' did it (HTTP/1.1 has no streams to reset: the connection was closed instead)")
    }

    @Test func aGoAwayAnswersEveryRequestWithTheGoAwayFirst() {
        var decision = Self.decision(.goAway(errorCode: 0, lastStreamID: 0, debugData: [1], order: .answerFirst))
        decision.adaptForHTTP1()
        // No last stream to refuse above, and the GOAWAY before the answer so that the answer
        // knows it is the last (`Connection: close`).
        #expect(decision.fate == .goAway(errorCode: 0, lastStreamID: nil, debugData: [1], order: .goAwayFirst))
        #expect(decision.detail?.contains("HTTP/1.1 has no GOAWAY") == true)

        var machine = Machine(configuredStreams: 100, authLimited: false)
        #expect(
            ConnectionStateMachineTests.decide(&machine, decision)
                == ["goaway 0 last \u{1}", "record 1 200 answered", "respond 1 200"])
    }

    @Test func settingsChangesAreDroppedAndTheRequestAnswered() {
        var decision = Self.decision(.answer, streams: 1)
        decision.streamLimit = .limit(1)
        decision.refuseOpenStreams = true
        decision.adaptForHTTP1()
        #expect(decision.maxConcurrentStreams == nil && decision.streamLimit == nil && !decision.refuseOpenStreams)
        #expect(
            decision.detail?.hasSuffix("(HTTP/1.1 has no SETTINGS: MAX_CONCURRENT_STREAMS was not announced)") == true)
        var machine = Machine(configuredStreams: 100, authLimited: false)
        #expect(ConnectionStateMachineTests.decide(&machine, decision) == ["record 1 200 answered", "respond 1 200"])
    }

    @Test(arguments: [RequestDecision.Fate.answer, .hang, .close(respondFirst: true), .close(respondFirst: false)])
    func whatBothProtocolsDoIsLeftAlone(fate: RequestDecision.Fate) {
        var decision = Self.decision(fate)
        decision.delayMilliseconds = 500
        let before = decision
        decision.adaptForHTTP1()
        #expect(decision == before)
    }
}
