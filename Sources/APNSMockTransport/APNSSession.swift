import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Logging

/// What an `APNSSession` needs from the connection around it: timers and closing. The
/// connection handler implements it on its event loop; tests implement it by hand.
protocol ConnectionDriver: AnyObject {
    /// Calls the session's `timerFired(streamID:)` after `milliseconds`.
    func startTimer(streamID: Int32, milliseconds: Int64)
    func cancelTimer(streamID: Int32)
    /// Closes the connection, once what is queued has been sent (`afterFlush`) or at once.
    func closeConnection(afterFlush: Bool)
}

/// One APNs connection's HTTP/2 session, request processor and state machine, without
/// sockets or TLS: plaintext in, answers decided, plaintext out. `APNSConnectionHandler`
/// drives it over TLS; the HTTP/2 tests drive it directly.
///
/// The common request (answered at once, nothing else to change) is recorded and answered in
/// one pass; every other decision goes through `StateMachine`, whose actions are performed
/// here (nghttp2, the store) or handed to the `driver` (timers, closing).
///
/// Not thread-safe: one connection, one event loop.
final class APNSSession {
    let http2: HTTP2ServerSession
    private(set) var processor: APNSRequestProcessor
    private(set) var machine: StateMachine
    private let shared: APNSListenerContext
    private let logger: Logger
    /// Timers and closing; `nil` in tests that need neither.
    weak var driver: (any ConnectionDriver)?
    /// The TLS server name, for `--environment auto`.
    let serverName: String?
    /// Reused for every decision that needs the state machine.
    private var actions: [StateMachine.Action] = []
    private let connectionID: UInt64

    init(
        context: APNSListenerContext, connectionID: UInt64, authentication: AuthenticationMode, serverName: String?,
        logger: Logger
    ) throws {
        shared = context
        self.serverName = serverName
        self.logger = logger
        let limited = context.authStreamLimit && authentication == .token
        http2 = try HTTP2ServerSession(settings: context.settings, initialMaxConcurrentStreams: limited ? 1 : nil)
        processor = APNSRequestProcessor(context: context, connectionID: connectionID, authentication: authentication)
        machine = StateMachine(configuredStreams: context.settings.maxConcurrentStreams, authLimited: limited)
        self.connectionID = connectionID
        let faults = context.faults
        http2.replacesStreamLimitGoAway = {
            faults.active.contains(.behaviors) && faults.isEnabled(.streamLimitGoAway)
        }
        let settings = context.settings
        log(
            "settingsSent",
            [
                ("maxConcurrentStreams", .integer(Int64(limited ? 1 : settings.maxConcurrentStreams))),
                ("headerTableSize", .integer(Int64(settings.headerTableSize))),
                ("initialWindowSize", .integer(Int64(settings.initialWindowSize))),
                ("maxFrameSize", .integer(Int64(settings.maxFrameSize))),
                ("maxHeaderListSize", .integer(Int64(settings.maxHeaderListSize))),
            ])
    }

    private func log(_ kind: String, _ details: [(key: String, value: JSONValue)]) {
        shared.connectionLog.note(connectionID, .init(at: shared.now(), kind: kind, details: details))
    }

