extension ConnectionStateMachine {
    /// Where the connection is, each case with the data it has there.
    ///
    /// Noncopyable, so that an event moves a case's data out (`exchange(&state, with:
    /// .modifying)`) and back (`withServing`) instead of copying it: a copy retained every
    /// reference it holds and cost about 600 instructions per push (commit 623d0b1).
    enum State: ~Copyable, Sendable {
        /// Nothing read yet, or too few bytes to tell TLS from cleartext.
        case greeting
        /// TLS bytes go to the handshake.
        case handshaking
        /// TLS is up; the 24 bytes of the HTTP/2 client preface are awaited.
        case awaitingPreface(AwaitingPreface)
        /// A cleartext HTTP/2 client is told, in HTTP/2, to use TLS.
        case refusingCleartext
        /// Streams are served.
        case serving(Serving)
        /// A GOAWAY went out: the streams it covers are finished, then the connection closes.
        case draining(Serving, Draining)
        /// Nothing more is answered; owed streams end when the connection has closed.
        case closing(Closing)
        /// The connection has closed.
        case closed(Closed)
        /// Only while an event has moved the data out.
        case modifying

        /// The case, without its data.
        var kind: Kind {
            switch self {
            case .greeting: .greeting
            case .handshaking: .handshaking
            case .awaitingPreface: .awaitingPreface
            case .refusingCleartext: .refusingCleartext
            case .serving: .serving
            case .draining: .draining
            case .closing: .closing
            case .closed: .closed
            case .modifying: .modifying
            }
        }
    }

    /// The state's case without its data, for switches that group cases (a case label with
    /// several patterns cannot match a noncopyable value).
    enum Kind: Sendable {
        case greeting, handshaking, awaitingPreface, refusingCleartext, serving, draining, closing, closed, modifying
    }

    /// What a connection has once its handshake is done and its HTTP/2 preface is awaited.
    struct AwaitingPreface: Sendable {
        /// What the handshake fixed: authentication and the first SETTINGS' limit.
        var serving: Serving
        /// What the client sent of the preface so far (at most its 24 bytes).
        var received: [UInt8] = []
        /// The client chose h2 by ALPN: HTTP/2 bytes may go out before its preface, and a bad
        /// preface is an HTTP/2 connection error.
        let alpnChoseH2: Bool
    }

    /// What a connection serving streams decides with. Its fields live in one object, made
    /// when the handshake is done, so that an event moves an 8-byte reference out of the state
    /// and back instead of the fields (208 bytes: +286 instructions a push when they were moved).
    struct Serving: Sendable {
        private let storage: Storage

        init(authentication: AuthenticationMode, limits: StreamLimits) {
            storage = Storage(authentication: authentication, limits: limits)
        }

        /// Token or certificate: fixed at the handshake.
        var authentication: AuthenticationMode { storage.authentication }
        var auth: ConnectionAuthState {
            get { storage.auth }
            nonmutating _modify { yield &storage.auth }
        }
        var faults: ConnectionFaultState {
            get { storage.faults }
            nonmutating _modify { yield &storage.faults }
        }
        /// The streams whose answer is owed: a delay or a hang.
        var owed: OwedStreams {
            get { storage.owed }
            nonmutating _modify { yield &storage.owed }
        }
        var limits: StreamLimits {
            get { storage.limits }
            nonmutating _modify { yield &storage.limits }
        }
        /// The last stream id a GOAWAY named: streams above it are not answered (the client
        /// retries them elsewhere).
        var goAwayLastStreamID: Int32? {
            get { storage.goAwayLastStreamID }
            nonmutating _modify { yield &storage.goAwayLastStreamID }
        }
        /// The highest stream answered: no GOAWAY names a lower last stream id (RFC 9113 §6.8).
        var highestAnswered: Int32 {
            get { storage.highestAnswered }
            nonmutating _modify { yield &storage.highestAnswered }
        }
        /// The stream whose effect the transport is carrying out (between `applyEffect` and
        /// `effectApplied`, within one step).
        var pendingEffect: PendingEffect? {
            get { storage.pendingEffect }
            nonmutating _modify { yield &storage.pendingEffect }
        }
        /// The request whose fault decision waits for its claim to be settled (between
        /// `requestReady`'s `.claimFaults` and `faultsClaimed`, within one step).
        var pendingClaim: PendingClaim? {
            get { storage.pendingClaim }
            nonmutating _modify { yield &storage.pendingClaim }
        }

