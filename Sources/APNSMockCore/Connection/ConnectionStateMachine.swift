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
/// if it was left waiting (`complete`). Its state is private: the transport learns what it needs
/// from events' results, asking when bytes arrive (`bytesArrived`), when output is wanted
/// (`outputRequested`) and when a step of its own ended (`stepEnded`); it reports every stream
/// that closed (`streamsClosed`), and the machine alone knows which it still owed. The common
/// request's answer comes back as the event's result (`OnRequestReady.Next.answerNow`), every
/// other decision as actions. A result or action that closes (`close`, a refusal) means the machine is
/// already closing: the transport performs it without asking again.
public struct ConnectionStateMachine: Sendable {
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

    /// A stream whose answer waits (a delay) or never comes (a hang).
    struct Waiting: Sendable {
        var answer: APNSAnswer
        var fate: RequestDecision.Fate
        /// What its answer is counted by.
        var labels: AnswerLabels
        /// A hang: no timer runs.
        var hung: Bool
        /// The request, when a success to it has an effect that runs when it is answered.
        var held: HeldRequest? = nil
        /// Its record's sequence number in the store (`recordStored`), 0 until told.
        var record: UInt64 = 0
    }

    /// A stream whose answer waits for the effect it asked the transport to carry out
    /// (`applyEffect`): the rest of its settling, done in `effectApplied`.
    struct PendingEffect: Sendable {
        var streamID: Int32
        var answer: APNSAnswer
        var fate: RequestDecision.Fate
        var labels: AnswerLabels
        /// Its record's sequence number, when it was recorded while it waited.
        var record: UInt64?
        var faultID: String?
        var detail: String?
        /// When it was settled (epoch ms): the answer's time, and the effect's.
        var at: Int64
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
        /// The stream whose effect the transport is carrying out (between `applyEffect` and
        /// `effectApplied`, within one step).
        var pendingEffect: PendingEffect?
        /// The request whose fault decision waits for its claim to be settled (between
        /// `requestReady`'s `.claimFaults` and `faultsClaimed`, within one step).
        var pendingClaim: PendingClaim?
    }

    /// A request whose fault decision waits for the shared controls to settle its claim: the
    /// rest of `requestReady`, done in `faultsClaimed`. A class, so that the machine's state
    /// does not grow by a whole decision for what only claims need.
    final class PendingClaim: Sendable {
        let decision: RequestDecision
        let verdict: APNSVerdict
        let snapshot: FaultSnapshot
        let environment: APNSEnvironment
        let firstAuthenticated: Bool
        let now: Int64

        init(
            decision: RequestDecision, verdict: APNSVerdict, snapshot: FaultSnapshot, environment: APNSEnvironment,
            firstAuthenticated: Bool, now: Int64
        ) {
            self.decision = decision
            self.verdict = verdict
            self.snapshot = snapshot
            self.environment = environment
            self.firstAuthenticated = firstAuthenticated
            self.now = now
        }
    }

    /// Where the connection is.
    private enum Phase: Sendable {
        /// Nothing read yet, or too little to tell TLS from cleartext.
        case greeting
        /// TLS bytes go to the handshake.
        case handshaking
        /// TLS is up; the 24 bytes of the HTTP/2 client preface are awaited.
        case awaitingPreface
        /// A cleartext HTTP/2 client is being told in HTTP/2 to use TLS.
        case refusingCleartext
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
    private var phase: Phase
    private var live: Live
    /// Token or certificate: fixed at the handshake.
    private var authentication: AuthenticationMode
    /// Token connections start with one stream until a push passes authentication.
    private let authStreamLimit: Bool
    /// The API the connection's listener serves.
    private let service: APNSService
    /// What the client sent of the preface so far (at most its 24 bytes).
    private var prefaceBytes: [UInt8] = []
    /// The client chose h2 by ALPN: HTTP/2 bytes may go out before its preface, and a bad
    /// preface is an HTTP/2 connection error.
    private var alpnChoseH2 = false
    /// The preface arrived (or ALPN chose h2): HTTP/2 bytes may go out. Until then nothing is
    /// sent, so that an HTTP/1.1 client gets a clean HTTP/1.1 answer.
    private(set) var mayWriteHTTP2 = false
    /// Why the server began closing, once it did (`nil`: the client may still be the one).
    private var closeReason: CloseReason?

