import APNSMockCore
import APNSMockRegistry
import Testing

@testable import APNSMockTransport

/// RFC 9113 §5.1.1: a client's new stream must be numbered above every stream it opened; HEADERS
/// on a lower, never-opened stream is a connection error PROTOCOL_ERROR. libnghttp2 1.52 drops
/// such a frame silently (nghttp2 issues #1300, #2233, #2278; h2spec http2/5.1.1/2), so the
/// session notices it itself.
@Suite struct StreamOrderTests {
    typealias S = StreamLimitTests

    /// Sends `streams` as request HEADERS (streams left open) on a fresh connection that
    /// allows ten; returns what the server sent back and whether it kept the connection.
    static func open(_ streams: [UInt32]) throws -> (
        frames: [(type: UInt8, stream: UInt32, payload: [UInt8])], alive: Bool
    ) {
        let connection = try InProcessConnection(
            settings: HTTP2Settings(maxConcurrentStreams: 10), authStreamLimit: false)
        connection.pump()
        var output: [UInt8] = []
        connection.session.collectOutput(into: &output)
        let bytes = streams.flatMap { S.openStream($0) }
        bytes.withUnsafeBufferPointer { connection.session.receive($0) }
        let alive = !connection.session.isClosed
        connection.session.collectOutput(into: &output)
        return (S.frames(output), alive)
    }

    @Test func aLowerStreamIDIsAConnectionErrorProtocolError() throws {
        let (frames, alive) = try Self.open([5, 3])
        #expect(!alive)
        let goAways = frames.filter { $0.type == 7 }.map { S.goAway($0.payload) }
        #expect(goAways.count == 1)
        #expect(goAways.first?.code == HTTP2ErrorCode.protocolError.rawValue)
        #expect(goAways.first?.lastStream == 5, "the last stream processed")
        #expect(goAways.first?.debug.contains("RFC 9113 §5.1.1") == true, "\(goAways)")
    }

    @Test func increasingStreamIDsAreServed() throws {
        let (frames, alive) = try Self.open([1, 3, 5, 9])
        #expect(alive)
        #expect(!frames.contains { $0.type == 7 }, "no GOAWAY")
    }
}
