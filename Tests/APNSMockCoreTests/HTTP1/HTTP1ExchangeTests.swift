import APNSMockCore
import Testing

/// `HTTP1Exchange`: HTTP/1.1 requests as streams, answers in request order, and HTTP/2's
/// GOAWAY and RST_STREAM as HTTP/1.1 does them.
@Suite("HTTP1Exchange: requests as streams, answers in the order asked")
struct HTTP1ExchangeTests {
    static func request(_ path: String, close: Bool = false) -> String {
        "POST \(path) HTTP/1.1\r\nHost: h\r\n\(close ? "Connection: close\r\n" : "")Content-Length: 2\r\n\r\nok"
    }

    static func streamIDs(_ events: [HTTP1Exchange.Event]) -> [Int32] {
        events.compactMap { if case .request(let received) = $0 { received.streamID } else { nil } }
    }

    static func output(_ exchange: inout HTTP1Exchange) -> String {
        var bytes: [UInt8] = []
        exchange.collectOutput(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func statusLines(_ text: String) -> [String] {
        text.split(separator: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }.map(String.init)
    }

    @Test func requestsGetOddStreamIDsInOrder() {
        var exchange = HTTP1Exchange()
        let events = exchange.receive(Array((Self.request("/a") + Self.request("/b") + Self.request("/c")).utf8))
        #expect(Self.streamIDs(events) == [1, 3, 5])
        #expect(exchange.waitingStreamIDs == [1, 3, 5])
        #expect(exchange.isActive)
    }

    @Test func answersDecidedOutOfOrderGoOutInRequestOrder() {
        var exchange = HTTP1Exchange()
        _ = exchange.receive(Array((Self.request("/a") + Self.request("/b")).utf8))
        exchange.answer(streamID: 3, HTTP1Response(status: 400))
        #expect(Self.output(&exchange).isEmpty, "the second answer waits for the first (a delayed one)")
        exchange.answer(streamID: 1, HTTP1Response(status: 201))
        #expect(Self.statusLines(Self.output(&exchange)) == ["HTTP/1.1 201 Created", "HTTP/1.1 400 Bad Request"])
        #expect(exchange.waitingStreamIDs.isEmpty)
        #expect(exchange.isActive, "keep-alive: more requests may come")
    }

    @Test func connectionCloseEndsAfterItsAnswerAndReadsNothingMore() {
        var exchange = HTTP1Exchange()
        let events = exchange.receive(Array((Self.request("/a", close: true) + Self.request("/b")).utf8))
        #expect(Self.streamIDs(events) == [1])
        exchange.answer(streamID: 1, HTTP1Response(status: 201))
        #expect(Self.output(&exchange).contains("connection: close\r\n"))
        #expect(!exchange.isActive)
        #expect(exchange.receive(Array(Self.request("/c").utf8)).isEmpty)
    }

    @Test func goAwayAnswersWhatWasReceivedAndTheLastAnswerCloses() {
        var exchange = HTTP1Exchange()
        _ = exchange.receive(Array((Self.request("/a") + Self.request("/b")).utf8))
        exchange.closeAfterAnswers()
        #expect(exchange.isActive, "two answers are owed")
        #expect(exchange.receive(Array(Self.request("/c").utf8)).isEmpty, "no request is read after it")
        exchange.answer(streamID: 1, HTTP1Response(status: 201))
        exchange.answer(streamID: 3, HTTP1Response(status: 201))
        let text = Self.output(&exchange)
        #expect(Self.statusLines(text).count == 2)
        #expect(text.ranges(of: "connection: close").count == 1, "only the last answer closes")
        #expect(!exchange.isActive)
    }

    @Test func aResetCutsTheConnectionOff() {
        var exchange = HTTP1Exchange()
        _ = exchange.receive(Array(Self.request("/a").utf8))
        exchange.reset()
        #expect(exchange.mustCloseNow && !exchange.isActive)
    }

    @Test func aMalformedRequestIsAnsweredAfterTheOnesBeforeItThenCloses() {
        var exchange = HTTP1Exchange()
        let events = exchange.receive(Array((Self.request("/a") + "GET / HTTP/1.1\r\n\r\n").utf8))
        #expect(Self.streamIDs(events) == [1])
        guard case .malformed(let error)? = events.last else {
            Issue.record("no malformed event: \(events)")
            return
        }
        #expect(error.status == 400)
        #expect(Self.output(&exchange).isEmpty, "the error's answer waits for the first request's")
        exchange.answer(streamID: 1, HTTP1Response(status: 201))
        let text = Self.output(&exchange)
        #expect(Self.statusLines(text) == ["HTTP/1.1 201 Created", "HTTP/1.1 400 Bad Request"])
        #expect(text.hasSuffix(#"{"reason":"BadWebPushRequest"}"#))
        #expect(!exchange.isActive)
    }

    @Test func oneHundredContinueIsSentOnlyWhenNothingIsOwed() {
        var exchange = HTTP1Exchange()
        _ = exchange.receive(
            Array("POST /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        #expect(Self.output(&exchange) == "HTTP/1.1 100 Continue\r\n\r\n")
        #expect(Self.streamIDs(exchange.receive(Array("ok".utf8))) == [1])
    }

    @Test func anAnswerToAnUnknownStreamIsDropped() {
        var exchange = HTTP1Exchange()
        exchange.answer(streamID: 7, HTTP1Response(status: 201))
        #expect(Self.output(&exchange).isEmpty)
    }
}