        /// The fields. `@unchecked Sendable`: a storage is reached only through the one
        /// `Serving` that made it, which moves with the machine's noncopyable state, and the
        /// machine is used by one event loop at a time.
        final class Storage: @unchecked Sendable {
            let authentication: AuthenticationMode
            var auth = ConnectionAuthState()
            var faults = ConnectionFaultState()
            var owed = OwedStreams()
            var limits: StreamLimits
            var goAwayLastStreamID: Int32?
            var highestAnswered: Int32 = 0
            var pendingEffect: PendingEffect?
            var pendingClaim: PendingClaim?

            init(authentication: AuthenticationMode, limits: StreamLimits) {
                self.authentication = authentication
                self.limits = limits
            }
        }
    }

    /// The MAX_CONCURRENT_STREAMS a connection announces, and why.
    struct StreamLimits: Sendable {
        /// The limit the server is configured with.
        let configured: UInt32
        /// The limit last announced.
        var announced: UInt32
        /// A limit set by a fault rule: kept until another rule changes it.
        var rule: UInt32?
        /// A token connection that has not yet had a push pass authentication (one stream).
        var authLimited: Bool
    }

    /// What a draining connection knows besides what it serves with.
    struct Draining: Sendable {
        /// Why the server will close (an idle timeout's end), once known.
        var reason: CloseReason?
        /// HTTP/2 bytes may go out: false only when the drain began before the preface without
        /// ALPN h2.
        let mayWriteHTTP2: Bool
    }

    /// A connection that answers nothing more.
    struct Closing: Sendable {
        /// Why the server began closing (`nil`: the client is the one closing).
        var reason: CloseReason?
        /// A queued GOAWAY (an invalid preface, a flood…) may still go out.
        var mayWriteHTTP2: Bool
        /// What it served with, once past its handshake: its owed streams end when it has closed.
        var serving: Serving?
    }

    /// A connection that has closed.
    struct Closed: Sendable {
        /// Why the server closed it (`nil`: the client did).
        let reason: CloseReason?
        let mayWriteHTTP2: Bool
        /// What requests read in the same pass as the close are judged with.
        let authentication: AuthenticationMode
    }

    /// Where a connection that may still answer stands, beside its `Serving` while an event
    /// has moved that out of the state: `settle` may move it on (a GOAWAY drains or closes).
    struct Course: Sendable {
        var stage: Stage
        /// Why the server is closing, once it began (or will: an idle timeout's drain).
        var reason: CloseReason?
        let mayWriteHTTP2: Bool

        /// Where a connection that may still answer stands.
        enum Stage: Sendable {
            case serving, draining, closing
        }
    }

    /// A stream whose answer waits for the effect it asked the transport to carry out
    /// (`applyEffect`): the rest of its settling, done in `effectApplied`. A class: only a
    /// request with an effect makes one, and the state the others move stays small.
    final class PendingEffect: Sendable {
        let streamID: Int32
        let answer: APNSAnswer
        let fate: RequestDecision.Fate
        let labels: AnswerLabels
        /// Its record's sequence number, when it was recorded while it waited.
        let record: UInt64?
        let faultID: String?
        let detail: String?
        /// When it was settled (epoch ms): the answer's time, and the effect's.
        let at: Int64

        init(
            streamID: Int32, answer: APNSAnswer, fate: RequestDecision.Fate, labels: AnswerLabels, record: UInt64?,
            faultID: String?, detail: String?, at: Int64
        ) {
            self.streamID = streamID
            self.answer = answer
            self.fate = fate
            self.labels = labels
            self.record = record
            self.faultID = faultID
            self.detail = detail
            self.at = at
        }
    }

    /// A request whose fault decision waits for the shared controls to settle its claim: the
    /// rest of `requestReady`, done in `faultsClaimed`. A class, for the reason `PendingEffect` is.
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

    // MARK: what the state says

    /// Whether the connection is closing or closed: nothing more is read or answered.
    var isClosed: Bool {
        switch state {
        case .closing: true
        case .closed: true
        default: false
        }
    }

    /// The preface arrived (or ALPN chose h2): HTTP/2 bytes may go out. Until then nothing is
    /// sent, so that an HTTP/1.1 client gets a clean HTTP/1.1 answer.
    var mayWriteHTTP2: Bool {
        switch state {
        case .greeting: false
        case .handshaking: false
        case .refusingCleartext: false
        case .modifying: false
        case .awaitingPreface(let awaiting): awaiting.alpnChoseH2
        case .serving: true
        case .draining(_, let draining): draining.mayWriteHTTP2
        case .closing(let closing): closing.mayWriteHTTP2
        case .closed(let closed): closed.mayWriteHTTP2
        }
    }

    /// Where the bytes that arrive now go.
    var inbound: Inbound {
        switch state {
        case .greeting: .greeting
        case .handshaking: .handshake
        case .awaitingPreface: .tls
        case .serving: .tls
        case .draining: .tls
        case .refusingCleartext: .cleartextHTTP2
        case .closing: .ignored
        case .closed: .ignored
        case .modifying: .ignored
        }
    }

