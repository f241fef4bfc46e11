import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// Streams the client opened that never became a request are counted
/// (`apns_mock_requests_refused_total{stage}`), so that every stream is accounted for: a record,
/// or one of these.
@Suite struct RefusedStreamTests {
    /// The refusal counts in `metrics`' exposition, by stage (absent: 0).
    static func refused(_ metrics: MockMetrics) -> (opening: Int, receiving: Int) {
        let lines = String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
        func value(_ stage: String) -> Int {
            let prefix = #"apns_mock_requests_refused_total{stage="\#(stage)"} "#
            return lines.first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
        }
        return (value("opening"), value("receiving"))
    }

    /// RST_STREAM from the client with CANCEL.
    static func resetStream(_ streamID: UInt32) -> [UInt8] {
        [
            0, 0, 4, 3, 0, UInt8(streamID >> 24), UInt8((streamID >> 16) & 0xFF), UInt8((streamID >> 8) & 0xFF),
            UInt8(streamID & 0xFF), 0, 0, 0, 8,
        ]
    }

    @Test func aStreamTheClientResetsBeforeItsRequestIsWholeIsCountedNotRecorded() throws {
        let connection = try InProcessConnection()
        connection.pump()
        let bytes = StreamLimitTests.openStream(1) + Self.resetStream(1)
        bytes.withUnsafeBufferPointer { _ = connection.session.receive($0) }
        var output: [UInt8] = []
        connection.session.collectOutput(into: &output)
        #expect(connection.store.count == 0)
        #expect(Self.refused(connection.context.metrics) == (0, 1))
        _ = connection.session.connectionClosed(error: nil)
        #expect(Self.refused(connection.context.metrics) == (0, 1), "counted once")
    }

    @Test func streamsOverTheLimitAndStreamsOpenWhenTheConnectionEndsAreCounted() throws {
        // Streams 1 and 3 open (no END_STREAM) on a connection that allows two; 5 is one too
        // many after the client acknowledged the limit: libnghttp2 refuses it (GOAWAY).
        let (connection, _, _) = try StreamLimitTests.openThreeStreamsOnConnection(behavior: false)
        #expect(Self.refused(connection.context.metrics) == (1, 0))
        _ = connection.session.connectionClosed(error: nil)
        #expect(Self.refused(connection.context.metrics) == (1, 2))
        #expect(connection.store.count == 0)
    }

    @Test func requestsThatArriveWholeAreRecordsNotRefusals() throws {
        let connection = try InProcessConnection()
        connection.pump()
        for index in 0..<3 {
            _ = connection.client.submit(
                path: "/3/device/" + String(repeating: "ab", count: 32),
                headers: [("apns-topic", "com.example.app"), ("apns-push-type", "alert")],
                body: Array(#"{"aps":{"alert":"\#(index)"}}"#.utf8))
        }
        connection.pump()
        _ = connection.session.connectionClosed(error: nil)
        #expect(connection.store.count == 3)
        #expect(Self.refused(connection.context.metrics) == (0, 0))
    }
}
