import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import Logging
import NIOCore

/// One APNs connection on a NIO channel: TLS on memory BIOs, the client preface check, the
/// nghttp2 session, the rules and the record.
///
/// A client that speaks cleartext to the port (an `http://` URL, or h2c) is told in words to
/// use `https://` (see `ClientGreeting`), logged once, and disconnected.
///
/// Runs only on its channel's event loop; owns its `TLSConnection` and `HTTP2ServerSession`.
final class APNSConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a connection told to use TLS stays open for the client to read the answer.
    static let cleartextLinger = TimeAmount.seconds(2)

    private let shared: APNSListenerContext
    private let connectionID: UInt64
    private var logger: Logger
    private var tls: TLSConnection?
    /// The connection's logic: its state machine (where it is, from greeting to close, and
    /// why it closed) and its HTTP/2 session. Set when the handler is added.
    private var session: APNSSession?
    /// The first bytes, kept while `ClientGreeting` is `.undecided`.
    private var greetingBytes: [UInt8] = []
    private var cleartextRefusal: CleartextHTTP2Refusal?
    /// Closes a connection told to use TLS that the client has not closed itself.
    private var lingerTimeout: Scheduled<Void>?
    private var plaintext: [UInt8] = []
    private var output: [UInt8] = []
    /// The context while the handler is in the pipeline, for timers and the registry's calls.
    private var context: ChannelHandlerContext?
    /// Delayed answers' timers, by stream.
    private var timers: [Int32: Scheduled<Void>] = [:]
    /// The last ciphertext write, which a close after flush waits for.
    private var lastWrite: EventLoopFuture<Void>?
    /// With `--journal`: ciphertext held until the journal has written the records its answers
    /// are for (`target`: how many records had been handed over), oldest first. The event loop
    /// goes on serving other connections meanwhile.
    private var heldForJournal: [(target: UInt64, bytes: ByteBuffer)] = []
    /// Gives up holding after the journal's `maximumWait` (it is then `behind`).
    private var journalGiveUp: Scheduled<Void>?
    /// A close after flush asked for while bytes were held: done once they are written.
    private var closeAfterHeld = false
    /// When bytes last arrived (`--idle-timeout`), as the event loop's uptime.
    private var lastActivity = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?
    /// Closes the connection if it has not reached HTTP/2 in time (`--handshake-timeout`).
    private var handshakeCheck: Scheduled<Void>?
    /// The I/O error that ended the connection, if one did.
    private var closeError: String?
    /// Why the connection could not be set up, if it could not.
    private var setupError: String?
    /// The channel is being closed: nothing more is read or written.
    private var channelClosing = false

    private let service: APNSService

    /// The listener's own TLS context, when it has one (Web Push); else the shared one.
    private let listenerTLS: TLSServerContext?

    init(context: APNSListenerContext, service: APNSService = .push, tls: TLSServerContext? = nil) {
        shared = context
        self.service = service
        listenerTLS = tls
        connectionID = context.makeConnectionID()
        logger = context.logger
        logger[metadataKey: "apnsmock.connection.id"] = "\(connectionID)"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        do {
            tls = try TLSConnection(context: listenerTLS ?? shared.tls)
            session = try APNSSession(context: shared, connectionID: connectionID, service: service, logger: logger)
            session?.driver = self
        } catch {
            logger.error("cannot set up a connection: \(error)")
            setupError = "\(error)"
            session = nil
            channelClosing = true
            context.close(promise: nil)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.debug("connection opened", metadata: ["apnsmock.peer": "\(Self.peer(context))"])
        if let idleTimeout = shared.idleTimeout { scheduleIdleCheck(after: TimeAmount(idleTimeout), context: context) }
        if let handshakeTimeout = shared.handshakeTimeout {
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            handshakeCheck = context.eventLoop.scheduleTask(in: TimeAmount(handshakeTimeout)) {
                bound.value.checkHandshake()
            }
        }
        shared.connectionLog.opened(id: connectionID, peer: Self.peer(context), at: shared.now())
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        logger.debug("connection closed")
        channelClosing = true
        let reason = session?.connectionClosed(error: closeError) ?? .cannotSetUp(setupError ?? "unknown error")
        shared.connectionLog.closed(id: connectionID, at: shared.now(), by: reason.by, reason: reason.description)
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        journalGiveUp?.cancel()
        journalGiveUp = nil
        heldForJournal.removeAll()
        session = nil
        tls = nil
        cleartextRefusal = nil
        lingerTimeout?.cancel()
        lingerTimeout = nil
        idleCheck?.cancel()
        idleCheck = nil
        handshakeCheck?.cancel()
        handshakeCheck = nil
        context.fireChannelInactive()
    }

    /// `127.0.0.1:54321`, `[::1]:54321`.
    private static func peer(_ context: ChannelHandlerContext) -> String {
        guard let address = context.remoteAddress else { return "?" }
        guard let ip = address.ipAddress, let port = address.port else { return "\(address)" }
        return ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error: \(error)")
        closeError = "\(error)"
        performClose(afterFlush: false)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let session, !channelClosing else { return }
        let buffer = unwrapInboundIn(data)
        if shared.idleTimeout != nil { lastActivity = .now() }
        switch session.bytesArrived() {
        case .ignored:
            return
        case .cleartextHTTP2:
            buffer.withUnsafeReadableBytes { answerCleartextHTTP2($0.bindMemory(to: UInt8.self), context: context) }
            return
        case .greeting:
            if greetingBytes.isEmpty, buffer.readableBytesView.first == ClientGreeting.tlsHandshakeRecord {
                // The usual case, decided by the first byte without copying.
                let refused = refusesHandshake()
                if session.greetingReceived(.tls, tlsRefused: refused) == .refuseTLS {
                    shared.metrics.handshake(.refused)
                    log(.handshakeFailed(error: "refused by the refuse-tls mode", alpnRefused: nil))
                    logger.info("TLS handshake refused (refuse-tls mode)")
                    performClose(afterFlush: false)
                    return
                }
            } else {
                greetingBytes.append(contentsOf: buffer.readableBytesView)
                greet(session, context: context)
                return
            }
        case .handshake, .tls:
            break
        }
        guard let tls else { return }
        buffer.withUnsafeReadableBytes { tls.receiveCiphertext($0) }
        process(context: context)
    }

    /// Whether this connection's TLS handshake fails (the refuse-tls mode): the policy says so
    /// and one of the mode's refusals is claimed.
    private func refusesHandshake() -> Bool {
        let faults = shared.faults
        return faults.active.contains(.refuseTLS) && FaultPolicy.refusesHandshake(faults.snapshot)
            && faults.claimTLSRefusal()
    }

    /// Decides from `greetingBytes` whether the client speaks TLS, and answers one that does not.
    private func greet(_ session: APNSSession, context: ChannelHandlerContext) {
        let greeting = ClientGreeting(greetingBytes)
        let refused = greeting == .tls && refusesHandshake()
        switch session.greetingReceived(greeting, tlsRefused: refused) {
        case .readMore:
            return
        case .startTLS:
            if let tls { greetingBytes.withUnsafeBytes { tls.receiveCiphertext($0) } }
            greetingBytes = []
            process(context: context)
        case .refuseTLS:
            shared.metrics.handshake(.refused)
            log(.handshakeFailed(error: "refused by the refuse-tls mode", alpnRefused: nil))
            logger.info("TLS handshake refused (refuse-tls mode)")
            greetingBytes = []
            performClose(afterFlush: false)
        case .answerCleartextRequest:
            logger.notice(
                "cleartext request on the TLS port (an http:// URL?); answered 400: use https://",
                metadata: ["apnsmock.peer": "\(Self.peer(context))"])
            greetingBytes = []
            sendCleartextAndClose(PlainTextResponse.tlsRequired(on: service).bytes, context: context)
        case .refuseCleartextHTTP2:
            logger.notice(
                "cleartext HTTP/2 (h2c) on the TLS port; answered 400: use https://",
                metadata: ["apnsmock.peer": "\(Self.peer(context))"])
            do {
                cleartextRefusal = try CleartextHTTP2Refusal(settings: shared.settings, service: service)
            } catch {
                logger.error("cannot set up HTTP/2: \(error)")
                close(.cannotSetUp("\(error)"), afterFlush: false)
                return
            }
            let rest = Array(greetingBytes.dropFirst(ClientGreeting.http2Preface.count))
            greetingBytes = []
            rest.withUnsafeBufferPointer { answerCleartextHTTP2($0, context: context) }
        }
    }

    /// Feeds a cleartext HTTP/2 client's bytes (after the preface) to its refusal and sends
    /// what it answers.
    private func answerCleartextHTTP2(_ bytes: UnsafeBufferPointer<UInt8>, context: ChannelHandlerContext) {
        guard let cleartextRefusal else { return }
        output.removeAll(keepingCapacity: true)
        cleartextRefusal.receive(bytes, output: &output)
        if cleartextRefusal.finished {
            if session?.close(.cleartextHTTP2) ?? true { sendCleartextAndClose(output, context: context) }
        } else if !output.isEmpty {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: output)), promise: nil)
        }
    }

    /// Sends `bytes` as they are (no TLS) and closes: the sending side first, once they are
    /// written, so that the client reads them even if it is still sending (closing a socket
    /// with unread input would reset the connection); the rest when the client closes, or
    /// after `cleartextLinger`. What the client sends meanwhile is dropped.
    private func sendCleartextAndClose(_ bytes: [UInt8], context: ChannelHandlerContext) {
        channelClosing = true
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: promise)
        let channel = context.channel
        promise.futureResult.whenComplete { _ in channel.close(mode: .output, promise: nil) }
        lingerTimeout = context.eventLoop.scheduleTask(in: Self.cleartextLinger) { channel.close(promise: nil) }
    }

    private func process(context: ChannelHandlerContext) {
        guard let tls, let session else { return }
        if session.bytesArrived() == .handshake {
            switch tls.driveHandshake() {
            case .needMoreData:
                flushCiphertext(context: context)
                return
            case .failed(let message):
                shared.metrics.handshake(tls.refusedForALPN ? .alpnRefused : .failed)
                if tls.refusedForALPN {
                    logger.notice(
                        "TLS handshake refused: the client offered ALPN without h2 (APNs speaks HTTP/2 only)",
                        metadata: ["apnsmock.tls.error": "\(message)"])
                } else {
                    logger.info("TLS handshake failed", metadata: ["apnsmock.tls.error": "\(message)"])
                }
                log(.handshakeFailed(error: message, alpnRefused: tls.refusedForALPN))
                flushCiphertext(context: context)
                close(.handshakeFailed(message), afterFlush: false)
                return
            case .handshakeCompleted:
                handshakeCompleted(tls, session, context: context)
            }
        }
        plaintext.removeAll(keepingCapacity: true)
        let open = tls.readPlaintext(into: &plaintext)
        if !plaintext.isEmpty {
            let received = plaintext.withUnsafeBufferPointer { session.receive($0) }
            switch received {
            case .read:
                sendHTTP2Output(context: context)
            case .readThenClose(let close):
                // A close decided in the read (a fault rule, a connection error).
                afterSessionStep(context: context, close: close)
                return
            case .refused(let refusal):
                refuseNonHTTP2(refusal, context: context)
                return
            case .ignored:
                return
            }
        } else {
            sendHTTP2Output(context: context)
        }
        if !open {
            // The client closed TLS (close_notify) or TCP.
            close(.clientClosed, afterFlush: false)
        } else if session.stepEnded() == .closeAfterFlush {
            performClose(afterFlush: true)
        }
    }

    /// TLS is up: the session learns the authentication mode and ALPN, and queues SETTINGS.
    private func handshakeCompleted(_ tls: TLSConnection, _ session: APNSSession, context: ChannelHandlerContext) {
        shared.metrics.handshake(.completed)
        let serverName = tls.serverName
        let alpn = tls.alpnProtocol
        let authentication = authenticationMode(tls)
        logger.debug(
            "TLS established",
            metadata: [
                "apnsmock.tls.version": "\(tls.protocolVersion)", "apnsmock.tls.alpn": "\(alpn ?? "none")",
                "apnsmock.tls.sni": "\(serverName ?? "none")",
            ])
        var clientCertificate: (subject: String, trusted: Bool)?
        if let peer = tls.peerCertificate, case .certificate(let identity) = authentication {
            clientCertificate = (identity.subject, peer.verificationError == nil)
        }
        log(
            .handshake(
                .init(
                    tlsVersion: tls.protocolVersion, alpn: alpn, serverName: serverName,
                    clientCertificate: clientCertificate)))
        // ALPN h2: the client committed to HTTP/2, so our SETTINGS go out now, as servers do.
        session.handshakeCompleted(authentication: authentication, alpn: alpn, serverName: serverName)
        sendHTTP2Output(context: context)
    }

    private func log(_ event: ConnectionEvent) {
        shared.connectionLog.note(connectionID, at: shared.now(), event)
    }

    /// Token authentication, or the client certificate's identity and verdict.
    private func authenticationMode(_ tls: TLSConnection) -> AuthenticationMode {
        guard let peer = tls.peerCertificate else { return .token }
        let identity: CertificateIdentity
        do {
            let certificate = try ProviderCertificate(derEncoded: peer.der)
            identity = CertificateIdentity(
                subject: certificate.subject, topics: certificate.topics, bundleID: certificate.bundleID,
                environment: certificate.environmentScope, verificationError: peer.verificationError)
        } catch {
            identity = CertificateIdentity(
                subject: "unreadable certificate", topics: [], bundleID: nil, environment: .both,
                verificationError: "\(error)")
        }
        logger.debug(
            "client certificate",
            metadata: [
                "apnsmock.cert.subject": "\(identity.subject)", "apnsmock.cert.topics": "\(identity.topics)",
                "apnsmock.cert.verification": "\(identity.verificationError ?? "trusted")",
            ])
        return .certificate(identity)
    }

    /// The bytes after TLS are not the HTTP/2 preface: a GOAWAY for a client that chose h2 by
    /// ALPN (queued by the session), words for an HTTP/1.x request, else a close.
    private func refuseNonHTTP2(_ refusal: ConnectionStateMachine.PrefaceRefusal, context: ChannelHandlerContext) {
        logger.notice(
            "client did not send the HTTP/2 preface\(refusal == .answerHTTP1 ? " (it spoke HTTP/1.x)" : ""); closing")
        switch refusal {
        case .goAway:
            sendHTTP2Output(context: context)
            performClose(afterFlush: true)
        case .answerHTTP1:
            if let tls {
                PlainTextResponse.http2Only.bytes.withUnsafeBytes { tls.writePlaintext($0) }
                tls.shutdown()
            }
            flushCiphertext(context: context)
            performClose(afterFlush: false)
        case .close:
            flushCiphertext(context: context)
            performClose(afterFlush: false)
        }
    }

    private func sendHTTP2Output(context: ChannelHandlerContext) {
        guard let session, let tls else { return }
        output.removeAll(keepingCapacity: true)
        if session.collectOutput(into: &output), !output.isEmpty { output.withUnsafeBytes { tls.writePlaintext($0) } }
        flushCiphertext(context: context)
    }

    private func flushCiphertext(context: ChannelHandlerContext) {
        guard let tls, tls.pendingCiphertext > 0 else { return }
        var buffer = context.channel.allocator.buffer(capacity: tls.pendingCiphertext)
        tls.drainCiphertext { buffer.writeBytes($0) }
        // With a journal, answers go out once their records are written (usually at once);
        // until then they are held, behind any bytes held before them.
        if let sink = shared.store.sink {
            let target = sink.handedOverCount
            if !heldForJournal.isEmpty || !sink.isSettled(upTo: target) {
                heldForJournal.append((target, buffer))
                if heldForJournal.count == 1 { waitForJournal(sink, upTo: target, context: context) }
                return
            }
        }
        lastWrite = context.writeAndFlush(wrapOutboundOut(buffer))
    }

    /// Asks the journal to call back once `target` records are written, and starts the
    /// give-up timer if none runs.
    private func waitForJournal(_ sink: any DeliveryRecordSink, upTo target: UInt64, context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        sink.whenSettled(upTo: target) { eventLoop.execute { bound.value.releaseHeldForJournal(givingUp: false) } }
        if journalGiveUp == nil {
            journalGiveUp = eventLoop.scheduleTask(in: TimeAmount(sink.maximumWait)) {
                bound.value.releaseHeldForJournal(givingUp: true)
            }
        }
    }

    /// Writes the held bytes whose records are written (all of them when `givingUp`: the
    /// journal could not keep up and is `behind`), in order; waits again for the rest; closes
    /// if a close after flush was asked for meanwhile.
    private func releaseHeldForJournal(givingUp: Bool) {
        guard let context, let sink = shared.store.sink, !heldForJournal.isEmpty else { return }
        if givingUp {
            journalGiveUp = nil
            sink.gaveUpWaiting()
        }
        var wrote = 0
        for held in heldForJournal {
            guard sink.isSettled(upTo: held.target) else { break }
            lastWrite = context.write(wrapOutboundOut(held.bytes))
            wrote += 1
        }
        guard wrote > 0 else { return }
        heldForJournal.removeFirst(wrote)
        context.flush()
        if let next = heldForJournal.first {
            waitForJournal(sink, upTo: next.target, context: context)
            return
        }
        journalGiveUp?.cancel()
        journalGiveUp = nil
        if closeAfterHeld {
            closeAfterHeld = false
            closeChannel(afterFlush: true, context: context)
        }
    }

    /// Closes for `reason` (the session's machine keeps it for the connection log), unless the
    /// connection is already closing.
    private func close(_ reason: CloseReason, afterFlush: Bool) {
        guard session?.close(reason) ?? true else { return }
        performClose(afterFlush: afterFlush)
    }

    /// Closes the channel: once the last write has gone out (or failed), or at once.
    ///
    /// After a flush (a GOAWAY is usually the last thing written) the close lingers: the sending
    /// side is shut (the client reads the GOAWAY, then the end of the stream) while what the
    /// client still sends is read and dropped, until it closes or `lingerAfterFlush` passes. A
    /// socket closed with unread bytes in it answers with a reset, and the client's system may
    /// drop the GOAWAY that had not been read yet.
    private func performClose(afterFlush: Bool) {
        guard let context, !channelClosing else { return }
        channelClosing = true
        if afterFlush, !heldForJournal.isEmpty {
            // Answers held for the journal go out first.
            closeAfterHeld = true
            return
        }
        closeChannel(afterFlush: afterFlush, context: context)
    }

    private func closeChannel(afterFlush: Bool, context: ChannelHandlerContext) {
        if afterFlush, let lastWrite {
            let channel = context.channel
            let eventLoop = context.eventLoop
            lastWrite.whenComplete { _ in
                channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
                eventLoop.scheduleTask(in: Self.lingerAfterFlush) { channel.close(promise: nil) }
            }
        } else {
            context.close(promise: nil)
        }
    }

    /// How long a connection closed after a flush goes on reading before it closes for good.
    static let lingerAfterFlush = TimeAmount.seconds(1)

    // MARK: called by the registry and timers, on the event loop

    /// Graceful end: GOAWAY NO_ERROR with `debugData`, answer what it covers, then close. A
    /// connection not yet speaking HTTP/2 is closed.
    func shutdown(debugData: [UInt8]) {
        guard let context, let session, !channelClosing else { return }
        afterSessionStep(context: context, close: session.shutdown(debugData: debugData))
    }

    /// Every `idleTimeout`: a connection that received nothing for that long and has no
    /// stream waiting gets GOAWAY `{"reason":"IdleTimeout"}` and closes.
    private func scheduleIdleCheck(after delay: TimeAmount, context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(in: delay) { bound.value.checkIdle() }
    }

    /// `--handshake-timeout` ran out: a connection still greeting, in its TLS handshake or
    /// before the HTTP/2 preface is closed (a slow or half-open handshake holds nothing longer).
    private func checkHandshake() {
        handshakeCheck = nil
        guard let context, let session, !channelClosing else { return }
        if let close = session.handshakeTimeoutElapsed() {
            logger.notice("handshake timeout: closed before TLS and HTTP/2 were set up")
            afterSessionStep(context: context, close: close)
        }
    }

    private func checkIdle() {
        guard let context, let session, let idleTimeout = shared.idleTimeout, !channelClosing else { return }
        let limit = TimeAmount(idleTimeout)
        let idle = NIODeadline.now() - lastActivity
        let outcome =
            idle >= limit
            ? session.idleTimeoutElapsed(debugData: APNSErrorBody.encode(reason: APNSReason("IdleTimeout")))
            : (ended: false, close: nil)
        if outcome.ended {
            logger.info("idle timeout: GOAWAY IdleTimeout")
            afterSessionStep(context: context, close: outcome.close)
        } else {
            scheduleIdleCheck(after: idle >= limit ? limit : limit - idle, context: context)
        }
    }

    private func timerFired(streamID: Int32) {
        timers[streamID] = nil
        guard let context, let session, !channelClosing else { return }
        afterSessionStep(context: context, close: session.timerFired(streamID: streamID))
    }

    /// Does what a session step asked: close at once (what it queued is dropped), or send what
    /// it queued and then close; else send it, and close when the HTTP/2 session is done.
    private func afterSessionStep(context: ChannelHandlerContext, close: APNSSession.StepClose?) {
        guard let session, !channelClosing else { return }
        if close == .now {
            performClose(afterFlush: false)
            return
        }
        sendHTTP2Output(context: context)
        if close == .afterFlush || session.stepEnded() == .closeAfterFlush { performClose(afterFlush: true) }
    }

    /// The connection is about to be closed from outside the handler (the admin API, the end
    /// of a shutdown's grace): the machine keeps why, for the connection log.
    func noteClosing(_ reason: CloseReason) {
        _ = session?.close(reason)
    }
}

extension APNSConnectionHandler: ConnectionDriver {
    func startTimer(streamID: Int32, milliseconds: Int64) {
        guard let context else { return }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        timers[streamID] = context.eventLoop.scheduleTask(in: .milliseconds(milliseconds)) {
            bound.value.timerFired(streamID: streamID)
        }
    }

    func cancelTimer(streamID: Int32) {
        timers.removeValue(forKey: streamID)?.cancel()
    }

}
