import APNSMockCore
import APNSMockRegistry
import Testing

@testable import APNSMockTransport

/// Floods end the connection with GOAWAY ENHANCE_YOUR_CALM, the code RFC 9113 §7 names for
/// excessive load, with what the client did in the debug data (issue 22). Without the session's
/// own checks libnghttp2 1.52 (Debian's, with the CVE fixes) answers a rapid reset with GOAWAY
/// INTERNAL_ERROR and ends the session on a CONTINUATION or acknowledgement flood without any.
@Suite struct ClientFloodTests {
    typealias S = StreamLimitTests

    /// Feeds `bytes` after the client preface; returns the GOAWAYs the server sent and whether
    /// the connection is still open.
    static func feed(_ bytes: [UInt8]) throws -> (
        goAways: [(lastStream: UInt32, code: UInt32, debug: String)], alive: Bool
    ) {
        let connection = try InProcessConnection(
            settings: HTTP2Settings(maxConcurrentStreams: 10), authStreamLimit: false)
        connection.pump()
        var output: [UInt8] = []
        connection.session.collectOutput(into: &output)
        bytes.withUnsafeBufferPointer { connection.session.receive($0) }
        connection.session.collectOutput(into: &output)
        let goAways = S.frames(output).filter { $0.type == 7 }.map { S.goAway($0.payload) }
        return (goAways, !connection.session.isClosed)
    }

    static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        [
            UInt8(payload.count >> 16), UInt8((payload.count >> 8) & 0xFF), UInt8(payload.count & 0xFF), type, flags,
            UInt8(stream >> 24), UInt8((stream >> 16) & 0xFF), UInt8((stream >> 8) & 0xFF), UInt8(stream & 0xFF),
        ] + payload
    }

    static func reset(_ stream: UInt32) -> [UInt8] { frame(type: 3, stream: stream, [0, 0, 0, 8]) }

    @Test func rapidResetIsEnhanceYourCalm() throws {
        let pairs = (0..<1100).flatMap { index -> [UInt8] in
            let stream = UInt32(1 + 2 * index)
            return S.openStream(stream) + Self.reset(stream)
        }
        let (goAways, alive) = try Self.feed(pairs)
        #expect(!alive)
        #expect(goAways.count == 1)
        #expect(goAways.first?.code == HTTP2ErrorCode.enhanceYourCalm.rawValue, "\(goAways)")
        #expect(goAways.first?.debug.contains("rapid reset") == true)
    }

    @Test func aFewResetsAreFine() throws {
        let pairs = (0..<50).flatMap { index -> [UInt8] in
            let stream = UInt32(1 + 2 * index)
            return S.openStream(stream) + Self.reset(stream)
        }
        let (goAways, alive) = try Self.feed(pairs)
        #expect(alive)
        #expect(goAways.isEmpty)
    }

    @Test func aContinuationFloodIsEnhanceYourCalm() throws {
        // HEADERS without END_HEADERS, then CONTINUATION frames of one small literal field each.
        let field: [UInt8] = [0x40, 3] + Array("x-a".utf8) + [1] + Array("b".utf8)
        var bytes = Self.frame(type: 1, flags: 0x1, stream: 1, [0x83, 0x87])
        for _ in 0..<(HTTP2ServerSession.maxContinuations + 2) { bytes += Self.frame(type: 9, stream: 1, field) }
        let (goAways, alive) = try Self.feed(bytes)
        #expect(!alive)
        #expect(goAways.first?.code == HTTP2ErrorCode.enhanceYourCalm.rawValue, "\(goAways)")
        #expect(goAways.first?.debug.contains("CONTINUATION flood") == true)
    }

    @Test func unreadPingAcknowledgementsAreEnhanceYourCalm() throws {
        // The in-process client reads nothing while the pings arrive in one read.
        let pings = (0..<1500).flatMap { index in
            Self.frame(type: 6, stream: 0, (0..<8).map { UInt8(truncatingIfNeeded: index >> ($0 * 8)) })
        }
        let (goAways, alive) = try Self.feed(pings)
        #expect(!alive)
        #expect(goAways.first?.code == HTTP2ErrorCode.enhanceYourCalm.rawValue, "\(goAways)")
        #expect(goAways.first?.debug.contains("control frame flood") == true)
    }
}
