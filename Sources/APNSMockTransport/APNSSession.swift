import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Logging

/// One APNs connection's HTTP/2 session and its request processor, without sockets or TLS:
/// plaintext in, answers decided, plaintext out. `APNSConnectionHandler` drives it over TLS;
/// the HTTP/2 tests drive it directly.
///
/// Not thread-safe: one connection, one event loop.
final class APNSSession {
    let http2: HTTP2ServerSession
    private(set) var processor: APNSRequestProcessor
    private let shared: APNSListenerContext
    private let logger: Logger
    /// The TLS server name, for `--environment auto`.
    let serverName: String?
    /// A GOAWAY that ends the connection was queued: close once it is sent.
    private(set) var closeAfterFlush = false

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
    }

    /// Feeds plaintext and answers every request that became ready. Returns `false` on an
    /// HTTP/2 connection error.
    func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let ok = http2.receive(bytes)
        answerReadyRequests()
        return ok
    }

    /// Appends what the session wants to send.
    func collectOutput(into output: inout [UInt8]) { http2.collectOutput(into: &output) }

    /// Whether the session still wants to read or write.
    var isActive: Bool { !closeAfterFlush && http2.isActive }

    private func answerReadyRequests() {
        for ready in http2.takeReadyRequests() {
            if closeAfterFlush {
                http2.finishAnswer(ready.request)
                continue
            }
            let answer = processor.answer(ready, serverName: serverName, receivedAt: shared.now())
            logger.debug(
                "request answered",
                metadata: [
                    "apnsmock.stream.id": "\(ready.streamID)", "apnsmock.path": "\(ready.request.path)",
                    "apnsmock.status": "\(answer.status)",
                ])
            if let debugData = answer.goAwayDebugData {
                // As APNs has been seen to do for a certificate of the other environment.
                logger.info("GOAWAY: \(String(decoding: debugData, as: UTF8.self))")
                http2.goAway(errorCode: HTTP2ServerSession.noError, debugData: debugData, lastStreamID: 0)
                http2.finishAnswer(ready.request)
                closeAfterFlush = true
                break
            }
            http2.respond(streamID: ready.streamID, status: answer.status, body: answer.body) { headers in
                if answer.body != nil { headers.add("content-type", "application/json") }
                headers.add("apns-id", answer.apnsID, neverIndexed: true)
                if let uniqueID = answer.uniqueID { headers.add("apns-unique-id", uniqueID, neverIndexed: true) }
            }
            http2.finishAnswer(ready.request)
            if answer.firstAuthenticatedPush && shared.authStreamLimit {
                http2.announceMaxConcurrentStreams(shared.settings.maxConcurrentStreams)
            }
        }
    }
}
