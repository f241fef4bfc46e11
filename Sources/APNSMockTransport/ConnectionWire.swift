import APNSMockCore

/// What carries a connection's requests and answers once TLS is up: HTTP/2 through libnghttp2
/// (every APNs listener, and Web Push when ALPN chose h2), or HTTP/1.1 (Web Push otherwise, once
/// `speakHTTP1()` is called). `APNSSession` performs the state machine's actions on it without
/// asking which; what HTTP/1.1 cannot do with a frame it does with the connection, and says so
/// in its result.
///
/// A class of two references, held by a `let`, rather than an enum with payloads: the push path
/// reaches `http2` without a retain and release per call, as it did before the wire was one type.
final class ConnectionWire {
    /// The HTTP/2 session, from the first byte: it reads the preface, then every frame of an
    /// HTTP/2 connection. On an HTTP/1.1 connection it is never started and stays idle.
    let http2: HTTP2ServerSession
    /// The HTTP/1.1 session of a Web Push connection whose ALPN did not choose h2; `nil` on HTTP/2.
    private(set) var http1: HTTP1ServerSession?

    init(http2: HTTP2ServerSession) { self.http2 = http2 }

    /// From here on the connection speaks HTTP/1.1.
    func speakHTTP1() { http1 = HTTP1ServerSession() }

    /// What a stream reset did.
    enum ResetResult {
        /// The stream was reset (RST_STREAM).
        case streamReset
        /// HTTP/1.1 has no streams: the connection must be cut off now.
        case connectionCutOff
    }

    /// Whether the connection still reads or writes.
    var isActive: Bool { http1?.isActive ?? http2.isActive }

    /// Requests begun and not yet whole (an idle timeout leaves such a connection open).
    var requestsBeingReceived: Int { http1?.requestsBeingReceived ?? http2.streamsBeingReceived.count }

    /// Submits `answer` to the request on `streamID`.
    func respond(streamID: Int32, _ answer: APNSAnswer) {
        if let http1 { return http1.respond(streamID: streamID, answer) }
        http2.respond(streamID: streamID, answer)
    }

    /// The answer to `request` was decided: its buffers may be reused (HTTP/2).
    func finishAnswer(_ request: StreamRequest) {
        if http1 == nil { http2.finishAnswer(request) }
    }

    /// RST_STREAM `streamID` with `errorCode`; on HTTP/1.1 the connection is cut off instead.
    func resetStream(_ streamID: Int32, errorCode: UInt32) -> ResetResult {
        if let http1 {
            http1.cutOff()
            return .connectionCutOff
        }
        http2.resetStream(streamID, errorCode: errorCode)
        return .streamReset
    }

    /// GOAWAY; on HTTP/1.1: read no more requests, answer those received, the last answer with
    /// `Connection: close`.
    func goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8]) {
        if let http1 { return http1.closeAfterAnswers() }
        http2.goAway(errorCode: errorCode, debugData: debugData, lastStreamID: lastStreamID)
    }

    /// Announces SETTINGS_MAX_CONCURRENT_STREAMS; returns whether it was sent (HTTP/1.1 has no
    /// SETTINGS).
    func announceMaxConcurrentStreams(_ limit: UInt32) -> Bool {
        guard http1 == nil else { return false }
        http2.announceMaxConcurrentStreams(limit)
        return true
    }

    /// Refuses (REFUSED_STREAM) every stream still being received but `except` (HTTP/2; HTTP/1.1
    /// receives one request at a time, and it is the one being decided).
    func refuseStreamsBeingReceived(except: Int32) {
        guard http1 == nil else { return }
        for streamID in http2.streamsBeingReceived where streamID != except {
            http2.resetStream(streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue)
        }
    }

    /// Appends what is queued to go out.
    func collectOutput(into output: inout [UInt8]) {
        if let http1 { return http1.collectOutput(into: &output) }
        http2.collectOutput(into: &output)
    }
}
