extension RequestDecision {
    /// Turns what only HTTP/2 can do into what an HTTP/1.1 connection (Web Push without ALPN h2)
    /// can, and says so in `detail`, so the record tells what went on the wire:
    /// - a stream reset (a fault rule's `resetStream`) closes the connection without an answer:
    ///   an HTTP/1.1 client sees it cut off, as it would see a reset;
    /// - a GOAWAY (`goaway`) answers this request and every one received before it, the last
    ///   answer saying `Connection: close`, then closes (the rule's `lastStreamId` and `order`
    ///   have nothing to choose between on one request at a time);
    /// - a SETTINGS change (`setMaxConcurrentStreams`, a behavior's stream limit, refusing the
    ///   other open streams) has nothing to act on: the request is answered as it would be.
    ///
    /// `delay`, `respond`, `hang` and `close` mean the same on both protocols.
    mutating func adaptForHTTP1() {
        var notes: [String] = []
        switch fate {
        case .reset:
            fate = .close(respondFirst: false)
            notes.append("HTTP/1.1 has no streams to reset: the connection was closed instead")
        case .goAway(let errorCode, _, let debugData, _):
            // The GOAWAY first, so that the exchange knows the answer is the last one.
            fate = .goAway(errorCode: errorCode, lastStreamID: nil, debugData: debugData, order: .goAwayFirst)
            notes.append(
                "HTTP/1.1 has no GOAWAY: the answer said Connection: close, and the connection closed after the "
                    + "requests received were answered")
        case .answer, .hang, .close, .goAwayInsteadOfAnswer:
            break
        }
        if maxConcurrentStreams != nil {
            maxConcurrentStreams = nil
            notes.append("HTTP/1.1 has no SETTINGS: MAX_CONCURRENT_STREAMS was not announced")
        }
        streamLimit = nil
        refuseOpenStreams = false
        guard !notes.isEmpty else { return }
        let note = notes.joined(separator: "; ")
        detail = detail.map { "\($0) (\(note))" } ?? note
    }
}