    /// Why the server began closing, once it did (`nil`: the client may still be the one).
    var closeReason: CloseReason? {
        switch state {
        case .draining(_, let draining): draining.reason
        case .closing(let closing): closing.reason
        case .closed(let closed): closed.reason
        default: nil
        }
    }

    /// Token or certificate, as the handshake fixed it (token before it).
    var authentication: AuthenticationMode {
        switch state {
        case .awaitingPreface(let awaiting): awaiting.serving.authentication
        case .serving(let serving): serving.authentication
        case .draining(let serving, _): serving.authentication
        case .closing(let closing): closing.serving?.authentication ?? .token
        case .closed(let closed): closed.authentication
        case .greeting: .token
        case .handshaking: .token
        case .refusingCleartext: .token
        case .modifying: .token
        }
    }

    /// Whether any stream's answer is owed.
    var owesStreams: Bool {
        switch state {
        case .serving(let serving): !serving.owed.isEmpty
        case .draining(let serving, _): !serving.owed.isEmpty
        case .closing(let closing): !(closing.serving?.owed.isEmpty ?? true)
        default: false
        }
    }

    /// Whether `streamID` waits for its answer (tests).
    func isWaiting(streamID: Int32) -> Bool {
        switch state {
        case .serving(let serving): serving.owed[streamID] != nil
        case .draining(let serving, _): serving.owed[streamID] != nil
        case .closing(let closing): closing.serving?.owed[streamID] != nil
        default: false
        }
    }

    /// The MAX_CONCURRENT_STREAMS last announced (tests).
    var announcedStreams: UInt32? {
        switch state {
        case .greeting: configuredStreams
        case .handshaking: configuredStreams
        case .refusingCleartext: configuredStreams
        case .modifying: configuredStreams
        case .awaitingPreface(let awaiting): awaiting.serving.limits.announced
        case .serving(let serving): serving.limits.announced
        case .draining(let serving, _): serving.limits.announced
        case .closing(let closing): closing.serving?.limits.announced ?? configuredStreams
        case .closed: nil
        }
    }

    /// The state's name: `greeting`, `handshaking`, `awaitingPreface`, `refusingCleartext`,
    /// `serving`, `draining`, `closing` or `closed` (tests).
    var phaseName: String {
        switch state {
        case .greeting: "greeting"
        case .handshaking: "handshaking"
        case .awaitingPreface: "awaitingPreface"
        case .refusingCleartext: "refusingCleartext"
        case .serving: "serving"
        case .draining: "draining"
        case .closing: "closing"
        case .closed: "closed"
        case .modifying: "modifying"
        }
    }

    // MARK: moving the data out and back

    /// Runs `body` on the data of a connection that may still answer (serving, draining, or
    /// closing past its handshake), moved out of the state and back (no copy: the state is
    /// noncopyable); `otherwise` when there is none.
    @inline(__always)
    mutating func withServing<Result>(
        otherwise: Result, _ body: (inout Serving, inout Course) -> Result
    ) -> Result {
        switch exchange(&state, with: .modifying) {
        case .serving(var serving):
            var course = Course(stage: .serving, reason: nil, mayWriteHTTP2: true)
            let result = body(&serving, &course)
            restore(serving, course)
            return result
        case .draining(var serving, let draining):
            var course = Course(stage: .draining, reason: draining.reason, mayWriteHTTP2: draining.mayWriteHTTP2)
            let result = body(&serving, &course)
            restore(serving, course)
            return result
        case .closing(var closing):
            guard var serving = closing.serving.take() else {
                state = .closing(closing)
                return otherwise
            }
            var course = Course(stage: .closing, reason: closing.reason, mayWriteHTTP2: closing.mayWriteHTTP2)
            let result = body(&serving, &course)
            restore(serving, course)
            return result
        case .greeting:
            state = .greeting
        case .handshaking:
            state = .handshaking
        case .awaitingPreface(let awaiting):
            state = .awaitingPreface(awaiting)
        case .refusingCleartext:
            state = .refusingCleartext
        case .closed(let closed):
            state = .closed(closed)
        case .modifying:
            break
        }
        return otherwise
    }

    /// Moves `serving` back into the state, in the case `course` says.
    @inline(__always)
    mutating func restore(_ serving: consuming Serving, _ course: Course) {
        switch course.stage {
        case .serving:
            state = .serving(serving)
        case .draining:
            state = .draining(serving, Draining(reason: course.reason, mayWriteHTTP2: course.mayWriteHTTP2))
        case .closing:
            state = .closing(Closing(reason: course.reason, mayWriteHTTP2: course.mayWriteHTTP2, serving: serving))
        }
    }
}
