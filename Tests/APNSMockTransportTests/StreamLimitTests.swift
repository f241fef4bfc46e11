import APNSMockCore
import APNSMockRegistry
import Testing

@testable import APNSMockTransport

/// A client that opens more streams than the server announced (RFC 9113 §5.1.2), with and
/// without the `stream-limit-goaway` behavior (Pushy #356: APNs answered with GOAWAY and the
/// plain text "Maximum active streams violated for this endpoint.").
@Suite struct StreamLimitTests {
    /// A request HEADERS frame that leaves the stream open (no END_STREAM): HPACK indexed
    /// `:method POST` and `:scheme https`, literal `:path` and `:authority` without indexing,
    /// so the server's header table is untouched.
    static func openStream(_ streamID: UInt32) -> [UInt8] {
        let path = Array("/3/device/\(String(repeating: "ab", count: 32))".utf8)
        let authority = Array("localhost".utf8)
        let block: [UInt8] = [0x83, 0x87, 0x04, UInt8(path.count)] + path + [0x01, UInt8(authority.count)] + authority
        return [
            0, 0, UInt8(block.count), 1, 0x04,
            UInt8(streamID >> 24), UInt8((streamID >> 16) & 0xFF), UInt8((streamID >> 8) & 0xFF),
            UInt8(streamID & 0xFF),
        ] + block
    }

    /// The frames in `bytes` (type, stream, payload).
    static func frames(_ bytes: [UInt8]) -> [(type: UInt8, stream: UInt32, payload: [UInt8])] {
        var result: [(UInt8, UInt32, [UInt8])] = []
        var offset = 0
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let stream = bytes[offset + 5..<offset + 9].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            result.append((bytes[offset + 3], stream, Array(bytes[offset + 9..<min(offset + 9 + length, bytes.count)])))
            offset += 9 + length
        }
        return result
    }

    /// GOAWAY's last stream id, error code and debug text, from its payload.
    static func goAway(_ payload: [UInt8]) -> (lastStream: UInt32, code: UInt32, debug: String) {
        let word = { (at: Int) in payload[at..<at + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        return (word(0) & 0x7FFF_FFFF, word(4), String(decoding: payload[8...], as: UTF8.self))
    }

    /// Opens streams 1, 3, 5 on a connection that allows two (the client acknowledged the
    /// SETTINGS first); returns what the server sent back and whether it kept reading.
    static func openThreeStreams(behavior: Bool) throws -> (
        frames: [(type: UInt8, stream: UInt32, payload: [UInt8])], alive: Bool
    ) {
        let (_, frames, alive) = try openThreeStreamsOnConnection(behavior: behavior)
        return (frames, alive)
    }

    /// `openThreeStreams`, with the connection.
    static func openThreeStreamsOnConnection(behavior: Bool) throws -> (
        connection: InProcessConnection, frames: [(type: UInt8, stream: UInt32, payload: [UInt8])], alive: Bool
    ) {
        let faults = FaultControl()
        if behavior { faults.enable(.streamLimitGoAway) }
        let connection = try InProcessConnection(settings: HTTP2Settings(maxConcurrentStreams: 2), faults: faults)
        connection.pump()
        var output: [UInt8] = []
        connection.session.collectOutput(into: &output)
        let bytes = openStream(1) + openStream(3) + openStream(5)
        bytes.withUnsafeBufferPointer { connection.session.receive($0) }
        let alive = !connection.session.isClosed
        connection.session.collectOutput(into: &output)
        return (connection, frames(output), alive)
    }

    @Test func withTheBehaviorTheClientGetsGoAwayWithAPNsText() throws {
        let (frames, alive) = try Self.openThreeStreams(behavior: true)
        #expect(!alive)
        let goAways = frames.filter { $0.type == 7 }.map { Self.goAway($0.payload) }
        #expect(goAways.count == 1)
        #expect(goAways.first?.lastStream == 3)
        #expect(goAways.first?.code == HTTP2ErrorCode.refusedStream.rawValue)
        #expect(goAways.first?.debug == "Maximum active streams violated for this endpoint.")
        #expect(!frames.contains { $0.type == 3 }, "no RST_STREAM: the whole connection is refused")
    }

    @Test func withoutItLibnghttp2AnswersProtocolError() throws {
        // libnghttp2 queues its GOAWAY and lets the read succeed; the session ends after sending.
        let (frames, _) = try Self.openThreeStreams(behavior: false)
        let goAways = frames.filter { $0.type == 7 }.map { Self.goAway($0.payload) }
        #expect(goAways.count == 1)
        #expect(goAways.first?.code == HTTP2ErrorCode.protocolError.rawValue)
        #expect(goAways.first?.debug != "Maximum active streams violated for this endpoint.")
    }
}
