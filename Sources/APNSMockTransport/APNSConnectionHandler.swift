import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Logging
import NIOCore

/// One APNs connection on a NIO channel: TLS on memory BIOs, the client preface check, the
/// nghttp2 session, the rules and the record.
///
/// Runs only on its channel's event loop; owns its `TLSConnection` and `HTTP2ServerSession`.
final class APNSConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case handshaking
        /// Waiting for the 24 bytes of the HTTP/2 client preface.
        case awaitingPreface
        case http2
        case closing
    }

    /// The HTTP/2 client connection preface (RFC 9113 §3.4).
    static let clientPreface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    private let shared: APNSListenerContext
    private let connectionID: UInt64
    private var logger: Logger
    private var tls: TLSConnection?
    private var session: APNSSession?
    private var state = State.handshaking
    private var serverName: String?
    private var prefaceBuffer: [UInt8] = []
    private var plaintext: [UInt8] = []
    private var output: [UInt8] = []
    /// HTTP/2 bytes may go out: the client chose h2 by ALPN or sent the HTTP/2 preface. Until
    /// then nothing is sent, so that an HTTP/1.1 client gets a clean HTTP/1.1 answer.
    private var http2OutputAllowed = false

    init(context: APNSListenerContext) {
        shared = context
        connectionID = context.makeConnectionID()
        logger = context.logger
        logger[metadataKey: "apnsmock.connection.id"] = "\(connectionID)"
    }

    func handlerAdded(context: ChannelHandlerContext) {
        do {
            tls = try TLSConnection(context: shared.tls)
        } catch {
            logger.error("cannot set up a connection: \(error)")
            context.close(promise: nil)
        }
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.debug(
            "connection opened", metadata: ["apnsmock.peer": "\(context.remoteAddress.map { "\($0)" } ?? "?")"])
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        logger.debug("connection closed")
        state = .closing
        session = nil
        tls = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        logger.debug("connection error: \(error)")
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let tls, state != .closing else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { tls.receiveCiphertext($0) }
        process(context: context)
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
                flushCiphertext(context: context)
                closeNow(context: context)
                return
            case .handshakeCompleted:
                serverName = tls.serverName
                let alpn = tls.alpnProtocol
                do {
                    session = try APNSSession(
                        context: shared, connectionID: connectionID, authentication: authenticationMode(tls),
                        serverName: serverName, logger: logger)
                } catch {
                    logger.error("cannot set up HTTP/2: \(error)")
                    closeNow(context: context)
                    return
                }
                logger.debug(
                    "TLS established",
                    metadata: [
                        "apnsmock.tls.version": "\(tls.protocolVersion)", "apnsmock.tls.alpn": "\(alpn ?? "none")",
                        "apnsmock.tls.sni": "\(serverName ?? "none")",
                    ])
                state = .awaitingPreface
                if alpn == "h2" {
                    // The client committed to HTTP/2: send our SETTINGS now, as servers do.
                    http2OutputAllowed = true
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
            sendHTTP2Output(context: context)
            if !ok {
                logger.info("HTTP/2 connection error; closing")
                closeNow(context: context)
                return
            }
        } else if state == .http2 || state == .awaitingPreface {
            sendHTTP2Output(context: context)
        }
        if !open || (state == .http2 && !session.isActive) {
            closeNow(context: context)
        }
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
        if looksLikeHTTP1, let tls {
            let text =
                "apns-mock: APNs speaks HTTP/2 only. Connect with an HTTP/2 client (ALPN h2 or HTTP/2 prior knowledge).\n"
            let response =
                "HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-type: text/plain; charset=utf-8\r\n"
                + "content-length: \(text.utf8.count)\r\nconnection: close\r\n\r\n" + text
            Array(response.utf8).withUnsafeBytes { tls.writePlaintext($0) }
            tls.shutdown()
        }
        flushCiphertext(context: context)
        closeNow(context: context)
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
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    private func closeNow(context: ChannelHandlerContext) {
        guard state != .closing else { return }
        state = .closing
        context.close(promise: nil)
    }
}
