import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import Logging
import NIOCore

/// One APNs connection's logic without sockets or TLS: its state machine from the first byte
/// to the close, and its wire once TLS is up (`ConnectionWire`: HTTP/2, or HTTP/1.1 on a Web Push
/// connection without ALPN h2; plaintext in, answers decided, plaintext out).
/// `APNSConnectionHandler` drives it over TLS; the HTTP/2 tests drive it directly.
///
/// Every event goes through `ConnectionStateMachine` (Core), which owns the connection's
/// state and decides: how the client greets, the handshake's outcome, the client preface,
/// every request, closing and why. This performs its actions: on the wire (answers, resets,
/// GOAWAY, SETTINGS), on the store (each record written when its answer is decided, completed
/// once if it waited) and through the `driver` (timers); a close is the step's result, which the
/// handler performs after the step. The connection log gets every
/// GOAWAY and RST_STREAM that went over the wire, libnghttp2's own included.
///
/// Not thread-safe: one connection, one event loop.
final class APNSSession {
    /// HTTP/2 from the start; HTTP/1.1 once the handshake of a Web Push connection says so.
    private let wire: ConnectionWire
    private var machine: ConnectionStateMachine
    private let shared: APNSListenerContext
    private let logger: Logger
    /// Timers and closing; `nil` in tests that need neither.
    weak var driver: (any ConnectionDriver)?
    /// The TLS server name, for `--environment auto` (set when the handshake completes).
    private(set) var serverName: String?
    /// The ready list's buffer between reads (see `HTTP2ServerSession.takeReadyRequests`).
    private var spareReadyRequests: [ReadyRequest] = []
    /// The payload analysis a fault rule's `lint` or `preview` condition asked for, one request at
    /// a time (emptied for each).
    private let ruleAnalysis = LiveRequestFacts.AnalysisCache()
    /// Reused for every request.
    private var actions: [ConnectionStateMachine.Action] = []
    /// The close a step's actions asked for, until its entry point returns it (`takeStepClose`).
    private var stepClose: StepClose?
    private let connectionID: UInt64
    private var random = FastRandom()
    /// The registry as last read, and its change count then: re-read only after a change.
    private var registry = RegistrySnapshot()
    private var registryChangeCount = UInt64.max
    /// The API the connection's listener serves.
    let service: APNSService
    /// What success answers do to the registry (channels, subscriptions) and the store (a
    /// broadcast's deliveries).
    private let effects: AnswerEffects
    /// Answers counted by label set (`apns_mock_requests_total`), without a registry look-up.
    private var requestCounters: RequestCounters
    /// When the requests being answered now had all arrived (monotonic nanoseconds): where an
    /// answer's latency starts.
    private var readyAt: UInt64 = 0

    /// A request being decided, with what its record is made of.
    private struct CurrentRequest {
        var request: APNSRequest
        var verdict: APNSVerdict
        var environment: APNSEnvironment
        var streamID: Int32
        var receivedAt: Int64

        init(
            request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment, streamID: Int32,
            receivedAt: Int64
        ) {
            self.request = request
            self.verdict = verdict
            self.environment = environment
            self.streamID = streamID
            self.receivedAt = receivedAt
        }

        /// The request the machine held for its effect, on `streamID`.
        init(_ held: HeldRequest, streamID: Int32) {
            self.init(
                request: held.request, verdict: held.verdict, environment: held.environment, streamID: streamID,
                receivedAt: held.receivedAt)
        }
    }

    /// A connection just accepted: nothing read yet, no SETTINGS sent.
    init(context: APNSListenerContext, connectionID: UInt64, service: APNSService = .push, logger: Logger) throws {
        shared = context
        self.logger = logger
        self.service = service
        effects = AnswerEffects(registry: context.registry)
        let http2 = try HTTP2ServerSession(settings: context.settings)
        wire = ConnectionWire(http2: http2)
        machine = ConnectionStateMachine(
            configuredStreams: context.settings.maxConcurrentStreams, authStreamLimit: context.authStreamLimit,
            service: service)
        self.connectionID = connectionID
        requestCounters = RequestCounters(metrics: context.metrics)
        let faults = context.faults
        http2.replacesStreamLimitGoAway = {
            faults.active.contains(.behaviors) && FaultPolicy.answersStreamLimitWithGoAway(faults.snapshot)
        }
    }

