import APNSMockCore
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// A client that speaks cleartext to the TLS port: recognised from its first bytes, and told in
/// words (HTTP/1.1, or HTTP/2 for h2c) to use `https://`.
@Suite struct CleartextClientTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    @Test func plainTextAnswerIsCompleteHTTP1() throws {
        let text = String(decoding: PlainTextResponse.tlsRequired(on: .push).bytes, as: UTF8.self)
        let parts = text.split(separator: "\r\n\r\n", maxSplits: 1, omittingEmptySubsequences: false)
        try #require(parts.count == 2)
        let head = parts[0].split(separator: "\r\n").map(String.init)
        #expect(head.first == "HTTP/1.1 400 Bad Request")
        #expect(head.contains("content-type: text/plain; charset=utf-8"))
        #expect(head.contains("connection: close"))
        #expect(head.contains("content-length: \(parts[1].utf8.count)"))
        #expect(parts[1].contains("speaks TLS"))
        #expect(parts[1].contains("https://"))
        #expect(parts[1].contains("it is an APNs port"))
        #expect(parts[1].contains("not the admin API"))
        #expect(parts[1].hasPrefix(PlainTextResponse.tlsRequiredPrefix))
        let channels = PlainTextResponse.tlsRequired(on: .channelManagement).text
        #expect(channels.hasPrefix(PlainTextResponse.tlsRequiredPrefix + "the channel-management port"))
    }

    /// An h2c client gets the server SETTINGS, a 400 with the words, and GOAWAY.
    @Test func cleartextHTTP2ClientGetsA400InHTTP2() throws {
        let client = HTTP2TestClient()
        let refusal = try CleartextHTTP2Refusal(settings: HTTP2Settings())
        let stream = client.submit(
            path: "/3/device/abcd", headers: [("apns-topic", "com.example.app")], body: Array("{}".utf8))
        var toServer = client.output()
        #expect(Array(toServer.prefix(Self.preface.count)) == Self.preface)
        toServer.removeFirst(Self.preface.count)
        var toClient: [UInt8] = []
        toServer.withUnsafeBufferPointer { refusal.receive($0, output: &toClient) }
        #expect(refusal.finished)
        client.receive(toClient)
        #expect(client.header(":status", on: stream) == "400")
        #expect(client.header("content-type", on: stream) == "text/plain; charset=utf-8")
        let body = String(decoding: client.bodies[stream] ?? [], as: UTF8.self)
        #expect(body == PlainTextResponse.tlsRequired(on: .push).text)
        #expect(client.goAwayReceived)
    }
}
