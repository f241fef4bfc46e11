import APNSMockCore
import APNSMockRegistry
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// Issue 29: a `goaway` rule's GOAWAY and the answer of the stream it covers go out in the
/// order the rule names, on the wire. libnghttp2 sends DATA after its queued control frames, so
/// an answer with a body (HEADERS, DATA) submitted before the GOAWAY would otherwise be split
/// around it.
@Suite struct GoAwayOrderTests {
    typealias S = StreamLimitTests

    /// The frame types the server sends after a push into a `goaway` rule with `order` (`nil`:
    /// the default): a token connection without a provider token, so the answer is a 403 with
    /// a body (HEADERS, DATA).
    static func framesAfterAPush(order: GoAwayOrder?) throws -> [String] {
        let faults = FaultControl()
        let orderField = order.map { #""order": "\#($0.rawValue)""# } ?? ""
        _ = try faults.addRule(
            json: try #require(JSONValue.parse(#"{"action": {"goaway": {\#(orderField)}}}"#)), now: 0)
        let connection = try InProcessConnection(faults: faults)
        connection.pump()
        _ = connection.client.submit(
            path: "/3/device/" + String(repeating: "ab", count: 32),
            headers: [("apns-topic", "com.example.app"), ("apns-push-type", "alert")],
            body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        let request = connection.client.output()
        request.withUnsafeBufferPointer { _ = connection.session.receive($0) }
        var output: [UInt8] = []
        connection.session.collectOutput(into: &output)
        let names: [UInt8: String] = [0: "DATA", 1: "HEADERS", 3: "RST_STREAM", 7: "GOAWAY"]
        return S.frames(output).compactMap { frame in names[frame.type].map { "\($0) \(frame.stream)" } }
    }

    @Test(arguments: [nil, GoAwayOrder.answerFirst])
    func theWholeAnswerGoesOutBeforeTheGoAway(_ order: GoAwayOrder?) throws {
        #expect(try Self.framesAfterAPush(order: order) == ["HEADERS 1", "DATA 1", "GOAWAY 0"])
    }

    /// An answer whose body flow control holds back (the client announced a window of 0) keeps
    /// the GOAWAY waiting: it goes out after the body, once the client opens the window.
    @Test func aGoAwayWaitsForABodyFlowControlHoldsBack() throws {
        let faults = FaultControl()
        _ = try faults.addRule(json: try #require(JSONValue.parse(#"{"action": {"goaway": {}}}"#)), now: 0)
        let connection = try InProcessConnection(faults: faults)
        connection.pump()
        func send(_ bytes: [UInt8]) -> [String] {
            bytes.withUnsafeBufferPointer { _ = connection.session.receive($0) }
            var output: [UInt8] = []
            connection.session.collectOutput(into: &output)
            let names: [UInt8: String] = [0: "DATA", 1: "HEADERS", 7: "GOAWAY"]
            return S.frames(output).compactMap { frame in names[frame.type].map { "\($0) \(frame.stream)" } }
        }
        // SETTINGS_INITIAL_WINDOW_SIZE 0, sent before the request opens its stream.
        #expect(send([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0]).isEmpty)
        _ = connection.client.submit(
            path: "/3/device/" + String(repeating: "ab", count: 32),
            headers: [("apns-topic", "com.example.app"), ("apns-push-type", "alert")],
            body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        #expect(send(connection.client.output()) == ["HEADERS 1"], "the body and the GOAWAY wait")
        // WINDOW_UPDATE on stream 1: the body goes, then the GOAWAY.
        #expect(send([0, 0, 4, 8, 0, 0, 0, 0, 1, 0, 0, 0xFF, 0xFF]) == ["DATA 1", "GOAWAY 0"])
    }

    @Test func goAwayFirstSendsTheGoAwayBeforeTheAnswer() throws {
        #expect(try Self.framesAfterAPush(order: .goAwayFirst) == ["GOAWAY 0", "HEADERS 1", "DATA 1"])
    }
}