    /// A connection past TLS with `authentication`, ALPN h2 and the client preface read: what
    /// follows is HTTP/2 frames (tests, and `InMemoryAPNSConnection`).
    convenience init(
        context: APNSListenerContext, connectionID: UInt64, authentication: AuthenticationMode, serverName: String?,
        service: APNSService = .push, logger: Logger
    ) throws {
        try self.init(context: context, connectionID: connectionID, service: service, logger: logger)
        _ = greetingReceived(.tls)
        handshakeCompleted(authentication: authentication, alpn: "h2", serverName: serverName)
        _ = ClientGreeting.http2Preface.withUnsafeBufferPointer { receive($0) }
    }

    // MARK: opening

    /// Bytes arrived: where they go.
    func bytesArrived() -> ConnectionStateMachine.Inbound { machine.bytesArrived() }

    /// Whether the connection is closing or closed (for tests: bytes would be ignored).
    var isClosed: Bool { machine.bytesArrived() == .ignored }

    /// A step of the handler ended: whether the connection closes now because its HTTP/2
    /// session is done.
    func stepEnded() -> ConnectionStateMachine.OnStepEnded {
        machine.stepEnded(http2Active: wire.isActive)
    }

    /// The client's first bytes said `greeting`.
    func greetingReceived(_ greeting: ClientGreeting, tlsRefused: Bool = false) -> ConnectionStateMachine.OnGreeting {
        machine.greetingReceived(greeting, tlsRefused: tlsRefused)
    }

    /// TLS is up: the machine learns the authentication mode, and the session queues its
    /// SETTINGS. Returns whether they may go out now (ALPN chose h2).
    @discardableResult
    func handshakeCompleted(authentication: AuthenticationMode, alpn: String?, serverName: String?) -> Bool {
        self.serverName = serverName
        let opened = machine.handshakeCompleted(authentication: authentication, alpn: alpn)
        if opened.speaksHTTP1 {
            wire.speakHTTP1()
            return false
        }
        let http2 = wire.http2
        http2.start(initialMaxConcurrentStreams: opened.maxConcurrentStreams)
        let settings = shared.settings
        log(
            .settingsSent(
                .init(
                    maxConcurrentStreams: opened.maxConcurrentStreams, headerTableSize: settings.headerTableSize,
                    initialWindowSize: settings.initialWindowSize, maxFrameSize: settings.maxFrameSize,
                    maxHeaderListSize: settings.maxHeaderListSize)))
        return opened.sendSettingsNow
    }

    /// Closes for `reason` unless the connection is already closing; returns whether the
    /// caller should close it now.
    func close(_ reason: CloseReason) -> Bool { machine.close(reason) == .closeNow }

    private func log(_ event: ConnectionEvent) {
        shared.connectionLog.note(connectionID, at: shared.now(), event)
    }

    /// How a step of the session (a read, a timer, a shutdown, a timeout) asks the connection
    /// around it to close: at once, or once what is queued has gone out.
    enum StepClose: Equatable {
        case now
        case afterFlush
    }

    /// What became of plaintext the connection received.
    enum Received: Equatable {
        /// Read as HTTP/2 (or part of the preface): send what the session wants to send.
        case read
        /// Read, and the connection closes (a fault rule, a connection error): at once, or after
        /// sending what the read queued.
        case readThenClose(StepClose)
        /// Not the HTTP/2 preface: refused as the machine said (it is closing; a GOAWAY for
        /// an ALPN h2 client is queued).
        case refused(ConnectionStateMachine.PrefaceRefusal)
        /// The connection is closing: dropped.
        case ignored
    }

    /// Feeds plaintext: the client preface, then HTTP/2 frames, answering every request that
    /// became ready.
    @discardableResult
    func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> Received {
        switch machine.plaintextReceived(bytes) {
        case .http2(let offset):
            if offset < bytes.count { receiveHTTP2(UnsafeBufferPointer(rebasing: bytes[offset...])) }
            return takeStepClose().map(Received.readThenClose) ?? .read
        case .http1:
            receiveHTTP1(bytes)
            return takeStepClose().map(Received.readThenClose) ?? .read
        case .prefaceIncomplete:
            return .read
        case .refused(let refusal):
            if case .goAway(let debugData) = refusal {
                wire.goAway(errorCode: HTTP2ErrorCode.protocolError.rawValue, lastStreamID: 0, debugData: debugData)
            }
            return .refused(refusal)
        case .ignored:
            return .ignored
        }
    }