    /// A connection just accepted: nothing read yet.
    /// - Parameters:
    ///   - configuredStreams: the MAX_CONCURRENT_STREAMS the server is configured with.
    ///   - authStreamLimit: a token connection starts with one stream until a push passes
    ///     authentication (its first SETTINGS announce 1).
    ///   - service: the API its listener serves (device pushes and broadcasts, or channel
    ///     management).
    public init(configuredStreams: UInt32, authStreamLimit: Bool, service: APNSService = .push) {
        phase = .greeting
        self.service = service
        authentication = .token
        self.authStreamLimit = authStreamLimit
        live = Live(configuredStreams: configuredStreams, announcedStreams: configuredStreams, authLimited: false)
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
        phase = .serving
        self.service = service
        self.authentication = authentication
        authStreamLimit = authLimited
        mayWriteHTTP2 = true
        live = Live(
            configuredStreams: configuredStreams, announcedStreams: authLimited ? 1 : configuredStreams,
            authLimited: authLimited)
    }

    /// Whether the connection is closing or closed: nothing more is read or answered.
    var isClosed: Bool { phase == .closing || phase == .closed }

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

    /// Where the bytes that arrive now go.
    var inbound: Inbound {
        switch phase {
        case .greeting: .greeting
        case .handshaking: .handshake
        case .awaitingPreface, .serving, .draining: .tls
        case .refusingCleartext: .cleartextHTTP2
        case .closing, .closed: .ignored
        }
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
        guard phase == .greeting else { return .readMore }
        switch greeting {
        case .undecided:
            return .readMore
        case .tls:
            if tlsRefused {
                beginClosing(.refuseTLSMode)
                return .refuseTLS
            }
            phase = .handshaking
            return .startTLS
        case .plaintext:
            beginClosing(.cleartextRequest)
            return .answerCleartextRequest
        case .cleartextHTTP2:
            phase = .refusingCleartext
            return .refuseCleartextHTTP2
        }
    }

    /// What the handshake fixed.
    public struct OnHandshakeCompleted: Sendable, Equatable {
        /// The MAX_CONCURRENT_STREAMS of the server's first SETTINGS.
        public var maxConcurrentStreams: UInt32
        /// The client chose h2 by ALPN: send the SETTINGS now, as servers do.
        public var sendSettingsNow: Bool
    }

    /// TLS is up with `authentication` (a client certificate's identity, or tokens) and the
    /// protocol ALPN chose.
    public mutating func handshakeCompleted(authentication: AuthenticationMode, alpn: String?) -> OnHandshakeCompleted {
        self.authentication = authentication
        let limited = authStreamLimit && authentication == .token
        live.authLimited = limited
        live.announcedStreams = limited ? 1 : live.configuredStreams
        alpnChoseH2 = alpn == "h2"
        if alpnChoseH2 { mayWriteHTTP2 = true }
        if phase == .handshaking { phase = .awaitingPreface }
        return OnHandshakeCompleted(maxConcurrentStreams: live.announcedStreams, sendSettingsNow: alpnChoseH2)
    }

    /// What to do with plaintext that TLS delivered.
    public enum OnPlaintext: Sendable, Equatable {
        /// Feed the bytes from this offset on to HTTP/2 (past the preface; none left is fine).
        case http2(from: Int)
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
        switch phase {
        case .serving, .draining:
            return .http2(from: 0)
        case .awaitingPreface:
            break
        default:
            return .ignored
        }
        let preface = ClientGreeting.http2Preface
        let needed = preface.count - prefaceBytes.count
        let taken = min(needed, bytes.count)
        prefaceBytes.append(contentsOf: bytes.prefix(taken))
        guard preface.starts(with: prefaceBytes) else {
            if alpnChoseH2 {
                beginClosing(.invalidPreface)
                return .refused(.goAway(debugData: Array("invalid connection preface".utf8)))
            }
            // An HTTP/1.x request line starts with a method token: upper-case letters, a space.
            let method = prefaceBytes.prefix { $0 != UInt8(ascii: " ") }
            let looksLikeHTTP1 =
                !method.isEmpty && method.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            beginClosing(.noClientPreface)
            return .refused(looksLikeHTTP1 ? .answerHTTP1 : .close)
        }
        guard prefaceBytes.count == preface.count else { return .prefaceIncomplete }
        prefaceBytes = []
        phase = .serving
        mayWriteHTTP2 = true
        return .http2(from: taken)
    }

