/// One APNs connection's decisions over time, and every piece of state they depend on:
/// authentication so far, what the behaviors did to it, the MAX_CONCURRENT_STREAMS it
/// announces, the streams whose answer waits (a delay) or never comes (a hang), the highest
/// stream answered, GOAWAY and closing.
///
/// Pure: it is told what happened (a request is ready, a timer fired, a stream or the
/// connection closed, a shutdown or an idle check) and appends the actions to perform; the
/// transport performs them on nghttp2, the store and the channel. Every request goes through
/// it, the common one included, and each record is written once when its answer is decided
/// (`record`), then once more only if it was left waiting (`complete`). Its state is private:
/// the transport asks two questions (`isClosed`, `isWaiting(streamID:)`) and changes it only
/// through these events. The common request's answer comes back as the event's result
/// (`OnRequestReady.answerNow`), every other decision as actions.
public struct ConnectionStateMachine: Sendable {
    /// What the transport does for the machine, in order.
    public enum Action: Sendable, Equatable {
        /// Store the request's record. One per request, before any `respond` for it.
        case record(streamID: Int32, RecordedAnswer)
        /// A request recorded earlier (left waiting) got its final answer, or none.
        case complete(streamID: Int32, RecordedAnswer)
        /// Submit `answer` on the stream.
        case respond(streamID: Int32, APNSAnswer)
        case resetStream(streamID: Int32, errorCode: UInt32)
        /// `lastStreamID` `nil`: the last stream processed.
        case goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8])
        case announceMaxConcurrentStreams(UInt32)
        /// Call `timerFired(streamID:)` after this many milliseconds.
        case startTimer(streamID: Int32, milliseconds: Int64)
        case cancelTimer(streamID: Int32)
        /// Close the connection: once what is queued has been sent, or at once.
        case close(afterFlush: Bool)
        /// Reset (REFUSED_STREAM) every open stream still being received, but `except`.
        case refuseStreamsBeingReceived(except: Int32)
    }

    /// What a record says of its request's answer: what went out (`answer` with `answeredAt`,
    /// or only its reason in a GOAWAY), or that none did and why (`outcome`).
    public struct RecordedAnswer: Sendable, Equatable {
        public var outcome: DeliveryOutcome
        /// The answer decided for the request (its ids are the record's even when nothing
        /// went out).
        public var answer: APNSAnswer
        /// When the answer went out (epoch ms); `nil` when none did.
        public var answeredAt: Int64?
        /// The fault rule that acted on the request (set when the record is first written).
        public var faultID: String?

        public init(outcome: DeliveryOutcome, answer: APNSAnswer, answeredAt: Int64? = nil, faultID: String? = nil) {
            self.outcome = outcome
            self.answer = answer
            self.answeredAt = answeredAt
            self.faultID = faultID
        }
    }

    /// A stream whose answer waits (a delay) or never comes (a hang).
    struct Waiting: Sendable {
        var answer: APNSAnswer
        var fate: RequestDecision.Fate
        /// A hang: no timer runs.
        var hung: Bool
    }

    /// The state of a connection that may still answer.
    struct Live: Sendable {
        var auth = ConnectionAuthState()
        var faults = ConnectionFaultState()
        var waiting: [Int32: Waiting] = [:]
        /// The limit the server is configured with.
        let configuredStreams: UInt32
        /// The limit last announced.
        var announcedStreams: UInt32
        /// A limit set by a fault rule: kept until another rule changes it.
        var ruleStreams: UInt32?
        /// A token connection that has not yet had a push pass authentication (one stream).
        var authLimited: Bool
        /// The last stream id a GOAWAY named: streams above it are not answered (the client
        /// retries them elsewhere).
        var goAwayLastStreamID: Int32?
        /// The highest stream answered: no GOAWAY names a lower last stream id (RFC 9113 §6.8).
        var highestAnswered: Int32 = 0
    }

    /// Where the connection is.
    private enum Phase: Sendable {
        /// Streams are served.
        case serving
        /// GOAWAY went out: streams it covers are finished, then the connection closes.
        case draining
        /// The connection is going: nothing more is answered; waiting streams end when it has
        /// closed.
        case closing
        /// The connection has closed.
        case closed
    }

    // The state is the phase and the data of a live connection, kept side by side rather than
    // as an enum whose cases carry the data (swift-nio-http2's shape): every request mutates the
    // data, and taking it out of an enum payload and back copied it on each one (+600
    // instructions per push under callgrind). After `closed` the data is empty and unused.
    private var phase = Phase.serving
    private var live: Live
    private let authentication: AuthenticationMode

    /// - Parameters:
    ///   - configuredStreams: the MAX_CONCURRENT_STREAMS the server is configured with.
    ///   - authentication: token or certificate, fixed at the handshake.
    ///   - authLimited: the connection starts with one stream until a push passes token
    ///     authentication (the first SETTINGS announced 1).
    public init(configuredStreams: UInt32, authentication: AuthenticationMode = .token, authLimited: Bool) {
        self.authentication = authentication
        live = Live(
            configuredStreams: configuredStreams, announcedStreams: authLimited ? 1 : configuredStreams,
            authLimited: authLimited)
    }

    /// Whether the connection is closing or closed: the session stops reading and writing.
    public var isClosed: Bool { phase == .closing || phase == .closed }

    // MARK: events

    /// What the machine decided for a request that arrived.
    public struct OnRequestReady: Sendable {
        /// The rules' verdict, for the record.
        public var verdict: APNSVerdict
        /// The common case, decided without actions: record this answer as answered now and
        /// send it, nothing else. `nil`: perform the actions appended instead.
        public var answerNow: APNSAnswer?
        /// The fault rule that acted (for the record of `answerNow`).
        public var faultID: String?
    }

    /// A request has arrived whole (or enough of it): the rules judge it with the connection's
    /// authentication state, the fault policy may change the answer, and the result (the common
    /// case) or the actions say how it goes out.
    /// - Parameter faults: the fault controls, when any is on.
    public mutating func requestReady(
        _ request: APNSRequest, streamID: Int32, environment: APNSEnvironment, registry: RegistrySnapshot,
        rules: RequestRules, faults: FaultInputs?, now: Int64, random: inout FastRandom, into actions: inout [Action]
    ) -> OnRequestReady {
        guard !isClosed else {
            // Read in the same pass as the frame that ended the connection: recorded, never answered.
            let verdict = rules.evaluate(
                request,
                context: ConnectionContext(
                    environment: environment, authentication: authentication, registry: registry, now: now))
            let answer = APNSAnswer.from(
                verdict, apnsID: Self.apnsID(verdict, random: &random), environment: environment, random: &random)
            actions.append(.record(streamID: streamID, RecordedAnswer(outcome: .connectionClosed, answer: answer)))
            return OnRequestReady(verdict: verdict)
        }
        let verdict = rules.evaluate(
            request,
            context: ConnectionContext(
                environment: environment, authentication: authentication, authState: live.auth, registry: registry,
                now: now))
        var firstAuthenticated = false
        if let next = verdict.nextAuthState {
            firstAuthenticated = !live.auth.isEstablished && next.isEstablished
            live.auth = next
        }
        var decision = RequestDecision(
            streamID: streamID,
            answer: APNSAnswer.from(
                verdict, apnsID: Self.apnsID(verdict, random: &random), environment: environment, random: &random),
            fate: verdict.goAway ? .goAwayInsteadOfAnswer : .answer)
        if let faults {
            FaultPolicy.apply(
                faults, verdict: verdict, environment: environment, draining: phase == .draining, now: now,
                to: &decision, state: &live.faults, random: &random)
        }
        let answeredNow = Self.decided(
            decision, firstAuthenticated: firstAuthenticated, now: now, live: &live, phase: &phase, into: &actions)
        let faultID = decision.faultID
        return OnRequestReady(
            verdict: verdict, answerNow: answeredNow ? decision.answer : nil, faultID: faultID)
    }

    /// The client's `apns-id` when it is valid, else a new one.
    private static func apnsID(_ verdict: APNSVerdict, random: inout FastRandom) -> ResponseMessageID {
        if let sent = verdict.sentMessageID, APNSMessageID.isValid(sent) { return .echoed(sent) }
        return .generate(using: &random)
    }

    /// The delay of `streamID` has run out.
    public mutating func timerFired(streamID: Int32, now: Int64, into actions: inout [Action]) {
        modify { live, phase in
            guard let entry = live.waiting[streamID], !entry.hung else { return }
            live.waiting[streamID] = nil
            if let last = live.goAwayLastStreamID, streamID > last {
                // A GOAWAY since said this stream was not processed.
                actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                actions.append(.complete(streamID: streamID, RecordedAnswer(outcome: .goAway, answer: entry.answer)))
                return
            }
            Self.settle(
                streamID: streamID, answer: entry.answer, fate: entry.fate, recorded: true, faultID: nil, now: now,
                live: &live, phase: &phase, into: &actions)
        }
    }

    /// The stream closed before its answer went out (the client reset it).
    public mutating func streamClosed(streamID: Int32, into actions: inout [Action]) {
        modify { live, _ in
            guard let entry = live.waiting.removeValue(forKey: streamID) else { return }
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(.complete(streamID: streamID, RecordedAnswer(outcome: .cancelled, answer: entry.answer)))
        }
    }

    /// Whether `streamID` waits for its answer (the session then watches for its close).
    public func isWaiting(streamID: Int32) -> Bool {
        phase != .closed && live.waiting[streamID] != nil
    }

    /// The connection has closed: every waiting stream ends unanswered.
    public mutating func connectionClosed(into actions: inout [Action]) {
        guard phase != .closed else { return }
        for (streamID, entry) in live.waiting.sorted(by: { $0.key < $1.key }) {
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(
                .complete(streamID: streamID, RecordedAnswer(outcome: .connectionClosed, answer: entry.answer)))
        }
        live.waiting.removeAll()
        phase = .closed
    }

    /// A graceful end (SIGTERM, the shutdown mode, an idle timeout): GOAWAY NO_ERROR with
    /// `debugData` and the last processed stream; streams it covers are still answered,
    /// delayed ones when their time comes, then the connection closes.
    public mutating func shutdown(debugData: [UInt8], into actions: inout [Action]) {
        guard phase == .serving else { return }
        phase = .draining
        actions.append(.goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: nil, debugData: debugData))
    }

    /// The idle timeout ran out with nothing received: unless a stream waits for its answer
    /// or is still being received, a graceful end with `debugData`. Returns whether it ended.
    public mutating func idleTimeoutElapsed(
        streamsBeingReceived: Int, debugData: [UInt8], into actions: inout [Action]
    ) -> Bool {
        guard phase == .serving, live.waiting.isEmpty, streamsBeingReceived == 0 else { return false }
        shutdown(debugData: debugData, into: &actions)
        return true
    }

    /// The HTTP/2 session ended with a connection error in the read that is being handled (the
    /// library sent its GOAWAY): nothing more goes out, so requests completed in that read are
    /// recorded as never answered, and waiting streams end when the connection closes.
    public mutating func sessionFailed() {
        modify { _, phase in phase = .closing }
    }

    /// The client opened more streams than the limit it acknowledged and `stream-limit-goaway`
    /// is on: GOAWAY REFUSED_STREAM with APNs's plain-text debug data, naming the last stream
    /// processed, then the connection closes (streams still waiting end unanswered).
    public mutating func streamLimitViolated(into actions: inout [Action]) {
        modify { _, phase in
            guard phase != .closing else { return }
            phase = .closing
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.refusedStream.rawValue, lastStreamID: nil,
                    debugData: Array(ConnectionBehavior.streamLimitDebugText.utf8)))
            actions.append(.close(afterFlush: true))
        }
    }

    // MARK: for tests

    /// Carries out `decision` as if the rules and the fault policy had made it (tests drive
    /// the machine's own logic with it).
    /// - Returns: whether it was the common case (answered now, nothing else): no actions then.
    @discardableResult
    mutating func requestDecided(
        _ decision: RequestDecision, firstAuthenticated: Bool = false, now: Int64, into actions: inout [Action]
    ) -> Bool {
        var answeredNow = false
        modify { live, phase in
            answeredNow = Self.decided(
                decision, firstAuthenticated: firstAuthenticated, now: now, live: &live, phase: &phase, into: &actions)
        }
        return answeredNow
    }

    /// The MAX_CONCURRENT_STREAMS last announced (tests).
    var announcedStreams: UInt32? { phase == .closed ? nil : live.announcedStreams }

    /// `serving`, `draining`, `closing` or `closed` (tests).
    var phaseName: String {
        switch phase {
        case .serving: "serving"
        case .draining: "draining"
        case .closing: "closing"
        case .closed: "closed"
        }
    }

    // MARK: internals

    /// Runs `body` on the live state in place, unless the connection has closed.
    private mutating func modify(_ body: (inout Live, inout Phase) -> Void) {
        guard phase != .closed else { return }
        body(&live, &phase)
    }

    /// Carries out `decision`. Returns `true` for the common case, an answer that goes out now
    /// with nothing else to do (no actions appended: the caller records and sends it), after
    /// noting the stream as answered.
    private static func decided(
        _ decision: RequestDecision, firstAuthenticated: Bool, now: Int64, live: inout Live, phase: inout Phase,
        into actions: inout [Action]
    ) -> Bool {
        let streamID = decision.streamID
        if decision.fate == .answer, decision.delayMilliseconds == nil, decision.maxConcurrentStreams == nil,
            decision.streamLimit == nil, !decision.refuseOpenStreams, !(firstAuthenticated && live.authLimited),
            phase != .closing, live.goAwayLastStreamID.map({ streamID <= $0 }) ?? true
        {
            live.highestAnswered = max(live.highestAnswered, streamID)
            return true
        }
        do {
            if let last = live.goAwayLastStreamID, streamID > last {
                // Above the GOAWAY's last stream: not processed. REFUSED_STREAM tells the client
                // so at once (safe to retry, RFC 9113 §8.7) instead of leaving it to wait.
                actions.append(
                    .record(
                        streamID: streamID,
                        RecordedAnswer(outcome: .goAway, answer: decision.answer, faultID: decision.faultID)))
                actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                return false
            }
            if let limit = decision.maxConcurrentStreams {
                live.ruleStreams = limit
                Self.announce(limit, live: &live, into: &actions)
            }
            if firstAuthenticated, live.authLimited {
                live.authLimited = false
                // A limit set by a rule stays; otherwise the configured one applies now.
                if live.ruleStreams == nil { Self.announce(live.configuredStreams, live: &live, into: &actions) }
            }
            switch decision.streamLimit {
            case .limit(let limit)?:
                // A rule's limit wins over a behavior's.
                if live.ruleStreams == nil { Self.announce(limit, live: &live, into: &actions) }
            case .restore?:
                Self.announce(
                    live.ruleStreams ?? (live.authLimited ? 1 : live.configuredStreams), live: &live, into: &actions)
            case nil:
                break
            }
            if decision.refuseOpenStreams {
                for (other, entry) in live.waiting.sorted(by: { $0.key < $1.key }) where other != streamID {
                    if !entry.hung { actions.append(.cancelTimer(streamID: other)) }
                    actions.append(.resetStream(streamID: other, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
                    actions.append(.complete(streamID: other, RecordedAnswer(outcome: .reset, answer: entry.answer)))
                    live.waiting[other] = nil
                }
                actions.append(.refuseStreamsBeingReceived(except: streamID))
            }
            if let delay = decision.delayMilliseconds {
                live.waiting[streamID] = Waiting(answer: decision.answer, fate: decision.fate, hung: false)
                actions.append(
                    .record(
                        streamID: streamID,
                        RecordedAnswer(outcome: .pending, answer: decision.answer, faultID: decision.faultID)))
                actions.append(.startTimer(streamID: streamID, milliseconds: max(0, delay)))
                return false
            }
            Self.settle(
                streamID: streamID, answer: decision.answer, fate: decision.fate, recorded: false,
                faultID: decision.faultID, now: now, live: &live, phase: &phase, into: &actions)
        }
        return false
    }

    private static func announce(_ limit: UInt32, live: inout Live, into actions: inout [Action]) {
        guard limit != live.announcedStreams else { return }
        live.announcedStreams = limit
        actions.append(.announceMaxConcurrentStreams(limit))
    }

    /// Carries out `fate` for a stream now: `recorded` says whether its record exists already
    /// (it waited), so that the record is written (`record`) or completed (`complete`) once.
    private static func settle(
        streamID: Int32, answer: APNSAnswer, fate: RequestDecision.Fate, recorded: Bool, faultID: String?,
        now: Int64, live: inout Live, phase: inout Phase, into actions: inout [Action]
    ) {
        func note(_ recordedAnswer: RecordedAnswer) {
            var recordedAnswer = recordedAnswer
            recordedAnswer.faultID = faultID
            actions.append(
                recorded
                    ? .complete(streamID: streamID, recordedAnswer) : .record(streamID: streamID, recordedAnswer))
        }
        func answerNow() {
            note(RecordedAnswer(outcome: .answered, answer: answer, answeredAt: now))
            actions.append(.respond(streamID: streamID, answer))
            live.highestAnswered = max(live.highestAnswered, streamID)
        }
        if phase == .closing {
            note(RecordedAnswer(outcome: .connectionClosed, answer: answer))
            return
        }
        switch fate {
        case .answer:
            answerNow()
        case .hang:
            live.waiting[streamID] = Waiting(answer: answer, fate: fate, hung: true)
            note(RecordedAnswer(outcome: .hung, answer: answer))
        case .reset(let code):
            note(RecordedAnswer(outcome: .reset, answer: answer))
            actions.append(.resetStream(streamID: streamID, errorCode: code))
        case .goAway(let code, let requested, let debugData):
            // Never below a stream already answered: that would take back its answer.
            let lastStreamID = requested.map { max($0, live.highestAnswered) }
            actions.append(.goAway(errorCode: code, lastStreamID: lastStreamID, debugData: debugData))
            if phase == .serving { phase = .draining }
            if let lastStreamID { live.goAwayLastStreamID = min(lastStreamID, live.goAwayLastStreamID ?? .max) }
            if lastStreamID.map({ streamID <= $0 }) ?? true {
                answerNow()
            } else {
                note(RecordedAnswer(outcome: .goAway, answer: answer))
                actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
            }
            if code != HTTP2ErrorCode.noError.rawValue {
                phase = .closing
                actions.append(.close(afterFlush: true))
            }
        case .goAwayInsteadOfAnswer:
            // The reason goes out as the GOAWAY's debug data; the stream gets no status.
            note(RecordedAnswer(outcome: .goAway, answer: answer, answeredAt: now))
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: live.highestAnswered,
                    debugData: answer.body ?? []))
            phase = .closing
            actions.append(.close(afterFlush: true))
        case .close(let respondFirst):
            if respondFirst {
                answerNow()
            } else {
                note(RecordedAnswer(outcome: .connectionClosed, answer: answer))
            }
            phase = .closing
            actions.append(.close(afterFlush: respondFirst))
        }
    }
}