    private func receiveHTTP2(_ bytes: UnsafeBufferPointer<UInt8>) {
        let http2 = wire.http2
        let outcome = http2.receive(bytes)
        // libnghttp2 may have ended the session in this read (a connection error: it queued its
        // GOAWAY and lets the read succeed): then what completed in it can no longer be answered.
        // Sending what it queued tells (its GOAWAY goes out before any answer anyway).
        let terminated = http2.hasReadyRequests && http2.sendQueuedFrames()
        if terminated || outcome == .failed(.library) {
            run { machine, actions in _ = machine.http2Failed(.library, into: &actions) }
        }
        answerReadyRequests(http2)
        // The mock's own GOAWAYs go out after the read's answers.
        if case .failed(let failure) = outcome, failure != .library {
            run { machine, actions in _ = machine.http2Failed(failure, into: &actions) }
        }
        noteControlFramesAndClosedStreams()
    }

    /// HTTP/1.1 bytes (a Web Push connection without ALPN h2): each request they complete is
    /// answered as a stream is; bytes that are not HTTP/1.x are answered by the session, which
    /// then closes.
    private func receiveHTTP1(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let http1 = wire.http1 else { return }
        var readyRequests: [ReadyRequest] = []
        let malformed = http1.receive(bytes, into: &readyRequests)
        readyAt = NIODeadline.now().uptimeNanoseconds
        for ready in readyRequests { answer(ready) }
        if let malformed {
            logger.notice(
                "HTTP/1.1 request refused: \(malformed.detail)", metadata: ["apnsmock.status": "\(malformed.status)"])
        }
    }

    /// Appends what the session wants to send, once HTTP/2 bytes may go out; returns whether
    /// they may.
    @discardableResult
    func collectOutput(into output: inout [UInt8]) -> Bool {
        guard machine.outputRequested() == .writeHTTP2 else { return false }
        wire.collectOutput(into: &output)
        noteControlFramesAndClosedStreams()
        return true
    }

    /// A delay set by `startTimer` has run out. Returns how the connection closes, if it does.
    func timerFired(streamID: Int32) -> StepClose? {
        run { _ = $0.timerFired(streamID: streamID, now: shared.now(), into: &$1) }
        return takeStepClose()
    }

    /// The connection closed (`error`: the socket failed): waiting streams are recorded as
    /// never answered. Returns who closed it and why.
    func connectionClosed(error: String?) -> CloseReason {
        var reason = CloseReason.clientClosed
        run { machine, actions in reason = machine.connectionClosed(error: error, into: &actions).reason }
        wire.http2.abandonStreamsBeingReceived()
        countRefusedStreams()
        return reason
    }

    /// GOAWAY NO_ERROR with `debugData`; streams already processed are still answered. A
    /// connection not speaking HTTP/2 yet closes (the result says so).
    func shutdown(debugData: [UInt8]) -> StepClose? {
        run { machine, actions in _ = machine.shutdown(debugData: debugData, into: &actions) }
        return takeStepClose()
    }

    /// `--handshake-timeout` ran out: how the connection closes (it had not reached HTTP/2), or
    /// `nil` when it serves.
    func handshakeTimeoutElapsed() -> StepClose? {
        run { machine, actions in _ = machine.handshakeTimeoutElapsed(into: &actions) }
        return takeStepClose()
    }

    /// The idle timeout ran out with nothing received: a graceful end with `debugData`, unless
    /// a stream waits for its answer or is being received. Returns whether it ended, and how
    /// the connection closes if it closes at once.
    func idleTimeoutElapsed(debugData: [UInt8]) -> (ended: Bool, close: StepClose?) {
        let streamsBeingReceived = wire.requestsBeingReceived
        var result = ConnectionStateMachine.OnIdleTimeout.keptOpen
        run { machine, actions in
            result = machine.idleTimeoutElapsed(
                streamsBeingReceived: streamsBeingReceived, debugData: debugData, into: &actions)
        }
        return (result == .ended, takeStepClose())
    }

    /// The close the actions performed since the last call asked for (the first one), taken.
    private func takeStepClose() -> StepClose? {
        defer { stepClose = nil }
        return stepClose
    }

    /// Runs one state-machine step and performs its actions.
    private func run(_ step: (inout ConnectionStateMachine, inout [ConnectionStateMachine.Action]) -> Void) {
        actions.removeAll(keepingCapacity: true)
        step(&machine, &actions)
        perform()
    }

