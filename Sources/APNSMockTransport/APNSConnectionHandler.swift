import APNSMockCore
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

    private enum State {
        /// Nothing read yet, or too little to tell TLS from cleartext.
        case greeting
        case handshaking
        /// Waiting for the 24 bytes of the HTTP/2 client preface.
        case awaitingPreface
        case http2
        /// A cleartext HTTP/2 client is being answered by `cleartextRefusal`.
        case cleartextHTTP2
        case closing
    }

    /// How long a connection told to use TLS stays open for the client to read the answer.
    static let cleartextLinger = TimeAmount.seconds(2)

    /// The HTTP/2 client connection preface (RFC 9113 §3.4).
    static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private let shared: APNSListenerContext
    private let connectionID: UInt64
    private var logger: Logger
    private var tls: TLSConnection?
    private var session: APNSSession?
    private var state = State.greeting
    /// The first bytes, kept while `ClientGreeting` is `.undecided`.
    private var greetingBytes: [UInt8] = []
    private var cleartextRefusal: CleartextHTTP2Refusal?
    /// Closes a connection told to use TLS that the client has not closed itself.
    private var lingerTimeout: Scheduled<Void>?
    private var serverName: String?
    private var prefaceBuffer: [UInt8] = []
    private var plaintext: [UInt8] = []
    private var output: [UInt8] = []
    /// HTTP/2 bytes may go out: the client chose h2 by ALPN or sent the HTTP/2 preface. Until
    /// then nothing is sent, so that an HTTP/1.1 client gets a clean HTTP/1.1 answer.
    private var http2OutputAllowed = false
    /// The client chose h2 by ALPN: a bad preface is an HTTP/2 connection error, answered
    /// with GOAWAY (RFC 9113 §3.4), not in HTTP/1.1 words.
    private var alpnChoseH2 = false
    /// The context while the handler is in the pipeline, for timers and the registry's calls.
    private var context: ChannelHandlerContext?
    /// Delayed answers' timers, by stream.
    private var timers: [Int32: Scheduled<Void>] = [:]
    /// The last ciphertext write, which a close after flush waits for.
    private var lastWrite: EventLoopFuture<Void>?
    /// When bytes last arrived (`--idle-timeout`), as the event loop's uptime.
    private var lastActivity = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?
    /// Why the server closes the connection, once it does (the connection log's `closed` event
    /// says who closed it and why); `nil` while the client may be the one.
    private var closeReason: String?
    /// The I/O error that ended the connection, if one did.
    private var closeError: String?

    init(context: APNSListenerContext) {
        shared = context
        connectionID = context.makeConnectionID()
        logger = context.logger
        logger[metadataKey: "apnsmock.connection.id"] = "\(connectionID)"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        do {
            tls = try TLSConnection(context: shared.tls)
        } catch {
            logger.error("cannot set up a connection: \(error)")
            closeReason = "cannot set up TLS: \(error)"
            context.close(promise: nil)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.debug("connection opened", metadata: ["apnsmock.peer": "\(Self.peer(context))"])
        if let idleTimeout = shared.idleTimeout { scheduleIdleCheck(after: TimeAmount(idleTimeout), context: context) }
        shared.connectionLog.opened(id: connectionID, peer: Self.peer(context), at: shared.now())
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        logger.debug("connection closed")
        state = .closing
        shared.connectionLog.closed(
            id: connectionID, at: shared.now(), by: closeReason == nil ? "client" : "server",
            reason: closeReason ?? closeError.map { "connection error: \($0)" } ?? "the client closed the connection")
        session?.connectionClosed()
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        session = nil
        tls = nil
        cleartextRefusal = nil
        lingerTimeout?.cancel()
        lingerTimeout = nil
        idleCheck?.cancel()
        idleCheck = nil
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
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if shared.idleTimeout != nil { lastActivity = .now() }
        switch state {
        case .closing:
            return
        case .cleartextHTTP2:
            buffer.withUnsafeReadableBytes { answerCleartextHTTP2($0.bindMemory(to: UInt8.self), context: context) }
            return
        case .greeting:
            if greetingBytes.isEmpty, buffer.readableBytesView.first == ClientGreeting.tlsHandshakeRecord {
                // The usual case, decided by the first byte without copying.
                state = .handshaking
                if shared.faults.tlsRefusals > 0, shared.faults.takeTLSRefusal() {
                    log("handshakeFailed", [("error", "refused by the refuse-tls mode")])
                    logger.info("TLS handshake refused (refuse-tls mode)")
                    closeNow(context: context, reason: "refuse-tls mode")
                    return
                }
            } else {
                greetingBytes.append(contentsOf: buffer.readableBytesView)
                greet(context: context)
                return
            }
        case .handshaking, .awaitingPreface, .http2:
            break
        }
        guard let tls else { return }
        buffer.withUnsafeReadableBytes { tls.receiveCiphertext($0) }
        process(context: context)
    }

    /// Decides from `greetingBytes` whether the client speaks TLS, and answers one that does not.
    private func greet(context: ChannelHandlerContext) {
        let greeting = ClientGreeting(greetingBytes)
        switch greeting {
        case .undecided:
            return
        case .tls:
            state = .handshaking
            if let tls { greetingBytes.withUnsafeBytes { tls.receiveCiphertext($0) } }
            greetingBytes = []
            process(context: context)
        case .plaintext:
            logger.notice(
                "cleartext request on the TLS port (an http:// URL?); answered 400: use https://",
                metadata: ["apnsmock.peer": "\(Self.peer(context))"])
            greetingBytes = []
            sendCleartextAndClose(
                PlainTextResponse.tlsRequired.bytes, reason: "cleartext request on the TLS port", context: context)
        case .cleartextHTTP2:
            logger.notice(
                "cleartext HTTP/2 (h2c) on the TLS port; answered 400: use https://",
                metadata: ["apnsmock.peer": "\(Self.peer(context))"])
            do {
                cleartextRefusal = try CleartextHTTP2Refusal(settings: shared.settings)
            } catch {
                logger.error("cannot set up HTTP/2: \(error)")
                closeNow(context: context, reason: "cannot set up HTTP/2: \(error)")
                return
            }
            state = .cleartextHTTP2
            let rest = Array(greetingBytes.dropFirst(Self.clientPreface.count))
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
            sendCleartextAndClose(output, reason: "cleartext HTTP/2 (h2c) on the TLS port", context: context)
        } else if !output.isEmpty {
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: output)), promise: nil)
        }
    }

    /// Sends `bytes` as they are (no TLS) and closes: the sending side first, once they are
    /// written, so that the client reads them even if it is still sending (closing a socket
    /// with unread input would reset the connection); the rest when the client closes, or
    /// after `cleartextLinger`. What the client sends meanwhile is dropped.
    private func sendCleartextAndClose(_ bytes: [UInt8], reason: String, context: ChannelHandlerContext) {
        state = .closing
        closeReason = closeReason ?? reason
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: promise)
        let channel = context.channel
        promise.futureResult.whenComplete { _ in channel.close(mode: .output, promise: nil) }
        lingerTimeout = context.eventLoop.scheduleTask(in: Self.cleartextLinger) { channel.close(promise: nil) }
    }

    private func process(context: ChannelHandlerContext) {
        guard let tls else { return }
        if state == .handshaking {
            switch tls.driveHandshake() {
            case .needMoreData:
                flushCiphertext(context: context)
                return
            case .failed(let message):
                if tls.refusedForALPN {
                    logger.notice(
                        "TLS handshake refused: the client offered ALPN without h2 (APNs speaks HTTP/2 only)",
                        metadata: ["apnsmock.tls.error": "\(message)"])
                } else {
                    logger.info("TLS handshake failed", metadata: ["apnsmock.tls.error": "\(message)"])
                }
                log(
                    "handshakeFailed",
                    [("error", .string(message)), ("alpnRefused", .bool(tls.refusedForALPN))])
                flushCiphertext(context: context)
                closeNow(context: context, reason: "TLS handshake failed: \(message)")
                return
            case .handshakeCompleted:
                serverName = tls.serverName
                let alpn = tls.alpnProtocol
                let authentication = authenticationMode(tls)
                do {
                    session = try APNSSession(
                        context: shared, connectionID: connectionID, authentication: authentication,
                        serverName: serverName, logger: logger)
                    session?.driver = self
                } catch {
                    logger.error("cannot set up HTTP/2: \(error)")
                    closeNow(context: context, reason: "cannot set up HTTP/2: \(error)")
                    return
                }
                logger.debug(
                    "TLS established",
                    metadata: [
                        "apnsmock.tls.version": "\(tls.protocolVersion)", "apnsmock.tls.alpn": "\(alpn ?? "none")",
                        "apnsmock.tls.sni": "\(serverName ?? "none")",
                    ])
                var details: [(key: String, value: JSONValue)] = [
                    ("tlsVersion", .string(tls.protocolVersion)), ("alpn", alpn.map { .string($0) } ?? .null),
                    ("serverName", serverName.map { .string($0) } ?? .null),
                ]
                if let peer = tls.peerCertificate, case .certificate(let identity) = authentication {
                    details.append(("clientCertificate", .string(identity.subject)))
                    details.append(("clientCertificateTrusted", .bool(peer.verificationError == nil)))
                }
                log("handshake", details)
                state = .awaitingPreface
                if alpn == "h2" {
                    // The client committed to HTTP/2: send our SETTINGS now, as servers do.
                    http2OutputAllowed = true
                    alpnChoseH2 = true
                    sendHTTP2Output(context: context)
                } else {
                    flushCiphertext(context: context)
                }
            }
        }
        guard let session else { return }
        plaintext.removeAll(keepingCapacity: true)
        let open = tls.readPlaintext(into: &plaintext)
        var bytes = plaintext[...]
        if state == .awaitingPreface, !bytes.isEmpty {
            let needed = Self.clientPreface.count - prefaceBuffer.count
            prefaceBuffer.append(contentsOf: bytes.prefix(needed))
            bytes = bytes.dropFirst(needed)
            if !Self.clientPreface.starts(with: prefaceBuffer) {
                refuseNonHTTP2(context: context)
                return
            }
            if prefaceBuffer.count == Self.clientPreface.count {
                state = .http2
                http2OutputAllowed = true
            }
        }
        if state == .http2, !bytes.isEmpty {
            let ok = bytes.withUnsafeBufferPointer { session.receive($0) }
            guard state != .closing else { return }
            sendHTTP2Output(context: context)
            if !ok {
                logger.info("HTTP/2 connection error; closing")
                closeAfterFlush(context: context, reason: "HTTP/2 connection error")
                return
            }
        } else if state == .http2 || state == .awaitingPreface {
            sendHTTP2Output(context: context)
        }
        if !open {
            // The client closed TLS (close_notify) or TCP.
            closeNow(context: context, reason: nil)
        } else if state == .http2 && !session.isActive {
            closeAfterFlush(context: context, reason: "HTTP/2 session ended")
        }
    }

    private func log(_ kind: String, _ details: [(key: String, value: JSONValue)]) {
        shared.connectionLog.note(connectionID, .init(at: shared.now(), kind: kind, details: details))
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

    /// The bytes after TLS are not the HTTP/2 preface: answer an HTTP/1.x request in words.
    private func refuseNonHTTP2(context: ChannelHandlerContext) {
        // An HTTP/1.x request line starts with a method token: upper-case letters, then a space.
        let method = prefaceBuffer.prefix { $0 != UInt8(ascii: " ") }
        let looksLikeHTTP1 = !method.isEmpty && method.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
        logger.notice(
            "client did not send the HTTP/2 preface\(looksLikeHTTP1 ? " (it spoke HTTP/1.x)" : ""); closing")
        if alpnChoseH2, let session {
            // The client chose h2 by ALPN: its bad preface is a connection error (RFC 9113 §3.4).
            session.refuseBadPreface()
            sendHTTP2Output(context: context)
            closeAfterFlush(context: context, reason: "invalid connection preface")
            return
        }
        if looksLikeHTTP1, let tls {
            PlainTextResponse.http2Only.bytes.withUnsafeBytes { tls.writePlaintext($0) }
            tls.shutdown()
        }
        flushCiphertext(context: context)
        closeNow(context: context, reason: "no HTTP/2 client preface")
    }

    private func sendHTTP2Output(context: ChannelHandlerContext) {
        guard let session, let tls else { return }
        guard http2OutputAllowed else {
            flushCiphertext(context: context)
            return
        }
        output.removeAll(keepingCapacity: true)
        session.collectOutput(into: &output)
        if !output.isEmpty { output.withUnsafeBytes { tls.writePlaintext($0) } }
        flushCiphertext(context: context)
    }

    private func flushCiphertext(context: ChannelHandlerContext) {
        guard let tls, tls.pendingCiphertext > 0 else { return }
        var buffer = context.channel.allocator.buffer(capacity: tls.pendingCiphertext)
        tls.drainCiphertext { buffer.writeBytes($0) }
        lastWrite = context.writeAndFlush(wrapOutboundOut(buffer))
    }

    /// Closes once the last write has gone out (or failed); `reason` says why the server closes.
    private func closeAfterFlush(context: ChannelHandlerContext, reason: String) {
        guard state != .closing else { return }
        state = .closing
        closeReason = closeReason ?? reason
        let channel = context.channel
        if let lastWrite {
            lastWrite.whenComplete { _ in channel.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    // MARK: called by the registry and timers, on the event loop

    /// Graceful end: GOAWAY NO_ERROR with `debugData`, answer what it covers, then close. A
    /// connection not yet speaking HTTP/2 is closed.
    func shutdown(debugData: [UInt8]) {
        guard let context, state != .closing else { return }
        guard let session, state == .http2 || state == .awaitingPreface else {
            closeNow(context: context, reason: "shutdown before HTTP/2")
            return
        }
        session.shutdown(debugData: debugData)
        afterSessionStep(context: context)
    }

    /// Every `idleTimeout`: a connection that received nothing for that long and has no
    /// stream waiting gets GOAWAY `{"reason":"IdleTimeout"}` and closes.
    private func scheduleIdleCheck(after delay: TimeAmount, context: ChannelHandlerContext) {
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.scheduleTask(in: delay) { bound.value.checkIdle() }
    }

    private func checkIdle() {
        guard let context, let idleTimeout = shared.idleTimeout, state != .closing else { return }
        let limit = TimeAmount(idleTimeout)
        let idle = NIODeadline.now() - lastActivity
        if idle >= limit, endIdleConnection() {
            logger.info("idle timeout: GOAWAY IdleTimeout")
            closeReason = "idle timeout"
        } else {
            scheduleIdleCheck(after: idle >= limit ? limit : limit - idle, context: context)
        }
    }

    /// The idle timeout ran out: a connection not yet speaking HTTP/2 closes; a session ends
    /// with GOAWAY IdleTimeout unless a stream waits or is being received. Whether it ended.
    private func endIdleConnection() -> Bool {
        guard let context else { return false }
        guard let session, state == .http2 || state == .awaitingPreface else {
            closeNow(context: context, reason: "idle timeout")
            return true
        }
        guard session.idleTimeoutElapsed(debugData: APNSErrorBody.encode(reason: APNSReason("IdleTimeout"))) else {
            return false
        }
        afterSessionStep(context: context)
        return true
    }

    private func timerFired(streamID: Int32) {
        timers[streamID] = nil
        guard let context, let session, state != .closing else { return }
        session.timerFired(streamID: streamID)
        afterSessionStep(context: context)
    }

    /// Sends what a session step queued, and closes when the session is done.
    private func afterSessionStep(context: ChannelHandlerContext) {
        guard let session, state != .closing else { return }
        sendHTTP2Output(context: context)
        if !session.isActive { closeAfterFlush(context: context, reason: "HTTP/2 session ended") }
    }

    /// Closes at once; `reason` says why the server closes (`nil`: the client closed).
    private func closeNow(context: ChannelHandlerContext, reason: String?) {
        guard state != .closing else { return }
        state = .closing
        if let reason { closeReason = closeReason ?? reason }
        context.close(promise: nil)
    }

    /// The connection is about to be closed from outside the handler (the admin API, the end
    /// of a shutdown's grace), for the connection log.
    func noteClosing(reason: String) {
        closeReason = closeReason ?? reason
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

    func closeConnection(afterFlush: Bool) {
        guard let context else { return }
        if afterFlush {
            // Called from a session step: queue what it produced first.
            sendHTTP2Output(context: context)
            closeAfterFlush(context: context, reason: "the mock ended the connection (see the GOAWAY or fault rule)")
        } else {
            closeNow(context: context, reason: "a fault rule closed the connection")
        }
    }
}
