import APNSMockCore

/// One HTTP/1.1 connection's requests and answers (a Web Push connection whose ALPN did not
/// choose h2), offering what `HTTP2ServerSession` offers the connection's session: requests
/// handed over as `ReadyRequest`s numbered as streams (`HTTP1Exchange`), answers written in
/// request order, and the state machine's frame-level actions turned into what HTTP/1.1 can do
/// with the connection.
final class HTTP1ServerSession {
    private var exchange = HTTP1Exchange()

    /// Reads `bytes`: the requests they complete are appended to `ready`. Returns the error that
    /// ends the connection when the bytes are not HTTP/1.x (the exchange has queued its answer).
    func receive(_ bytes: UnsafeBufferPointer<UInt8>, into ready: inout [ReadyRequest]) -> HTTP1ParseError? {
        var malformed: HTTP1ParseError?
        for event in exchange.receive(bytes) {
            switch event {
            case .request(let received):
                let parts = StreamRequest()
                parts.method = received.request.method
                parts.path = received.request.path
                parts.host = received.request.values(of: "host").first
                parts.headers = HeaderBlock(received.request.headers.filter { $0.name != "host" })
                parts.payload = received.request.body
                parts.payloadSize = received.request.bodyLength
                ready.append(ReadyRequest(streamID: received.streamID, request: parts, early: false))
            case .malformed(let error):
                malformed = error
            }
        }
        return malformed
    }

    /// Queues the answer to the request numbered `streamID`; it goes out once every older
    /// request's answer has.
    func respond(streamID: Int32, _ answer: APNSAnswer) {
        exchange.answer(streamID: streamID, HTTP1Response(answer))
    }

    /// HTTP/2's RST_STREAM: HTTP/1.1 has no streams, so the connection is cut off now.
    func cutOff() { exchange.reset() }

    /// HTTP/2's GOAWAY: no more requests are read; those received are answered, the last answer
    /// saying `Connection: close`.
    func closeAfterAnswers() { exchange.closeAfterAnswers() }

    /// Whether requests are read or wait for their answers.
    var isActive: Bool { exchange.isActive }

    /// Requests begun and not yet whole: 0 or 1 (HTTP/1.1 receives one at a time).
    var requestsBeingReceived: Int { exchange.hasPartialRequest ? 1 : 0 }

    /// Appends what is ready to go out.
    func collectOutput(into output: inout [UInt8]) { exchange.collectOutput(into: &output) }
}