    private func answerReadyRequests(_ http2: HTTP2ServerSession) {
        guard http2.hasReadyRequests else { return }
        var readyRequests = spareReadyRequests
        spareReadyRequests = []
        http2.takeReadyRequests(into: &readyRequests)
        defer {
            readyRequests.removeAll(keepingCapacity: true)
            spareReadyRequests = readyRequests
        }
        readyAt = NIODeadline.now().uptimeNanoseconds
        for ready in readyRequests { answer(ready) }
    }

    /// Decides `ready`'s answer, records it, and answers it now or as the machine says.
    private func answer(_ ready: ReadyRequest) {
        let now = shared.now()
        let parts = ready.request
        let authority = parts.authority ?? parts.host
        let environment = shared.environmentMode.resolve(serverName: serverName, authority: authority)
        var request = APNSRequest(
            method: parts.method, path: parts.path, authority: authority, headerBlock: parts.headers,
            payload: parts.payload, payloadSize: parts.payloadSize, headerListTooLarge: parts.headerListTooLarge)
        request.payloadComplete = !ready.early
        let changeCount = shared.registry.changeCount
        if changeCount != registryChangeCount {
            registry = shared.registry.snapshot()
            registryChangeCount = changeCount
        }
        let faults =
            shared.faults.active.rawValue == 0
            ? nil
            : FaultInputs(snapshot: shared.faults.snapshot, connectionID: connectionID, analysisCache: ruleAnalysis)
        actions.removeAll(keepingCapacity: true)
        let decided = requestReady(request, ready: ready, environment: environment, faults: faults, now: now)
        if let token = decided.verdict.newToken { shared.registry.remember(token) }
        if let faultID = decided.faultID { shared.metrics.faultFired(ruleID: faultID) }
        wire.finishAnswer(ready.request)
        if case .answerNow(let answer) = decided.next {
            // The common case: recorded once, answered, nothing else (no effect to run).
            shared.store.record(
                record(
                    answer: answer,
                    response: DeliveryResponse(
                        status: answer.status, reason: answer.reason, timestamp: answer.timestamp,
                        respondedAt: now),
                    outcome: .answered, faultID: decided.faultID, detail: decided.detail, request: request,
                    verdict: decided.verdict, environment: environment, streamID: ready.streamID,
                    receivedAt: now, channelID: nil))
            if answer.status != 200 {
                noteRejection(answer, goAway: false, verdict: decided.verdict, detail: decided.detail, now: now)
            }
            respond(
                streamID: ready.streamID, answer,
                AnswerLabels(kind: decided.verdict.kind, pushType: decided.verdict.pushType, readyAt: readyAt))
        } else {
            let current = CurrentRequest(
                request: request, verdict: decided.verdict, environment: environment, streamID: ready.streamID,
                receivedAt: now)
            perform(current)
        }
        if logger.logLevel <= .debug {
            logger.debug(
                "request decided",
                metadata: [
                    "apnsmock.stream.id": "\(ready.streamID)", "apnsmock.path": "\(request.path)",
                    "apnsmock.status": "\(decided.verdict.status)",
                ])
        }
    }

    /// The machine's decision of a request; when the fault policy
    /// claims counts the connections share (the one action appended), `FaultControl` settles
    /// the claim and the machine finishes the decision with what it granted.
    private func requestReady(
        _ request: APNSRequest, ready: ReadyRequest, environment: APNSEnvironment, faults: FaultInputs?, now: Int64
    ) -> ConnectionStateMachine.OnRequestReady {
        let decided = machine.requestReady(
            request, streamID: ready.streamID, environment: environment, registry: registry, rules: shared.rules,
            faults: faults, now: now, readyAt: readyAt, random: &random, into: &actions)
        guard case .claimFaults = decided.next, case .claimFaults(let claim)? = actions.last else { return decided }
        actions.removeAll(keepingCapacity: true)
        let settled = shared.faults.settle(claim, now: now)
        if let finished = machine.faultsClaimed(settled, random: &random, into: &actions) { return finished }
        return decided
    }

