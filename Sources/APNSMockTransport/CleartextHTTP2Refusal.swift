import APNSMockCore

/// The answer to an HTTP/2 client that skipped TLS (h2c with prior knowledge, such as
/// `curl --http2-prior-knowledge http://…`) on an APNs port: the server SETTINGS, then for its
/// first request a 400 whose `text/plain` body says to use `https://`, and GOAWAY.
///
/// Answered in HTTP/2 because such a client reads nothing else after its preface: an HTTP/1.1
/// answer would reach curl as "Empty reply from server". Not thread-safe: one connection, one
/// event loop.
final class CleartextHTTP2Refusal {
    private let http2: HTTP2ServerSession
    /// The answer and GOAWAY are queued (or the client broke the protocol): close once the
    /// output is sent.
    private(set) var finished = false

    private let service: APNSService

    init(settings: HTTP2Settings, service: APNSService = .push) throws {
        self.service = service
        http2 = try HTTP2ServerSession(settings: settings)
        http2.start()
    }

    /// Feeds the client's bytes after the 24-byte preface and appends what to send.
    func receive(_ bytes: UnsafeBufferPointer<UInt8>, output: inout [UInt8]) {
        if http2.receive(bytes) != .ok { finished = true }
        var readyRequests: [ReadyRequest] = []
        http2.takeReadyRequests(into: &readyRequests)
        for ready in readyRequests {
            if !finished {
                let text = PlainTextResponse.tlsRequired(on: service).text
                http2.respond(streamID: ready.streamID, status: 400, body: Array(text.utf8)) { headers in
                    headers.add("content-type", "text/plain; charset=utf-8")
                }
                http2.goAway(errorCode: HTTP2ErrorCode.noError.rawValue, lastStreamID: ready.streamID)
                finished = true
            }
            http2.finishAnswer(ready.request)
        }
        http2.collectOutput(into: &output)
    }
}
