/// One APNs connection's decisions over time, from the first byte to the close, and every
/// piece of state they depend on: how the client greets (TLS or cleartext), the handshake and
/// what it fixed (authentication mode, ALPN), the HTTP/2 client preface, authentication so far,
/// what the behaviors did to it, the MAX_CONCURRENT_STREAMS it announces, the streams whose
/// answer waits (a delay) or never comes (a hang), the highest stream answered, GOAWAY, closing
/// and why.
///
/// Pure: it is told what happened (bytes arrived, the handshake ended, a request is ready, a
/// timer fired, a stream or the connection closed, a shutdown or an idle check) and answers
/// with a small result or appends the actions to perform; the transport performs them on TLS,
/// nghttp2, the store and the channel. Every request goes through it, the common one included,
/// and each record is written once when its answer is decided (`record`), then once more only
/// if it was left waiting (`complete`). Its state is one enum whose cases carry their data
/// (`ConnectionStateMachine+State.swift`), beside the configuration fixed when the connection was
/// accepted; the machine is noncopyable, so that an event moves that data out and back rather than
/// copying it. Nothing outside reads the state: the transport learns what it needs
/// from events' results, asking when bytes arrive (`bytesArrived`), when output is wanted
/// (`outputRequested`) and when a step of its own ended (`stepEnded`); it reports every stream
/// that closed (`streamsClosed`), and the machine alone knows which it still owed. The common
/// request's answer comes back as the event's result (`OnRequestReady.Next.answerNow`), every
/// other decision as actions. A result or action that closes (`close`, a refusal) means the machine is
/// already closing: the transport performs it without asking again.
public struct ConnectionStateMachine: ~Copyable, Sendable {
    /// What the transport does for the machine, in order.
    public enum Action: Sendable, Equatable {
        /// Store the request's record. One per request, before any `respond` for it.
        case record(streamID: Int32, RecordedAnswer)
        /// A request recorded earlier (left waiting) got its final answer, or none: complete the
        /// record `sequence` (`recordStored` told it; 0 when the record was asked for in the
        /// same list of actions, before the machine could be told).
        case complete(streamID: Int32, sequence: UInt64, RecordedAnswer)
        /// Submit `answer` on the stream.
        case respond(streamID: Int32, APNSAnswer, AnswerLabels)
        case resetStream(streamID: Int32, errorCode: UInt32)
        /// `lastStreamID` `nil`: the last stream processed. Goes out after every frame of the
        /// actions before it (an answer's DATA included, once flow control lets it go).
        case goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8])
        case announceMaxConcurrentStreams(UInt32)
        /// Call `timerFired(streamID:)` after this many milliseconds.
        case startTimer(streamID: Int32, milliseconds: Int64)
        case cancelTimer(streamID: Int32)
        /// Close the connection: once what is queued has been sent, or at once.
        case close(afterFlush: Bool)
        /// Reset (REFUSED_STREAM) every open stream still being received, but `except`.
        case refuseStreamsBeingReceived(except: Int32)
        /// Carry out the effect of a success to `held` as of `at` (epoch ms), then report what
        /// it did with `effectApplied(streamID:outcome:into:)`, which finishes the stream's answer
        /// and appends the rest. Always the last action of its event.
        case applyEffect(streamID: Int32, at: Int64, HeldRequest)
        /// The request's fault decision needs counts the connections share: settle this claim
        /// (`FaultControl.settle`) and tell `faultsClaimed`, which decides the rest. The only
        /// action of a `requestReady` that answers `.claimFaults`.
        case claimFaults(FaultClaim)
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
        /// Why the mock's own controls (a mode, a behavior, the throttle, a fault rule) changed
        /// the answer, in words (set when the record is first written; the rules' reasons are
        /// the verdict's `detail`).
        public var detail: String?
        /// The effect the answer waited for, once it ran (the record names its channel, and a
        /// broadcast's deliveries or a kept message follow).
        public var effect: EffectOutcome?

        public init(
            outcome: DeliveryOutcome, answer: APNSAnswer, answeredAt: Int64? = nil, faultID: String? = nil,
            detail: String? = nil, effect: EffectOutcome? = nil
        ) {
            self.outcome = outcome
            self.answer = answer
            self.answeredAt = answeredAt
            self.faultID = faultID
            self.detail = detail
            self.effect = effect
        }
    }

    // Configuration, fixed when the connection is accepted (as swift-nio-http2 keeps its
    // configuration beside its state).
    /// The MAX_CONCURRENT_STREAMS the server is configured with.
    let configuredStreams: UInt32
    /// Token connections start with one stream until a push passes authentication.
    private let authStreamLimit: Bool
    /// The API the connection's listener serves.
    private let service: APNSService
    /// The connection speaks HTTP/1.1 (a Web Push connection whose ALPN did not choose h2): no
    /// preface is awaited, requests come from `HTTP1Exchange`, and a GOAWAY means "close once
    /// the requests received are answered".
    public private(set) var speaksHTTP1 = false

    /// Where the connection is, with the data it has there (`ConnectionStateMachine+State.swift`).
    var state: State

    /// A connection just accepted: nothing read yet.
    /// - Parameters:
    ///   - configuredStreams: the MAX_CONCURRENT_STREAMS the server is configured with.
    ///   - authStreamLimit: a token connection starts with one stream until a push passes
    ///     authentication (its first SETTINGS announce 1).
    ///   - service: the API its listener serves (device pushes and broadcasts, or channel
    ///     management).
    public init(configuredStreams: UInt32, authStreamLimit: Bool, service: APNSService = .push) {
        self.configuredStreams = configuredStreams
        self.authStreamLimit = authStreamLimit
        self.service = service
        state = .greeting
    }

    /// A connection past its handshake and preface, serving streams (tests, and connections
    /// without TLS such as `InMemoryAPNSConnection`).
    /// - Parameters:
    ///   - configuredStreams: the MAX_CONCURRENT_STREAMS the server is configured with.
    ///   - authentication: token or certificate.
    ///   - authLimited: the connection starts with one stream until a push passes token
    ///     authentication (the first SETTINGS announced 1).
    ///   - service: the API its listener serves.
    public init(
        configuredStreams: UInt32, authentication: AuthenticationMode = .token, authLimited: Bool,
        service: APNSService = .push
    ) {
        self.configuredStreams = configuredStreams
        authStreamLimit = authLimited
        self.service = service
        state = .serving(
            Serving(
                authentication: authentication,
                limits: StreamLimits(
                    configured: configuredStreams, announced: authLimited ? 1 : configuredStreams, rule: nil,
                    authLimited: authLimited)))
    }

    // MARK: opening: greeting, handshake, preface

    /// Where received bytes go.
    public enum Inbound: Sendable, Equatable {
        /// To `ClientGreeting`, then `greetingReceived`.
        case greeting
        /// To TLS, whose handshake is under way.
        case handshake
        /// To TLS; its plaintext to `plaintextReceived`.
        case tls
        /// To the cleartext HTTP/2 refusal.
        case cleartextHTTP2
        /// Nowhere: the connection is closing.
        case ignored
    }

    /// Bytes arrived: where they go.
    public func bytesArrived() -> Inbound { inbound }

    /// Output is wanted: whether HTTP/2 bytes may go out yet (ALPN chose h2, or the preface
    /// arrived); until then nothing is sent, so that an HTTP/1.1 client gets a clean answer.
    public func outputRequested() -> OnOutputRequested { mayWriteHTTP2 ? .writeHTTP2 : .holdHTTP2 }

    /// A step of the transport ended (a read, a timer, a shutdown), and its HTTP/2 session is
    /// `http2Active` or not. A connection serving whose session has nothing left to read or
    /// write is done: it closes after its last bytes (`.closeAfterFlush`, reason `sessionEnded`).
    public mutating func stepEnded(http2Active: Bool) -> OnStepEnded {
        guard !isClosed else { return .closing }
        guard !http2Active else { return .serving }
        beginClosing(.sessionEnded)
        return .closeAfterFlush
    }

    /// What to do about the client's first bytes.
    public enum OnGreeting: Sendable, Equatable {
        /// Too few bytes to tell: read more.
        case readMore
        /// TLS: hand the bytes to the handshake.
        case startTLS
        /// TLS, refused by the `refuse-tls` mode: close now (the machine is closing).
        case refuseTLS
        /// Cleartext HTTP/1.x: answer in words that TLS is required, then close (closing).
        case answerCleartextRequest
        /// Cleartext HTTP/2: answer in HTTP/2 that TLS is required, then `close(.cleartextHTTP2)`.
        case refuseCleartextHTTP2
    }

    /// The client's first bytes say `greeting`; `tlsRefused`: the `refuse-tls` mode took this
    /// connection (asked only for `.tls`).
    public mutating func greetingReceived(_ greeting: ClientGreeting, tlsRefused: Bool = false) -> OnGreeting {
        guard state.kind == .greeting else { return .readMore }
        switch greeting {
        case .undecided:
            return .readMore
        case .tls:
            if tlsRefused {
                beginClosing(.refuseTLSMode)
                return .refuseTLS
            }
            state = .handshaking
            return .startTLS
        case .plaintext:
            beginClosing(.cleartextRequest)
            return .answerCleartextRequest
        case .cleartextHTTP2:
            state = .refusingCleartext
            return .refuseCleartextHTTP2
        }
    }

    /// What the handshake fixed.
    public struct OnHandshakeCompleted: Sendable, Equatable {
        /// The MAX_CONCURRENT_STREAMS of the server's first SETTINGS.
        public var maxConcurrentStreams: UInt32
        /// The client chose h2 by ALPN: send the SETTINGS now, as servers do.
        public var sendSettingsNow: Bool
        /// The connection speaks HTTP/1.1 from here on (Web Push without ALPN h2).
        public var speaksHTTP1 = false
    }

    /// TLS is up with `authentication` (a client certificate's identity, or tokens) and the
    /// protocol ALPN chose.
    public mutating func handshakeCompleted(authentication: AuthenticationMode, alpn: String?) -> OnHandshakeCompleted {
        // Web Push has no provider tokens to wait for (VAPID is checked per push).
        let limited = authStreamLimit && authentication == .token && service != .webPush
        let announced = limited ? 1 : configuredStreams
        let alpnChoseH2 = alpn == "h2"
        switch exchange(&state, with: .modifying) {
        case .handshaking where service == .webPush && !alpnChoseH2:
            // Apple's Web Push speaks HTTP/1.1 unless ALPN chooses h2: serving at once.
            let limits = StreamLimits(
                configured: configuredStreams, announced: configuredStreams, rule: nil, authLimited: false)
            state = .serving(Serving(authentication: authentication, limits: limits))
            speaksHTTP1 = true
            return OnHandshakeCompleted(
                maxConcurrentStreams: configuredStreams, sendSettingsNow: false, speaksHTTP1: true)
        case .handshaking:
            let limits = StreamLimits(
                configured: configuredStreams, announced: announced, rule: nil, authLimited: limited)
            state = .awaitingPreface(
                AwaitingPreface(
                    serving: Serving(authentication: authentication, limits: limits), alpnChoseH2: alpnChoseH2))
        case .closing(var closing):
            // Closing while TLS finished its handshake: a queued GOAWAY may go out after ALPN h2.
            if alpnChoseH2 { closing.mayWriteHTTP2 = true }
            state = .closing(closing)
        case let other:
            state = other
        }
        return OnHandshakeCompleted(maxConcurrentStreams: announced, sendSettingsNow: alpnChoseH2)
    }

    /// What to do with plaintext that TLS delivered.
    public enum OnPlaintext: Sendable, Equatable {
        /// Feed the bytes from this offset on to HTTP/2 (past the preface; none left is fine).
        case http2(from: Int)
        /// Feed the bytes to the connection's HTTP/1.1 exchange.
        case http1
        /// Part of the preface arrived: read more.
        case prefaceIncomplete
        /// Not the preface: refuse as `PrefaceRefusal` says (the machine is closing).
        case refused(PrefaceRefusal)
        /// The connection is closing: drop the bytes.
        case ignored
    }

    /// How a client that sent no HTTP/2 preface is refused.
    public enum PrefaceRefusal: Sendable, Equatable {
        /// ALPN chose h2, so it is an HTTP/2 connection error (RFC 9113 §3.4): GOAWAY
        /// PROTOCOL_ERROR naming stream 0 with this debug data, then close after flush.
        case goAway(debugData: [UInt8])
        /// It spoke HTTP/1.x: answer in HTTP/1.1 words that APNs speaks HTTP/2, then close.
        case answerHTTP1
        /// Anything else: close.
        case close
    }

    /// TLS delivered `bytes`: the client preface while it is awaited, HTTP/2 after.
    public mutating func plaintextReceived(_ bytes: UnsafeBufferPointer<UInt8>) -> OnPlaintext {
        switch state.kind {
        case .serving, .draining:
            return speaksHTTP1 ? .http1 : .http2(from: 0)
        case .awaitingPreface:
            break
        default:
            return .ignored
        }
        guard case .awaitingPreface(var awaiting) = exchange(&state, with: .modifying) else {
            preconditionFailure("the state was awaitingPreface a line above")
        }
        let preface = ClientGreeting.http2Preface
        let needed = preface.count - awaiting.received.count
        let taken = min(needed, bytes.count)
        awaiting.received.append(contentsOf: bytes.prefix(taken))
        guard preface.starts(with: awaiting.received) else {
            // An HTTP/1.x request line starts with a method token: upper-case letters, a space.
            let method = awaiting.received.prefix { $0 != UInt8(ascii: " ") }
            let looksLikeHTTP1 =
                !method.isEmpty && method.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            let alpnChoseH2 = awaiting.alpnChoseH2
            state = .awaitingPreface(awaiting)
            if alpnChoseH2 {
                beginClosing(.invalidPreface)
                return .refused(.goAway(debugData: Array("invalid connection preface".utf8)))
            }
            beginClosing(.noClientPreface)
            return .refused(looksLikeHTTP1 ? .answerHTTP1 : .close)
        }
        guard awaiting.received.count == preface.count else {
            state = .awaitingPreface(awaiting)
            return .prefaceIncomplete
        }
        state = .serving(awaiting.serving)
        return .http2(from: taken)
    }

    // MARK: closing

    /// The transport (or the admin API, or a shutdown's end) closes the connection for
    /// `reason`: `.closeNow` when this began the close, `.alreadyClosing` when it had begun
    /// (the caller then does nothing).
    public mutating func close(_ reason: CloseReason) -> OnClose {
        guard !isClosed else { return .alreadyClosing }
        beginClosing(reason)
        return .closeNow
    }

    /// Moves to `closing`, keeping the first reason the server had.
    private mutating func beginClosing(_ reason: CloseReason) {
        let kept = reason == .clientClosed ? nil : reason
        switch exchange(&state, with: .modifying) {
        case .greeting:
            state = .closing(Closing(reason: kept, mayWriteHTTP2: false, serving: nil))
        case .handshaking:
            state = .closing(Closing(reason: kept, mayWriteHTTP2: false, serving: nil))
        case .refusingCleartext:
            state = .closing(Closing(reason: kept, mayWriteHTTP2: false, serving: nil))
        case .modifying:
            state = .closing(Closing(reason: kept, mayWriteHTTP2: false, serving: nil))
        case .awaitingPreface(let awaiting):
            state = .closing(Closing(reason: kept, mayWriteHTTP2: awaiting.alpnChoseH2, serving: awaiting.serving))
        case .serving(let serving):
            state = .closing(Closing(reason: kept, mayWriteHTTP2: true, serving: serving))
        case .draining(let serving, let draining):
            state = .closing(
                Closing(reason: draining.reason ?? kept, mayWriteHTTP2: draining.mayWriteHTTP2, serving: serving))
        case .closing(var closing):
            closing.reason = closing.reason ?? kept
            state = .closing(closing)
        case .closed(let closed):
            state = .closed(closed)
        }
    }

    // MARK: events

    /// What the machine decided for a request that arrived.
    public struct OnRequestReady: Sendable, Equatable {
        /// How the answer goes out.
        public enum Next: Sendable, Equatable {
            /// The common case, decided without actions: record this answer as answered now and
            /// send it, nothing else.
            case answerNow(APNSAnswer)
            /// Perform the actions appended instead.
            case performActions
            /// The fault decision needs counts the connections share: settle the claim of the
            /// one action appended (`.claimFaults`) and tell `faultsClaimed`, which decides
            /// the rest.
            case claimFaults
        }

        /// The rules' verdict, for the record.
        public var verdict: APNSVerdict
        public var next: Next
        /// The fault rule that acted (for the record of `answerNow`).
        public var faultID: String?
        /// Why the mock's own controls changed the answer (for the record of `answerNow`).
        public var detail: String?
    }

    /// A request has arrived whole (or enough of it): the rules judge it with the connection's
    /// authentication state, the fault policy may change the answer, and the result (the common
    /// case) or the actions say how it goes out.
    /// - Parameter faults: the fault controls, when any is on.
    public mutating func requestReady(
        _ request: APNSRequest, streamID: Int32, environment: APNSEnvironment, registry: RegistrySnapshot,
        rules: ServiceRules, faults: FaultInputs?, now: Int64, readyAt: UInt64? = nil, random: inout FastRandom,
        into actions: inout [Action]
    ) -> OnRequestReady {
        let context: ConnectionContext
        switch state {
        case .serving(let serving):
            context = ConnectionContext(
                environment: environment, authentication: serving.authentication, authState: serving.auth,
                registry: registry, now: now)
        case .draining(let serving, _):
            context = ConnectionContext(
                environment: environment, authentication: serving.authentication, authState: serving.auth,
                registry: registry, now: now)
        default:
            // Read in the same pass as the frame that ended the connection: recorded, never answered.
            let verdict = rules.evaluate(
                request,
                context: ConnectionContext(
                    environment: environment, authentication: authentication, registry: registry, now: now),
                service: service)
            let answer = APNSAnswer.from(
                verdict, apnsID: Self.apnsID(verdict, random: &random), environment: environment, random: &random)
            actions.append(.record(streamID: streamID, RecordedAnswer(outcome: .connectionClosed, answer: answer)))
            return OnRequestReady(verdict: verdict, next: .performActions)
        }
        let verdict = rules.evaluate(request, context: context, service: service)
        var decision = RequestDecision(
            streamID: streamID,
            answer: APNSAnswer.from(
                verdict, apnsID: Self.apnsID(verdict, random: &random), environment: environment, random: &random),
            fate: verdict.goAway ? .goAwayInsteadOfAnswer : .answer,
            labels: AnswerLabels(kind: verdict.kind, pushType: verdict.pushType, readyAt: readyAt))
        if verdict.successMayHaveEffect {
            decision.held = HeldRequest(request: request, verdict: verdict, environment: environment, receivedAt: now)
        }
        let http1 = speaksHTTP1
        let next = withServing(otherwise: OnRequestReady.Next.performActions) { serving, course in
            var firstAuthenticated = false
            if let next = verdict.nextAuthState {
                firstAuthenticated = !serving.auth.isEstablished && next.isEstablished
                serving.auth = next
            }
            if let faults {
                if let claim = FaultPolicy.begin(
                    faults, request: request, verdict: verdict, environment: environment, registry: registry,
                    analysisOptions: rules.policy.payloadAnalysis, draining: course.stage == .draining, now: now,
                    state: serving.faults, decision: &decision)
                {
                    serving.pendingClaim = PendingClaim(
                        decision: decision, verdict: verdict, snapshot: faults.snapshot, environment: environment,
                        firstAuthenticated: firstAuthenticated, now: now)
                    actions.append(.claimFaults(claim))
                    return .claimFaults
                }
                FaultPolicy.finish(
                    faults.snapshot, settled: .nothing, kind: verdict.kind, environment: environment, now: now,
                    decision: &decision, state: &serving.faults, random: &random)
                if http1 { decision.adaptForHTTP1() }
            }
            let answeredNow = Self.decided(
                decision, firstAuthenticated: firstAuthenticated, now: now, serving: &serving, course: &course,
                into: &actions)
            return answeredNow ? .answerNow(decision.answer) : .performActions
        }
        if case .claimFaults = next { return OnRequestReady(verdict: verdict, next: next) }
        return OnRequestReady(verdict: verdict, next: next, faultID: decision.faultID, detail: decision.detail)
    }

    /// The claim `requestReady` asked for was settled (`settled`): the fault decision is
    /// finished with it and the request decided as `requestReady` would have; `nil` when no
    /// claim was asked for.
    public mutating func faultsClaimed(
        _ settled: FaultClaim.Settled, random: inout FastRandom, into actions: inout [Action]
    ) -> OnRequestReady? {
        let http1 = speaksHTTP1
        return withServing(otherwise: nil) { serving, course in
            guard let pending = serving.pendingClaim else { return nil }
            serving.pendingClaim = nil
            var decision = pending.decision
            FaultPolicy.finish(
                pending.snapshot, settled: settled, kind: pending.verdict.kind, environment: pending.environment,
                now: pending.now, decision: &decision, state: &serving.faults, random: &random)
            if http1 { decision.adaptForHTTP1() }
            let answeredNow = Self.decided(
                decision, firstAuthenticated: pending.firstAuthenticated, now: pending.now, serving: &serving,
                course: &course, into: &actions)
            return OnRequestReady(
                verdict: pending.verdict, next: answeredNow ? .answerNow(decision.answer) : .performActions,
                faultID: decision.faultID, detail: decision.detail)
        }
    }

    /// The id the answer carries: the client's `apns-id` (device pushes) or `apns-request-id`
    /// (broadcasts, channel management) when it is a valid UUID, else a new one.
    private static func apnsID(_ verdict: APNSVerdict, random: inout FastRandom) -> ResponseMessageID {
        let sent = verdict.kind == .push ? verdict.sentMessageID : verdict.requestID
        if let sent, APNSMessageID.isValid(sent) { return .echoed(sent) }
        return .generate(using: &random)
    }

    /// The record of waiting stream `streamID` was stored as `sequence` (after its `record`
    /// action): its completion will name it. `.notWaiting` when the stream no longer waits.
    public mutating func recordStored(streamID: Int32, sequence: UInt64) -> OnRecordStored {
        withServing(otherwise: .notWaiting) { serving, _ in
            serving.owed.noteRecord(sequence, for: streamID) ? .noted : .notWaiting
        }
    }

    /// The delay of `streamID` has run out: `.performActions` when its answer is due now,
    /// `.nothingDue` when the stream no longer waits (answered, refused, reset or closed since).
    public mutating func timerFired(streamID: Int32, now: Int64, into actions: inout [Action]) -> OnTimerFired {
        withServing(otherwise: .nothingDue) { serving, course in
            // (A GOAWAY that does not cover a waiting stream refuses it when it is sent.)
            guard let owed = serving.owed[streamID], !owed.hung else { return .nothingDue }
            _ = serving.owed.remove(streamID)
            Self.settle(
                streamID: streamID, answer: owed.answer, fate: owed.fate, labels: owed.labels, held: owed.held,
                record: owed.record, faultID: nil, now: now, serving: &serving, course: &course, into: &actions)
            return .performActions
        }
    }

    /// The effect `applyEffect` asked for has run (`outcome`): the stream's answer is finished
    /// with it and settled (`.performActions`); `.nothingOwed` when no effect was pending for it.
    public mutating func effectApplied(
        streamID: Int32, outcome: EffectOutcome, into actions: inout [Action]
    ) -> OnEffectApplied {
        withServing(otherwise: .nothingOwed) { serving, course in
            guard let pending = serving.pendingEffect, pending.streamID == streamID else { return .nothingOwed }
            serving.pendingEffect = nil
            var answer = pending.answer
            answer.settle(with: outcome)
            Self.settle(
                streamID: streamID, answer: answer, fate: pending.fate, labels: pending.labels, held: nil,
                effect: outcome, record: pending.record, faultID: pending.faultID, detail: pending.detail,
                now: pending.at, serving: &serving, course: &course, into: &actions)
            return .performActions
        }
    }

    /// Streams closed (every close the HTTP/2 session saw, in order): one whose answer still
    /// waited was reset by the client, so its record is completed as cancelled and its timer
    /// cancelled (`.performActions`); the others were answered, reset or refused already and
    /// owe nothing (`.nothingOwed` when none waited).
    public mutating func streamsClosed(_ streamIDs: [Int32], into actions: inout [Action]) -> OnStreamsClosed {
        guard owesStreams else { return .nothingOwed }
        return withServing(otherwise: .nothingOwed) { serving, _ in
            var result = OnStreamsClosed.nothingOwed
            for streamID in streamIDs {
                guard let owed = serving.owed.remove(streamID) else { continue }
                result = .performActions
                if !owed.hung { actions.append(.cancelTimer(streamID: streamID)) }
                actions.append(
                    .complete(
                        streamID: streamID, sequence: owed.record,
                        RecordedAnswer(outcome: .cancelled, answer: owed.answer)))
            }
            return result
        }
    }

    /// The connection has closed: every waiting stream ends unanswered. The result says who
    /// closed it and why: the server's reason when it began closing, else the client's.
    @discardableResult
    public mutating func connectionClosed(error: String? = nil, into actions: inout [Action]) -> OnConnectionClosed {
        let serverReason = closeReason
        let reason = serverReason ?? error.map(CloseReason.connectionError) ?? .clientClosed
        if state.kind == .closed { return OnConnectionClosed(reason: reason) }
        let closed = Closed(reason: serverReason, mayWriteHTTP2: mayWriteHTTP2, authentication: authentication)
        withServing(otherwise: ()) { serving, _ in
            serving.owed.removeAll(where: { _ in true }) { streamID, owed in
                if !owed.hung { actions.append(.cancelTimer(streamID: streamID)) }
                actions.append(
                    .complete(
                        streamID: streamID, sequence: owed.record,
                        RecordedAnswer(outcome: .connectionClosed, answer: owed.answer)))
            }
        }
        state = .closed(closed)
        return OnConnectionClosed(reason: reason)
    }

    /// A graceful end (SIGTERM, the shutdown mode, an idle timeout): GOAWAY NO_ERROR with
    /// `debugData` and the last processed stream; streams it covers are still answered,
    /// delayed ones when their time comes, then the connection closes.
    /// A connection that does not speak HTTP/2 yet closes at once.
    @discardableResult
    public mutating func shutdown(debugData: [UInt8], into actions: inout [Action]) -> OnShutdown {
        switch state.kind {
        case .serving, .awaitingPreface:
            drain()
            actions.append(.goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: nil, debugData: debugData))
            return .goAwaySent
        case .greeting, .handshaking, .refusingCleartext, .modifying:
            beginClosing(.shutdownBeforeHTTP2)
            actions.append(.close(afterFlush: false))
            return .closeNow
        case .draining, .closing, .closed:
            return .alreadyEnding
        }
    }

    /// Moves a connection serving, or awaiting its preface, to `draining` (`reason`: why it will
    /// close, when the server knows already).
    private mutating func drain(reason: CloseReason? = nil) {
        switch exchange(&state, with: .modifying) {
        case .serving(let serving):
            state = .draining(serving, Draining(reason: reason, mayWriteHTTP2: true))
        case .awaitingPreface(let awaiting):
            // HTTP/2 bytes are held still unless ALPN chose h2 (the preface is not awaited any more).
            state = .draining(awaiting.serving, Draining(reason: reason, mayWriteHTTP2: awaiting.alpnChoseH2))
        case let other:
            state = other
        }
    }

    /// The handshake timeout ran out: a connection still greeting, in its TLS handshake,
    /// refusing cleartext or awaiting the HTTP/2 preface closes at once; one serving is left alone.
    public mutating func handshakeTimeoutElapsed(into actions: inout [Action]) -> OnHandshakeTimeout {
        switch state.kind {
        case .greeting, .handshaking, .refusingCleartext, .awaitingPreface, .modifying:
            beginClosing(.handshakeTimeout)
            actions.append(.close(afterFlush: false))
            return .close
        case .serving, .draining, .closing, .closed:
            return .keepOpen
        }
    }

    /// The idle timeout ran out with nothing received: unless a stream waits for its answer
    /// or is still being received, a graceful end with `debugData` (`.ended`); else `.keptOpen`.
    /// A connection that does not speak HTTP/2 yet closes at once.
    public mutating func idleTimeoutElapsed(
        streamsBeingReceived: Int, debugData: [UInt8], into actions: inout [Action]
    ) -> OnIdleTimeout {
        switch state.kind {
        case .greeting, .handshaking, .refusingCleartext, .modifying:
            beginClosing(.idleTimeout)
            actions.append(.close(afterFlush: false))
            return .ended
        case .serving, .awaitingPreface:
            guard !owesStreams, streamsBeingReceived == 0 else { return .keptOpen }
            drain(reason: .idleTimeout)
            actions.append(.goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: nil, debugData: debugData))
            return .ended
        case .draining, .closing, .closed:
            return .keptOpen
        }
    }

    /// The HTTP/2 session failed in the read being handled (`failure` says how): nothing more
    /// is answered and the connection closes once what was queued is out (`.closeAfterFlush`);
    /// streams still waiting end when it has closed. `.alreadyClosing`: it was closing already.
    /// - `library`: libnghttp2 ended the session with a connection error and queued its own
    ///   GOAWAY; requests completed in that read are recorded as never answered.
    /// - `streamLimit`: the client opened more streams than the limit it acknowledged and
    ///   `stream-limit-goaway` is on: GOAWAY REFUSED_STREAM with APNs's plain-text debug data.
    /// - `streamIDWentBack`: HEADERS on a stream below one the client opened before, on a stream
    ///   it never opened: PROTOCOL_ERROR (RFC 9113 §5.1.1), saying why in the debug data.
    /// - `flood`: excessive load: GOAWAY ENHANCE_YOUR_CALM with what the client did.
    /// Each GOAWAY of the mock's own names the last stream processed.
    public mutating func http2Failed(_ failure: HTTP2Failure, into actions: inout [Action]) -> OnHTTP2Failure {
        guard !isClosed else { return .alreadyClosing }
        switch failure {
        case .library:
            beginClosing(.http2Error)
        case .streamLimit:
            beginClosing(.streamLimitExceeded)
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.refusedStream.rawValue, lastStreamID: nil,
                    debugData: Array(ConnectionBehavior.streamLimitDebugText.utf8)))
        case .streamIDWentBack(let streamID, let highest):
            beginClosing(.streamIDWentBack(streamID, highest: highest))
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.protocolError.rawValue, lastStreamID: nil,
                    debugData: Array(
                        "HEADERS on stream \(streamID), below stream \(highest) already opened (RFC 9113 §5.1.1)".utf8))
            )
        case .flood(let flood):
            beginClosing(.clientFlooded(flood))
            actions.append(
                .goAway(
                    errorCode: HTTP2ErrorCode.enhanceYourCalm.rawValue, lastStreamID: nil,
                    debugData: Array(flood.description.utf8)))
        }
        actions.append(.close(afterFlush: true))
        return .closeAfterFlush
    }

    // MARK: for tests

    /// Carries out `decision` as if the rules and the fault policy had made it (tests drive
    /// the machine's own logic with it).
    /// - Returns: whether it was the common case (answered now, nothing else): no actions then.
    @discardableResult
    mutating func requestDecided(
        _ decision: RequestDecision, firstAuthenticated: Bool = false, now: Int64, into actions: inout [Action]
    ) -> Bool {
        withServing(otherwise: false) { serving, course in
            Self.decided(
                decision, firstAuthenticated: firstAuthenticated, now: now, serving: &serving, course: &course,
                into: &actions)
        }
    }
}
