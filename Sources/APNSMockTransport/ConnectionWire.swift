import APNSMockCore

/// What carries a connection's requests and answers once TLS is up: HTTP/2 through libnghttp2
/// (every APNs listener, and Web Push when ALPN chose h2), or HTTP/1.1 (Web Push otherwise).
/// `APNSSession` performs the state machine's actions on it without asking which; what HTTP/1.1
/// cannot do with a frame it does with the connection, and says so in its result.
enum ConnectionWire {
    case http2(HTTP2ServerSession)
    case http1(HTTP1ServerSession)

    /// What a stream reset did.
    enum ResetResult {
        /// The stream was reset (RST_STREAM).
        case streamReset
        /// HTTP/1.1 has no streams: the connection must be cut off now.
        case connectionCutOff
    }

    /// Whether the connection still reads or writes.
    var isActive: Bool {
        switch self {
        case .http2(let session): session.isActive
        case .http1(let session): session.isActive
        }
    }

    /// Requests begun and not yet whole (an idle timeout leaves such a connection open).
    var requestsBeingReceived: Int {
        switch self {
        case .http2(let session): session.streamsBeingReceived.count
        case .http1(let session): session.requestsBeingReceived
        }
    }

    /// Submits `answer` to the request on `streamID`.
    func respond(streamID: Int32, _ answer: APNSAnswer) {
        switch self {
        case .http2(let session): session.respond(streamID: streamID, answer)
        case .http1(let session): session.respond(streamID: streamID, answer)
        }
    }

    /// The answer to `request` was decided: its buffers may be reused (HTTP/2).
    func finishAnswer(_ request: StreamRequest) {
        if case .http2(let session) = self { session.finishAnswer(request) }
    }

    /// RST_STREAM `streamID` with `errorCode`; on HTTP/1.1 the connection is cut off instead.
    func resetStream(_ streamID: Int32, errorCode: UInt32) -> ResetResult {
        switch self {
        case .http2(let session):
            session.resetStream(streamID, errorCode: errorCode)
            return .streamReset
        case .http1(let session):
            session.cutOff()
            return .connectionCutOff
        }
    }

    /// GOAWAY; on HTTP/1.1: read no more requests, answer those received, the last answer with
    /// `Connection: close`.
    func goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8]) {
        switch self {
        case .http2(let session):
            session.goAway(errorCode: errorCode, debugData: debugData, lastStreamID: lastStreamID)
        case .http1(let session):
            session.closeAfterAnswers()
        }
    }

    /// Announces SETTINGS_MAX_CONCURRENT_STREAMS; returns whether it was sent (HTTP/1.1 has no
    /// SETTINGS).
    func announceMaxConcurrentStreams(_ limit: UInt32) -> Bool {
        guard case .http2(let session) = self else { return false }
        session.announceMaxConcurrentStreams(limit)
        return true
    }

    /// Refuses (REFUSED_STREAM) every stream still being received but `except` (HTTP/2; HTTP/1.1
    /// receives one request at a time, and it is the one being decided).
    func refuseStreamsBeingReceived(except: Int32) {
        guard case .http2(let session) = self else { return }
        for streamID in session.streamsBeingReceived where streamID != except {
            session.resetStream(streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue)
        }
    }

    /// Appends what is queued to go out.
    func collectOutput(into output: inout [UInt8]) {
        switch self {
        case .http2(let session): session.collectOutput(into: &output)
        case .http1(let session): session.collectOutput(into: &output)
        }
    }
}
