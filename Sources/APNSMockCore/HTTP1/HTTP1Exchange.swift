/// One HTTP/1.1 connection's requests and answers, without sockets: the parser's requests get
/// stream ids as HTTP/2 would give them (1, 3, 5, …), so the connection state machine decides,
/// delays and records them as it does streams; answers decided in any order go out in the order
/// the requests came (RFC 9112 §9.3.2: pipelined responses in request order).
///
/// What HTTP/2 does with a frame, HTTP/1.1 does with the connection: a GOAWAY becomes "answer
/// what was received, the last answer says `Connection: close`, then close"; a stream reset
/// closes the connection at once (the client sees it cut off, as an HTTP/1.1 client would see
/// a reset). A request that asks to close (`Connection: close`, HTTP/1.0) ends the connection
/// after its answer, and bytes after it are not read.
public struct HTTP1Exchange: Sendable {
    /// A request received and given its stream id.
    public struct Received: Sendable, Equatable {
        public var streamID: Int32
        public var request: HTTP1Request
    }

    /// What the bytes given to `receive` came to, in order.
    public enum Event: Sendable, Equatable {
        /// A request to decide; its answer goes to `answer(streamID:_:)`.
        case request(Received)
        /// The bytes are not HTTP/1.x: answered (`status`, `detail`) and closing.
        case malformed(HTTP1ParseError)
    }

    private var parser: HTTP1RequestParser
    /// The stream ids waiting for their answers, oldest first, with whether the connection
    /// stays open after each.
    private var waiting: [(streamID: Int32, keepAlive: Bool)] = []
    /// Answers decided before an older request's: sent once those before them are.
    private var early: [Int32: HTTP1Response] = [:]
    private var output: [UInt8] = []
    private var nextStreamID: Int32 = 1
    /// No more requests are read; the connection closes once the waiting ones are answered.
    public private(set) var isClosing = false
    /// The connection must close now, without answering what waits (a reset).
    public private(set) var mustCloseNow = false

    public init(limits: HTTP1RequestParser.Limits = .init()) { parser = HTTP1RequestParser(limits: limits) }

    /// Reads `bytes`: the requests they complete (while the connection takes requests), or the
    /// error that ends it, whose answer is queued after the answers of the requests before it.
    public mutating func receive<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [Event] {
        guard !isClosing else { return [] }
        var events: [Event] = []
        for event in parser.consume(bytes) {
            guard !isClosing else { break }
            switch event {
            case .continueExpected:
                if waiting.isEmpty { output += HTTP1Response.continueBytes }
            case .request(let request):
                let streamID = nextStreamID
                nextStreamID += 2
                waiting.append((streamID, request.keepAlive))
                if !request.keepAlive { isClosing = true }
                events.append(.request(Received(streamID: streamID, request: request)))
            case .error(let error):
                isClosing = true
                let streamID = nextStreamID
                nextStreamID += 2
                waiting.append((streamID, false))
                answer(
                    streamID: streamID,
                    HTTP1Response(
                        status: error.status,
                        headers: [HTTPHeaderField(name: "content-type", value: "application/json")],
                        body: Self.errorBody(error)))
                events.append(.malformed(error))
            }
        }
        return events
    }

    /// The answer to `streamID`, written now if every older request has been answered, else
    /// when they are.
    public mutating func answer(streamID: Int32, _ response: HTTP1Response) {
        guard waiting.contains(where: { $0.streamID == streamID }) else { return }
        early[streamID] = response
        while let next = waiting.first, var ready = early.removeValue(forKey: next.streamID) {
            waiting.removeFirst()
            let last = isClosing && waiting.isEmpty
            ready.keepAlive = next.keepAlive && !last
            output += ready.bytes
        }
    }

    /// HTTP/2's GOAWAY: read no more requests, answer those received, then close (the last
    /// answer says `Connection: close`; with none waiting, close once the output is written).
    public mutating func closeAfterAnswers() {
        isClosing = true
    }

    /// HTTP/2's RST_STREAM: the connection is cut off now.
    public mutating func reset() {
        isClosing = true
        mustCloseNow = true
    }

    /// Whether requests are received or waiting for their answers (the connection stays open).
    public var isActive: Bool { !mustCloseNow && (!isClosing || !waiting.isEmpty) }

    /// The stream ids of the requests still waiting for their answers, oldest first.
    public var waitingStreamIDs: [Int32] { waiting.map(\.streamID) }

    /// Whether a request was cut off by the end of the connection (part of it had arrived).
    public var hasPartialRequest: Bool { parser.hasPartialRequest }

    /// Appends what is ready to go out to `into`, and forgets it.
    public mutating func collectOutput(into bytes: inout [UInt8]) {
        bytes += output
        output.removeAll(keepingCapacity: true)
    }

    /// The JSON body of a request that is not HTTP/1.x, in APNs's terms (`{"reason":…}`), with
    /// the status's reason: `PayloadTooLarge` for 413, `BadWebPushRequest` otherwise.
    static func errorBody(_ error: HTTP1ParseError) -> [UInt8] {
        APNSErrorBody.encode(reason: error.status == 413 ? .payloadTooLarge : .badWebPushRequest)
    }
}