    /// Whether the client's preface, or its HTTP/1.x words, began with a method token (tests).
    var prefaceSoFar: [UInt8] { prefaceBytes }

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
        if closeReason == nil, reason != .clientClosed { closeReason = reason }
        if phase != .closed { phase = .closing }
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
        guard !isClosed else {
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
        let verdict = rules.evaluate(
            request,
            context: ConnectionContext(
                environment: environment, authentication: authentication, authState: live.auth, registry: registry,
                now: now),
            service: service)
        var firstAuthenticated = false
        if let next = verdict.nextAuthState {
            firstAuthenticated = !live.auth.isEstablished && next.isEstablished
            live.auth = next
        }
        var decision = RequestDecision(
            streamID: streamID,
            answer: APNSAnswer.from(
                verdict, apnsID: Self.apnsID(verdict, random: &random), environment: environment, random: &random),
            fate: verdict.goAway ? .goAwayInsteadOfAnswer : .answer,
            labels: AnswerLabels(kind: verdict.kind, pushType: verdict.pushType, readyAt: readyAt))
        if verdict.successMayHaveEffect {
            decision.held = HeldRequest(request: request, verdict: verdict, environment: environment, receivedAt: now)
        }
        if let faults {
            if let claim = FaultPolicy.begin(
                faults, request: request, verdict: verdict, environment: environment, registry: registry,
                analysisOptions: rules.policy.payloadAnalysis, draining: phase == .draining, now: now,
                state: live.faults, decision: &decision)
            {
                live.pendingClaim = PendingClaim(
                    decision: decision, verdict: verdict, snapshot: faults.snapshot, environment: environment,
                    firstAuthenticated: firstAuthenticated, now: now)
                actions.append(.claimFaults(claim))
                return OnRequestReady(verdict: verdict, next: .claimFaults)
            }
            FaultPolicy.finish(
                faults.snapshot, settled: .nothing, kind: verdict.kind, environment: environment, now: now,
                decision: &decision, state: &live.faults, random: &random)
        }
        let answeredNow = Self.decided(
            decision, firstAuthenticated: firstAuthenticated, now: now, live: &live, phase: &phase,
            closeReason: &closeReason, into: &actions)
        return OnRequestReady(
            verdict: verdict, next: answeredNow ? .answerNow(decision.answer) : .performActions,
            faultID: decision.faultID, detail: decision.detail)
    }

    /// The claim `requestReady` asked for was settled (`settled`): the fault decision is
    /// finished with it and the request decided as `requestReady` would have; `nil` when no
    /// claim was asked for.
    public mutating func faultsClaimed(
        _ settled: FaultClaim.Settled, random: inout FastRandom, into actions: inout [Action]
    ) -> OnRequestReady? {
        guard let pending = live.pendingClaim else { return nil }
        live.pendingClaim = nil
        var decision = pending.decision
        FaultPolicy.finish(
            pending.snapshot, settled: settled, kind: pending.verdict.kind, environment: pending.environment,
            now: pending.now, decision: &decision, state: &live.faults, random: &random)
        let answeredNow = Self.decided(
            decision, firstAuthenticated: pending.firstAuthenticated, now: pending.now, live: &live, phase: &phase,
            closeReason: &closeReason, into: &actions)
        return OnRequestReady(
            verdict: pending.verdict, next: answeredNow ? .answerNow(decision.answer) : .performActions,
            faultID: decision.faultID, detail: decision.detail)
    }

    /// The id the answer carries: the client's `apns-id` (device pushes) or `apns-request-id`
    /// (broadcasts, channel management) when it is a valid UUID, else a new one.
    private static func apnsID(_ verdict: APNSVerdict, random: inout FastRandom) -> ResponseMessageID {
        let sent = verdict.kind == .push ? verdict.sentMessageID : verdict.requestID
        if let sent, APNSMessageID.isValid(sent) { return .echoed(sent) }
        return .generate(using: &random)
    }

    /// Whether `streamID` waits for its answer (tests).
    func isWaiting(streamID: Int32) -> Bool { phase != .closed && live.waiting[streamID] != nil }

    /// The record of waiting stream `streamID` was stored as `sequence` (after its `record`
    /// action): its completion will name it. `.notWaiting` when the stream no longer waits.
    public mutating func recordStored(streamID: Int32, sequence: UInt64) -> OnRecordStored {
        guard phase != .closed, live.waiting[streamID] != nil else { return .notWaiting }
        live.waiting[streamID]?.record = sequence
        return .noted
    }