    /// Feeds plaintext and answers every request that became ready. Returns `false` on an
    /// HTTP/2 connection error.
    func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let ok = http2.receive(bytes)
        answerReadyRequests()
        if !ok, http2.streamLimitViolated {
            run { machine, actions in machine.streamLimitViolated(into: &actions) }
        }
        noteClosedStreams()
        return ok
    }

    /// Appends what the session wants to send.
    func collectOutput(into output: inout [UInt8]) {
        http2.collectOutput(into: &output)
        noteClosedStreams()
    }

    /// Whether the session still wants to read or write.
    var isActive: Bool { machine.phase != .closed && http2.isActive }

    /// A delay set by `startTimer` has run out.
    func timerFired(streamID: Int32) {
        run { $0.timerFired(streamID: streamID, now: shared.now(), into: &$1) }
    }

    /// The connection closed: waiting streams are recorded as never answered.
    func connectionClosed() {
        run { machine, actions in machine.connectionClosed(into: &actions) }
    }

    /// GOAWAY NO_ERROR with `debugData`; streams already processed are still answered.
    func shutdown(debugData: [UInt8]) {
        run { machine, actions in machine.shutdown(debugData: debugData, into: &actions) }
    }

    /// Runs one state-machine step and performs its actions.
    private func run(_ step: (inout StateMachine, inout [StateMachine.Action]) -> Void) {
        actions.removeAll(keepingCapacity: true)
        step(&machine, &actions)
        perform()
    }

    private func answerReadyRequests() {
        for ready in http2.takeReadyRequests() {
            guard machine.phase != .closed else {
                http2.finishAnswer(ready.request)
                continue
            }
            let now = shared.now()
            let decision = processor.decide(
                ready, serverName: serverName, receivedAt: now, draining: machine.phase == .draining)
            http2.finishAnswer(ready.request)
            logger.debug(
                "request answered",
                metadata: [
                    "apnsmock.stream.id": "\(ready.streamID)", "apnsmock.path": "\(ready.request.path)",
                    "apnsmock.status": "\(decision.answer.status)",
                ])
            if StateMachine.isImmediate(decision), machine.goAwayLastStreamID == nil {
                respond(streamID: decision.streamID, decision.answer)
                continue
            }
            actions.removeAll(keepingCapacity: true)
            machine.requestDecided(
                decision, recordComplete: APNSRequestProcessor.recordsAnswer(decision), now: now, into: &actions)
            if machine.waiting[decision.streamID] != nil { http2.watchClose(decision.streamID) }
            perform()
        }
    }

    /// Streams that closed while waiting for their answer, and the client's GOAWAY and
    /// RST_STREAM frames (for the connection log).
    private func noteClosedStreams() {
        if !http2.peerFrames.isEmpty {
            for frame in http2.takePeerFrames() {
                switch frame {
                case .goAway(let errorCode, let lastStreamID, let debugData):
                    log(
                        "goawayReceived",
                        [
                            ("errorCode", .string(HTTP2ErrorCode(errorCode).description)),
                            ("lastStreamId", .integer(Int64(lastStreamID))),
                            ("debug", .string(String(decoding: debugData, as: UTF8.self))),
                        ])
                case .resetStream(let streamID, let errorCode):
                    log(
                        "streamReset",
                        [
                            ("by", "client"), ("streamId", .integer(Int64(streamID))),
                            ("errorCode", .string(HTTP2ErrorCode(errorCode).description)),
                        ])
                }
            }
        }
        guard http2.hasClosedWatchedStreams else { return }
        for streamID in http2.takeClosedWatchedStreams() {
            run { machine, actions in machine.streamClosed(streamID: streamID, into: &actions) }
        }
    }

    private func respond(streamID: Int32, _ answer: PreparedAnswer) {
        http2.respond(streamID: streamID, status: answer.status, body: answer.body, dataFrames: answer.dataFrames) {
            headers in
            if answer.body != nil { headers.add("content-type", "application/json") }
            headers.add("apns-id", answer.apnsID, neverIndexed: true)
            if let uniqueID = answer.uniqueID { headers.add("apns-unique-id", uniqueID, neverIndexed: true) }
        }
    }

    private func perform() {
        var index = 0
        // Performing may not add actions, but read by index: `actions` is reused.
        while index < actions.count {
            let action = actions[index]
            index += 1
            switch action {
            case .respond(let streamID, let answer):
                respond(streamID: streamID, answer)
            case .completeRecord(let sequence, let response, let outcome):
                shared.store.complete(sequence: sequence, with: response, outcome: outcome)
            case .resetStream(let streamID, let errorCode):
                logger.debug(
                    "RST_STREAM", metadata: ["apnsmock.stream.id": "\(streamID)", "apnsmock.error": "\(errorCode)"])
                http2.resetStream(streamID, errorCode: errorCode)
                log(
                    "streamReset",
                    [
                        ("by", "server"), ("streamId", .integer(Int64(streamID))),
                        ("errorCode", .string(HTTP2ErrorCode(errorCode).description)),
                    ])
            case .goAway(let errorCode, let lastStreamID, let debugData):
                logger.info(
                    "GOAWAY: \(String(decoding: debugData, as: UTF8.self))",
                    metadata: ["apnsmock.error": "\(errorCode)"])
                http2.goAway(errorCode: errorCode, debugData: debugData, lastStreamID: lastStreamID)
                log(
                    "goawaySent",
                    [
                        ("errorCode", .string(HTTP2ErrorCode(errorCode).description)),
                        ("lastStreamId", .integer(Int64(lastStreamID ?? http2.lastProcessedStreamID))),
                        ("debug", .string(String(decoding: debugData, as: UTF8.self))),
                    ])
            case .announceMaxConcurrentStreams(let limit):
                http2.announceMaxConcurrentStreams(limit)
                log("settingsSent", [("maxConcurrentStreams", .integer(Int64(limit)))])
            case .startTimer(let streamID, let milliseconds):
                driver?.startTimer(streamID: streamID, milliseconds: milliseconds)
            case .cancelTimer(let streamID):
                driver?.cancelTimer(streamID: streamID)
            case .close(let afterFlush):
                driver?.closeConnection(afterFlush: afterFlush)
            case .refuseStreamsBeingReceived(let except):
                for streamID in http2.streamsBeingReceived where streamID != except {
                    http2.resetStream(streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue)
                    log(
                        "streamReset",
                        [("by", "server"), ("streamId", .integer(Int64(streamID))), ("errorCode", "REFUSED_STREAM")])
                }
            }
        }
        actions.removeAll(keepingCapacity: true)
    }
}