    /// The client's GOAWAY and RST_STREAM frames and the server's (libnghttp2's own too) go to
    /// the connection log; streams that closed while their answer waited go to the machine.
    private func noteControlFramesAndClosedStreams() {
        let http2 = wire.http2
        countRefusedStreams()
        if !http2.controlFrames.isEmpty {
            ControlFrameLog.note(
                http2.takeControlFrames(), connection: connectionID, log: shared.connectionLog, now: shared.now(),
                logger: logger)
        }
        // Every close is reported; the machine ends the streams it still owed (a client reset
        // while an answer waits), and ignores the others.
        guard !http2.closedStreams.isEmpty else { return }
        actions.removeAll(keepingCapacity: true)
        if machine.streamsClosed(http2.closedStreams, into: &actions) == .performActions { perform() }
        http2.clearClosedStreams()
    }

    /// Counts the streams the client opened that ended before becoming a request
    /// (`apns_mock_requests_refused_total`).
    private func countRefusedStreams() {
        let http2 = wire.http2
        guard http2.hasRefusedStreams else { return }
        let refused = http2.takeRefusedStreams()
        shared.metrics.refusedBeforeRequest(.opening, count: refused.opening)
        shared.metrics.refusedBeforeRequest(.receiving, count: refused.receiving)
    }

    /// Submits `answer` on `streamID` and counts it: by its labels, and its latency since
    /// `readyAt` (monotonic nanoseconds) when known.
    private func respond(streamID: Int32, _ answer: APNSAnswer, _ labels: AnswerLabels) {
        shared.connections.noteAnswered()
        requestCounters.count(
            status: answer.status, reason: answer.reason, pushType: labels.pushType, kind: labels.kind)
        defer {
            if let readyAt = labels.readyAt {
                shared.metrics.answered(afterNanoseconds: NIODeadline.now().uptimeNanoseconds &- readyAt)
            }
        }
        wire.respond(streamID: streamID, answer)
    }

    /// Logs a rejection (`notice`, rate-limited across the server): Apple's reason and the
    /// mock's detail. Only for rejections, never on a success's path.
    private func noteRejection(_ answer: APNSAnswer, goAway: Bool, verdict: APNSVerdict, detail: String?, now: Int64) {
        shared.rejections.note(
            status: goAway ? nil : answer.status, reason: answer.reason, detail: detail ?? verdict.detail,
            kind: verdict.kind, apnsID: answer.apnsID.text, connectionID: connectionID, now: now, logger: logger)
    }

    /// What follows a success with effects, once its record is stored:
    /// a broadcast's deliveries to the devices subscribed to its channel, or the kept message of
    /// the channel a push-to-start just subscribed its device to (`subscribedChannel`). Only when
    /// the request `succeeded`: the rules accepted it and it was answered 200 (a fault rule's 200
    /// on a rejected broadcast reaches no device).
    private func recordFollowUps(of record: DeliveryRecord, succeeded: Bool, subscribedChannel: String?) {
        guard succeeded else { return }
        switch record.kind {
        case .broadcast:
            if let fanOut = effects.fanOut(of: record) { shared.store.deliver(fanOut) }
        case .push:
            guard let channelID = subscribedChannel,
                let delivery = effects.storedDelivery(after: record, channelID: channelID)
            else { return }
            _ = shared.store.record(delivery)
        case .channel, .webPush:
            break
        }
    }

    /// The record of the request being decided, as `recorded` says.
    private func record(
        _ recorded: ConnectionStateMachine.RecordedAnswer, of current: CurrentRequest, channelID: String? = nil
    ) -> DeliveryRecord {
        record(
            answer: recorded.answer, response: DeliveryResponse(recorded), outcome: recorded.outcome,
            faultID: recorded.faultID, detail: recorded.detail, request: current.request, verdict: current.verdict,
            environment: current.environment, streamID: current.streamID, receivedAt: current.receivedAt,
            channelID: channelID ?? current.verdict.channelID)
    }

    /// The record of a request: what it carried, what the rules found, and its answer's fate.
    private func record(
        answer: APNSAnswer, response: DeliveryResponse?, outcome: DeliveryOutcome, faultID: String?, detail: String?,
        request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment, streamID: Int32, receivedAt: Int64,
        channelID: String?
    ) -> DeliveryRecord {
        DeliveryRecord(
            request: request, verdict: verdict, environment: environment, answer: answer, connectionID: connectionID,
            streamID: streamID, receivedAt: receivedAt, response: response, outcome: outcome, faultID: faultID,
            detail: detail, channelID: channelID)
    }

    /// Performs the step's actions; `current` is the request they were decided for, if any (its
    /// record).
    private func perform(_ current: CurrentRequest? = nil) {
        perform(actions, current: current, effect: nil)
        actions.removeAll(keepingCapacity: true)
    }