    /// The delay of `streamID` has run out: `.performActions` when its answer is due now,
    /// `.nothingDue` when the stream no longer waits (answered, refused, reset or closed since).
    public mutating func timerFired(streamID: Int32, now: Int64, into actions: inout [Action]) -> OnTimerFired {
        var result = OnTimerFired.nothingDue
        modify { live, phase, closeReason in
            // (A GOAWAY that does not cover a waiting stream refuses it when it is sent.)
            guard let entry = live.waiting[streamID], !entry.hung else { return }
            live.waiting[streamID] = nil
            result = .performActions
            Self.settle(
                streamID: streamID, answer: entry.answer, fate: entry.fate, labels: entry.labels, held: entry.held,
                record: entry.record, faultID: nil, now: now, live: &live, phase: &phase, closeReason: &closeReason,
                into: &actions)
        }
        return result
    }

    /// The effect `applyEffect` asked for has run (`outcome`): the stream's answer is finished
    /// with it and settled (`.performActions`); `.nothingOwed` when no effect was pending for it.
    public mutating func effectApplied(
        streamID: Int32, outcome: EffectOutcome, into actions: inout [Action]
    ) -> OnEffectApplied {
        guard var pending = live.pendingEffect, pending.streamID == streamID else { return .nothingOwed }
        live.pendingEffect = nil
        pending.answer.settle(with: outcome)
        modify { live, phase, closeReason in
            Self.settle(
                streamID: streamID, answer: pending.answer, fate: pending.fate, labels: pending.labels, held: nil,
                effect: outcome, record: pending.record, faultID: pending.faultID, detail: pending.detail,
                now: pending.at, live: &live, phase: &phase, closeReason: &closeReason, into: &actions)
        }
        return .performActions
    }

    /// Streams closed (every close the HTTP/2 session saw, in order): one whose answer still
    /// waited was reset by the client, so its record is completed as cancelled and its timer
    /// cancelled (`.performActions`); the others were answered, reset or refused already and
    /// owe nothing (`.nothingOwed` when none waited).
    public mutating func streamsClosed(_ streamIDs: [Int32], into actions: inout [Action]) -> OnStreamsClosed {
        guard phase != .closed, !live.waiting.isEmpty else { return .nothingOwed }
        var result = OnStreamsClosed.nothingOwed
        for streamID in streamIDs {
            guard let entry = live.waiting.removeValue(forKey: streamID) else { continue }
            result = .performActions
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(
                .complete(
                    streamID: streamID, sequence: entry.record,
                    RecordedAnswer(outcome: .cancelled, answer: entry.answer)))
        }
        return result
    }

    /// The connection has closed: every waiting stream ends unanswered. The result says who
    /// closed it and why: the server's reason when it began closing, else the client's.
    @discardableResult
    public mutating func connectionClosed(error: String? = nil, into actions: inout [Action]) -> OnConnectionClosed {
        let reason = closeReason ?? error.map(CloseReason.connectionError) ?? .clientClosed
        guard phase != .closed else { return OnConnectionClosed(reason: reason) }
        for (streamID, entry) in live.waiting.sorted(by: { $0.key < $1.key }) {
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(
                .complete(
                    streamID: streamID, sequence: entry.record,
                    RecordedAnswer(outcome: .connectionClosed, answer: entry.answer)))
        }
        live.waiting.removeAll()
        phase = .closed
        return OnConnectionClosed(reason: reason)
    }

    /// A graceful end (SIGTERM, the shutdown mode, an idle timeout): GOAWAY NO_ERROR with
    /// `debugData` and the last processed stream; streams it covers are still answered,
    /// delayed ones when their time comes, then the connection closes.
    /// A connection that does not speak HTTP/2 yet closes at once.
    @discardableResult
    public mutating func shutdown(debugData: [UInt8], into actions: inout [Action]) -> OnShutdown {
        switch phase {
        case .serving, .awaitingPreface:
            phase = .draining
            actions.append(.goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: nil, debugData: debugData))
            return .goAwaySent
        case .greeting, .handshaking, .refusingCleartext:
            beginClosing(.shutdownBeforeHTTP2)
            actions.append(.close(afterFlush: false))
            return .closeNow
        case .draining, .closing, .closed:
            return .alreadyEnding
        }
    }

