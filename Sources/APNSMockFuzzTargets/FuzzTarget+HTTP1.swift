import APNSMockCore

extension FuzzTarget {
    /// Bytes of an HTTP/1.x connection: parsed whole, and again cut where the first byte says;
    /// both must give the same requests and errors (the Web Push listener gets its bytes in
    /// whatever pieces TLS records make).
    static let http1 = FuzzTarget(
        name: "http1",
        summary: "an HTTP/1.x byte stream -> HTTP1RequestParser, whole and in pieces",
        maximumLength: 8192
    ) { bytes in
        guard let cut = bytes.first else { return }
        let stream = bytes.dropFirst()
        let limits = HTTP1RequestParser.Limits(maximumHeadLength: 1024, maximumBodyLength: 2048, keptBodyLimit: 512)
        var whole = HTTP1RequestParser(limits: limits)
        let wholeEvents = whole.consume(stream).filter { $0 != .continueExpected }
        var pieces = HTTP1RequestParser(limits: limits)
        var pieceEvents: [HTTP1ParserEvent] = []
        var index = stream.startIndex
        let step = Int(cut % 17) + 1
        while index < stream.endIndex {
            let end = stream.index(index, offsetBy: step, limitedBy: stream.endIndex) ?? stream.endIndex
            pieceEvents += pieces.consume(stream[index..<end]).filter { $0 != .continueExpected }
            index = end
        }
        precondition(wholeEvents == pieceEvents, "the parser's events depend on how the bytes were cut")
        for case .request(let request) in wholeEvents {
            precondition(request.body.count <= limits.keptBodyLimit && request.body.count <= request.bodyLength)
            _ =
                HTTP1Response(status: 201, headers: request.headers, body: request.body, keepAlive: request.keepAlive)
                .bytes
        }
    }
}