    /// Performs `list`; `effect`: the request whose effect ran, for the records that follow it.
    private func perform(
        _ list: [ConnectionStateMachine.Action], current: CurrentRequest?, effect held: CurrentRequest?
    ) {
        // The open record stored by this list (a `complete` later in the same list may have been
        // decided before the machine was told its sequence number).
        var storedOpen: (streamID: Int32, sequence: UInt64)?
        for action in list {
            switch action {
            case .record(let streamID, let recorded):
                guard let current, current.streamID == streamID else { continue }
                if !recorded.outcome.isOpen && recorded.outcome != .answered {
                    shared.metrics.unanswered(recorded.outcome)
                }
                let stored = record(recorded, of: current, channelID: recorded.effect?.recordChannelID)
                let sequence = shared.store.record(stored)
                if recorded.outcome == .goAway || !(200...299).contains(recorded.answer.status) {
                    noteRejection(
                        recorded.answer, goAway: recorded.outcome == .goAway, verdict: current.verdict,
                        detail: stored.detail, now: current.receivedAt)
                }
                if recorded.outcome.isOpen {
                    storedOpen = (streamID, sequence)
                    _ = machine.recordStored(streamID: streamID, sequence: sequence)
                }
                if let effect = recorded.effect {
                    recordFollowUps(
                        of: stored, succeeded: current.verdict.isAccepted && recorded.answer.status == 200,
                        subscribedChannel: effect.recordChannelID)
                }
            case .complete(let streamID, let told, let recorded):
                let sequence =
                    told != 0 ? told : storedOpen.flatMap { $0.streamID == streamID ? $0.sequence : nil } ?? 0
                if !recorded.outcome.isOpen && recorded.outcome != .answered {
                    // Never answered: the answer that would have been counted will not come.
                    shared.metrics.unanswered(recorded.outcome)
                }
                if let effect = recorded.effect, let held, held.streamID == streamID {
                    // A delayed answer's effect ran as it went out: what follows it.
                    recordFollowUps(
                        of: record(recorded, of: held),
                        succeeded: held.verdict.isAccepted && recorded.answer.status == 200,
                        subscribedChannel: effect.recordChannelID)
                }
                shared.store.complete(
                    sequence: sequence, with: DeliveryResponse(recorded), outcome: recorded.outcome,
                    channelID: recorded.effect?.recordChannelID)
            case .respond(let streamID, let answer, let labels):
                // The answer as decided: its apns-id is the record's.
                respond(streamID: streamID, answer, labels)
            case .claimFaults:
                break  // settled in `answerReadyRequests`, before any other action
            case .applyEffect(let streamID, let at, let request):
                // The effect runs now, as the answer goes out; the machine finishes the answer with
                // what it did and appends the rest (the record, the answer, any GOAWAY or close).
                let outcome = effects.perform(request, now: at, random: &random)
                var rest: [ConnectionStateMachine.Action] = []
                if machine.effectApplied(streamID: streamID, outcome: outcome, into: &rest) == .performActions {
                    perform(rest, current: current, effect: CurrentRequest(request, streamID: streamID))
                }
            case .resetStream(let streamID, let errorCode):
                logger.debug(
                    "RST_STREAM", metadata: ["apnsmock.stream.id": "\(streamID)", "apnsmock.error": "\(errorCode)"])
                if wire.resetStream(streamID, errorCode: errorCode) == .connectionCutOff, stepClose == nil {
                    stepClose = .now
                }
            case .goAway(let errorCode, let lastStreamID, let debugData):
                wire.goAway(errorCode: errorCode, lastStreamID: lastStreamID, debugData: debugData)
            case .announceMaxConcurrentStreams(let limit):
                if wire.announceMaxConcurrentStreams(limit) { log(.settingsSent(.init(maxConcurrentStreams: limit))) }
            case .startTimer(let streamID, let milliseconds):
                driver?.startTimer(streamID: streamID, milliseconds: milliseconds)
            case .cancelTimer(let streamID):
                driver?.cancelTimer(streamID: streamID)
            case .close(let afterFlush):
                // The entry point returns it; the first close of a step is the one that counts.
                if stepClose == nil { stepClose = afterFlush ? .afterFlush : .now }
            case .refuseStreamsBeingReceived(let except):
                wire.refuseStreamsBeingReceived(except: except)
            }
        }
    }
}