    /// The handshake timeout ran out: a connection still greeting, in its TLS handshake,
    /// refusing cleartext or awaiting the HTTP/2 preface closes at once; one serving is left alone.
    public mutating func handshakeTimeoutElapsed(into actions: inout [Action]) -> OnHandshakeTimeout {
        switch phase {
        case .greeting, .handshaking, .refusingCleartext, .awaitingPreface:
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
        switch phase {
        case .greeting, .handshaking, .refusingCleartext:
            beginClosing(.idleTimeout)
            actions.append(.close(afterFlush: false))
            return .ended
        case .serving, .awaitingPreface:
            guard live.waiting.isEmpty, streamsBeingReceived == 0 else { return .keptOpen }
            shutdown(debugData: debugData, into: &actions)
            closeReason = closeReason ?? .idleTimeout
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
        var answeredNow = false
        modify { live, phase, closeReason in
            answeredNow = Self.decided(
                decision, firstAuthenticated: firstAuthenticated, now: now, live: &live, phase: &phase,
                closeReason: &closeReason, into: &actions)
        }
        return answeredNow
    }

    /// The MAX_CONCURRENT_STREAMS last announced (tests).
    var announcedStreams: UInt32? { phase == .closed ? nil : live.announcedStreams }

    /// The phase's name: `greeting`, `handshaking`, `awaitingPreface`, `refusingCleartext`,
    /// `serving`, `draining`, `closing` or `closed` (tests).
    var phaseName: String {
        switch phase {
        case .greeting: "greeting"
        case .handshaking: "handshaking"
        case .awaitingPreface: "awaitingPreface"
        case .refusingCleartext: "refusingCleartext"
        case .serving: "serving"
        case .draining: "draining"
        case .closing: "closing"
        case .closed: "closed"
        }
    }

    // MARK: internals

    /// Runs `body` on the live state in place, unless the connection has closed.
    private mutating func modify(_ body: (inout Live, inout Phase, inout CloseReason?) -> Void) {
        guard phase != .closed else { return }
        body(&live, &phase, &closeReason)
    }

    /// Carries out `decision`. Returns `true` for the common case, an answer that goes out now
    /// with nothing else to do (no actions appended: the caller records and sends it), after
    /// noting the stream as answered.
    private static func decided(
        _ decision: RequestDecision, firstAuthenticated: Bool, now: Int64, live: inout Live, phase: inout Phase,
        closeReason: inout CloseReason?,
        into actions: inout [Action]
    ) -> Bool {
        let streamID = decision.streamID
        if decision.fate == .answer, decision.held == nil, decision.delayMilliseconds == nil,
            decision.maxConcurrentStreams == nil,
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
                        RecordedAnswer(
                            outcome: .goAway, answer: decision.answer, faultID: decision.faultID,
                            detail: decision.detail)))
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
                Self.refuseWaitingStreams(outcome: .reset, live: &live, into: &actions) { $0 != streamID }
                actions.append(.refuseStreamsBeingReceived(except: streamID))
            }
            if let delay = decision.delayMilliseconds {
                live.waiting[streamID] = Waiting(
                    answer: decision.answer, fate: decision.fate, labels: decision.labels, hung: false,
                    held: decision.held)
                actions.append(
                    .record(
                        streamID: streamID,
                        RecordedAnswer(
                            outcome: .pending, answer: decision.answer, faultID: decision.faultID,
                            detail: decision.detail)))
                actions.append(.startTimer(streamID: streamID, milliseconds: max(0, delay)))
                return false
            }
            Self.settle(
                streamID: streamID, answer: decision.answer, fate: decision.fate, labels: decision.labels,
                held: decision.held, record: nil, faultID: decision.faultID, detail: decision.detail, now: now,
                live: &live,
                phase: &phase,
                closeReason: &closeReason, into: &actions)
        }
        return false
    }

    /// Whether `fate` answers `streamID` now (so that a success's effect must run first).
    private static func answersNow(streamID: Int32, fate: RequestDecision.Fate, live: Live) -> Bool {
        switch fate {
        case .answer, .close(respondFirst: true): return true
        case .goAway(_, let requested, _, _):
            return requested.map { streamID <= max($0, live.highestAnswered) } ?? true
        case .hang, .reset, .goAwayInsteadOfAnswer, .close(respondFirst: false): return false
        }
    }

    /// Refuses the waiting streams `refused` picks (RST_STREAM REFUSED_STREAM, timers cancelled)
    /// and completes their records with `outcome`, in stream order.
    private static func refuseWaitingStreams(
        outcome: DeliveryOutcome, live: inout Live, into actions: inout [Action], where refused: (Int32) -> Bool
    ) {
        for (streamID, entry) in live.waiting.sorted(by: { $0.key < $1.key }) where refused(streamID) {
            if !entry.hung { actions.append(.cancelTimer(streamID: streamID)) }
            actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
            actions.append(
                .complete(
                    streamID: streamID, sequence: entry.record, RecordedAnswer(outcome: outcome, answer: entry.answer)))
            live.waiting[streamID] = nil
        }
    }

    private static func announce(_ limit: UInt32, live: inout Live, into actions: inout [Action]) {
        guard limit != live.announcedStreams else { return }
        live.announcedStreams = limit
        actions.append(.announceMaxConcurrentStreams(limit))
    }

    /// Carries out `fate` for a stream now: `record` is its record's sequence number when it
    /// exists already (it waited), so that the record is written (`record`) or completed
    /// (`complete`) once.
    ///
    /// A success to `held` (a request whose success has an effect) waits for the effect first:
    /// before any action, the machine asks for it (`applyEffect`) and settles in
    /// `effectApplied`, with the answer the effect completed (`effect`).
    private static func settle(
        streamID: Int32, answer: APNSAnswer, fate: RequestDecision.Fate, labels: AnswerLabels,
        held: HeldRequest? = nil, effect: EffectOutcome? = nil, record: UInt64?, faultID: String?,
        detail: String? = nil, now: Int64, live: inout Live, phase: inout Phase, closeReason: inout CloseReason?,
        into actions: inout [Action]
    ) {
        func note(_ recordedAnswer: RecordedAnswer) {
            var recordedAnswer = recordedAnswer
            recordedAnswer.faultID = faultID
            recordedAnswer.detail = detail
            actions.append(
                record.map { .complete(streamID: streamID, sequence: $0, recordedAnswer) }
                    ?? .record(streamID: streamID, recordedAnswer))
        }
        func answerNow() {
            note(RecordedAnswer(outcome: .answered, answer: answer, answeredAt: now, effect: effect))
            actions.append(.respond(streamID: streamID, answer, labels))
            live.highestAnswered = max(live.highestAnswered, streamID)
        }
        if phase == .closing {
            note(RecordedAnswer(outcome: .connectionClosed, answer: answer))
            return
        }
        if let held, (200...299).contains(answer.status), answersNow(streamID: streamID, fate: fate, live: live) {
            live.pendingEffect = PendingEffect(
                streamID: streamID, answer: answer, fate: fate, labels: labels, record: record, faultID: faultID,
                detail: detail, at: now)
            actions.append(.applyEffect(streamID: streamID, at: now, held))
            return
        }
        switch fate {
        case .answer:
            answerNow()
        case .hang:
            live.waiting[streamID] = Waiting(answer: answer, fate: fate, labels: labels, hung: true)
            note(RecordedAnswer(outcome: .hung, answer: answer))
        case .reset(let code):
            note(RecordedAnswer(outcome: .reset, answer: answer))
            actions.append(.resetStream(streamID: streamID, errorCode: code))
        case .goAway(let code, let requested, let debugData, let order):
            // Never below a stream already answered: that would take back its answer.
            let lastStreamID = requested.map { max($0, live.highestAnswered) }
            let covered = lastStreamID.map { streamID <= $0 } ?? true
            // The transport sends frames in the order of the actions: an answer before the GOAWAY
            // goes out whole (its DATA too) before it.
            if covered, order == .answerFirst { answerNow() }
            actions.append(.goAway(errorCode: code, lastStreamID: lastStreamID, debugData: debugData))
            if phase == .serving { phase = .draining }
            if let lastStreamID {
                let last = min(lastStreamID, live.goAwayLastStreamID ?? .max)
                live.goAwayLastStreamID = last
                // Streams waiting above it (a delay) were not processed, as the GOAWAY says: refused
                // and recorded now, not when their delay ends (a client such as Netty forgets them at
                // once, and the connection may close first).
                refuseWaitingStreams(outcome: .goAway, live: &live, into: &actions) { $0 > last }
            }
            if covered {
                if order == .goAwayFirst { answerNow() }
            } else {
                note(RecordedAnswer(outcome: .goAway, answer: answer))
                actions.append(.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue))
            }
            if code != HTTP2ErrorCode.noError.rawValue {
                phase = .closing
                closeReason = closeReason ?? .goAwayWithError(code)
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
            closeReason = closeReason ?? .goAwayInsteadOfAnswer(answer.reason?.rawValue)
            actions.append(.close(afterFlush: true))
        case .close(let respondFirst):
            if respondFirst {
                answerNow()
            } else {
                note(RecordedAnswer(outcome: .connectionClosed, answer: answer))
            }
            phase = .closing
            closeReason = closeReason ?? .faultRuleClose
            actions.append(.close(afterFlush: respondFirst))
        }
    }
}
