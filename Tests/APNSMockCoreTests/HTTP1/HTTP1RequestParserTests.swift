import APNSMockCore
import Testing

/// `HTTP1RequestParser`: RFC 9112's message syntax as the Web Push listener reads it.
@Suite("HTTP1RequestParser: requests from bytes, in order, and the errors RFC 9112 names")
struct HTTP1RequestParserTests {
    static let push = "POST /push/abc HTTP/1.1\r\nHost: 127.0.0.1:2199\r\nTTL: 60\r\nContent-Length: 5\r\n\r\nhello"

    static func parse(_ text: String, limits: HTTP1RequestParser.Limits = .init()) -> [HTTP1ParserEvent] {
        var parser = HTTP1RequestParser(limits: limits)
        return parser.consume(Array(text.utf8))
    }

    static func requests(_ events: [HTTP1ParserEvent]) -> [HTTP1Request] {
        events.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    static func error(_ events: [HTTP1ParserEvent]) -> HTTP1ParseError? {
        events.lazy.compactMap { if case .error(let error) = $0 { error } else { nil } }.first
    }

    @Test func aRequestWithAContentLength() throws {
        let request = try #require(Self.requests(Self.parse(Self.push)).first)
        #expect(request.method == "POST")
        #expect(request.target == "/push/abc" && request.path == "/push/abc")
        #expect(request.minorVersion == 1)
        #expect(request.values(of: "ttl") == ["60"])
        #expect(request.values(of: "host") == ["127.0.0.1:2199"])
        #expect(request.body == Array("hello".utf8) && request.bodyLength == 5)
        #expect(request.keepAlive)
    }

    @Test func bytesArrivingOneAtATimeGiveTheSameRequest() {
        var parser = HTTP1RequestParser()
        var events: [HTTP1ParserEvent] = []
        for byte in Self.push.utf8 { events += parser.consume([byte]) }
        #expect(events == Self.parse(Self.push))
        #expect(!parser.hasPartialRequest)
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let second = "POST /push/def HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi"
        let requests = Self.requests(Self.parse(Self.push + second + "GET / HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(requests.map(\.target) == ["/push/abc", "/push/def", "/"])
        #expect(requests.map(\.bodyLength) == [5, 2, 0])
    }

    @Test func aChunkedBodyIsJoinedWithItsExtensionsAndTrailersDropped() throws {
        let text =
            "POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n"
        let request = try #require(Self.requests(Self.parse(text)).first)
        #expect(String(decoding: request.body, as: UTF8.self) == "hello, world")
        #expect(request.bodyLength == 12)
    }

    @Test func bareLineFeedsAndLeadingBlankLinesAreAccepted() throws {
        let request = try #require(
            Self.requests(Self.parse("\r\n\nPOST /p HTTP/1.1\nHost: h\nContent-Length: 2\n\nok")).first)
        #expect(request.body == Array("ok".utf8))
    }

    @Test(
        "Connection persistence (RFC 9112 §9.3)",
        arguments: [
            ("HTTP/1.1", nil, true), ("HTTP/1.1", "close", false), ("HTTP/1.1", "Keep-Alive, Close", false),
            ("HTTP/1.0", nil, false), ("HTTP/1.0", "keep-alive", true),
        ] as [(String, String?, Bool)])
    func persistence(version: String, connection: String?, keepAlive: Bool) throws {
        let header = connection.map { "Connection: \($0)\r\n" } ?? ""
        let request = try #require(Self.requests(Self.parse("GET / \(version)\r\nHost: h\r\n\(header)\r\n")).first)
        #expect(request.keepAlive == keepAlive)
    }

    @Test func anAbsoluteFormTargetHasItsPath() throws {
        let request = try #require(
            Self.requests(Self.parse("POST https://web.push.apple.com/abc?x=1 HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        #expect(request.path == "/abc?x=1")
    }

    @Test(
        "Refused heads and bodies",
        arguments: [
            ("no Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", 400),
            ("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
            ("a folded field", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  more\r\n\r\n", 400),
            ("a space before the colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400),
            ("a line without a colon", "GET / HTTP/1.1\r\nHost h\r\n\r\n", 400),
            ("a request line of two parts", "GET /\r\nHost: h\r\n\r\n", 400),
            ("HTTP/2.0 on the request line", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505),
            ("not HTTP at all", "GET / FTP/1.0\r\nHost: h\r\n\r\n", 400),
            (
                "both Transfer-Encoding and Content-Length",
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n", 400
            ),
            ("gzip then chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
            (
                "two different lengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n",
                400
            ),
            ("a negative length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400),
            ("a length over the limit", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2000000\r\n\r\n", 413),
            (
                "a chunk size that is not hex",
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400
            ),
            (
                "chunk data longer than its size",
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", 400
            ),
        ] as [(String, String, Int)])
    func refused(name: String, text: String, status: Int) throws {
        let events = Self.parse(text)
        let error = try #require(Self.error(events), "\(name): \(events)")
        #expect(error.status == status, "\(name): \(error)")
        #expect(Self.requests(events).isEmpty, "\(name)")
    }

    @Test func theSameLengthRepeatedIsOneLength() throws {
        let request = try #require(
            Self.requests(
                Self.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nok")
            )
            .first)
        #expect(request.bodyLength == 2)
    }

    @Test func aHeadOverTheLimitIs431EvenBeforeItEnds() {
        let limits = HTTP1RequestParser.Limits(maximumHeadLength: 100)
        let long = "GET / HTTP/1.1\r\nHost: h\r\nX-Long: " + String(repeating: "a", count: 200)
        #expect(Self.error(Self.parse(long, limits: limits))?.status == 431)
        #expect(Self.error(Self.parse(long + "\r\n\r\n", limits: limits))?.status == 431)
    }

    @Test func aChunkedBodyOverTheLimitIs413() {
        let limits = HTTP1RequestParser.Limits(maximumBodyLength: 10)
        let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n"
        #expect(Self.error(Self.parse(text, limits: limits))?.status == 413)
    }

    @Test func aLongBodyIsCountedWholeAndKeptUpToTheLimit() throws {
        let limits = HTTP1RequestParser.Limits(keptBodyLimit: 4)
        let request = try #require(
            Self.requests(
                Self.parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits)
            )
            .first)
        #expect(request.body == Array("0123".utf8))
        #expect(request.bodyLength == 10)
    }

    @Test func expect100ContinueIsSignalledOnlyWhileTheBodyIsMissing() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
        var parser = HTTP1RequestParser()
        #expect(parser.consume(Array(head.utf8)) == [.continueExpected])
        #expect(parser.hasPartialRequest)
        #expect(Self.requests(parser.consume(Array("ok".utf8))).count == 1)
        #expect(!Self.parse(head + "ok").contains(.continueExpected))
    }

    @Test func nothingIsReadAfterAnError() {
        var parser = HTTP1RequestParser()
        #expect(Self.error(parser.consume(Array("GET / HTTP/1.1\r\n\r\n".utf8))) != nil)
        #expect(parser.hasFailed)
        #expect(parser.consume(Array(Self.push.utf8)).isEmpty)
        #expect(!parser.hasPartialRequest)
    }

    @Test func aRequestCutOffIsPartial() {
        var parser = HTTP1RequestParser()
        #expect(!parser.hasPartialRequest)
        _ = parser.consume(Array("\r\n".utf8))
        #expect(!parser.hasPartialRequest)
        _ = parser.consume(Array(Self.push.utf8.dropLast(2)))
        #expect(parser.hasPartialRequest)
    }

    @Test func aResponseOnTheWire() {
        let response = HTTP1Response(
            status: 201, headers: [HTTPHeaderField(name: "apns-id", value: "A-B")], body: [], keepAlive: true)
        #expect(
            String(decoding: response.bytes, as: UTF8.self)
                == "HTTP/1.1 201 Created\r\napns-id: A-B\r\ncontent-length: 0\r\n\r\n")
        let closing = HTTP1Response(status: 400, body: Array("{}".utf8), keepAlive: false)
        #expect(
            String(decoding: closing.bytes, as: UTF8.self)
                == "HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}")
    }
}
