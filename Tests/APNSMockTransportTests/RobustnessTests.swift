import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Testing

@testable import APNSMockTransport

/// No input crashes the server session: random bytes after the preface, random frames, and
/// valid frames with hostile contents end in an HTTP/2 error or an answer, never a trap.
@Suite struct RobustnessTests {
    @Test(arguments: 0..<20)
    func randomBytesNeverCrash(_ seed: Int) throws {
        var random = FastRandom(seed: (UInt64(seed) &+ 1, 7, 11, 13))
        let connection = try InProcessConnection()
        connection.pump()
        for _ in 0..<50 {
            let count = Int(random.next() % 300)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = bytes.withUnsafeBufferPointer { connection.session.receive($0) }
            var out: [UInt8] = []
            connection.session.collectOutput(into: &out)
        }
    }

    /// Frame headers that look right (length, type, flags, stream) with random payloads.
    @Test(arguments: 0..<20)
    func randomFramesNeverCrash(_ seed: Int) throws {
        var random = FastRandom(seed: (UInt64(seed) &+ 100, 3, 5, 9))
        let connection = try InProcessConnection()
        connection.pump()
        for _ in 0..<200 {
            let length = Int(random.next() % 64)
            let type = UInt8(random.next() % 10)
            let flags = UInt8(truncatingIfNeeded: random.next())
            let stream = UInt32(random.next() % 8) * 2 + 1
            var frame: [UInt8] = [
                UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(stream >> 24), UInt8((stream >> 16) & 0xFF), UInt8((stream >> 8) & 0xFF), UInt8(stream & 0xFF),
            ]
            frame += (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let alive = frame.withUnsafeBufferPointer { connection.session.receive($0) }
            var out: [UInt8] = []
            connection.session.collectOutput(into: &out)
            if !alive { break }
        }
    }

    @Test func hostileHeaderValuesAreAnsweredNotTrapped() throws {
        let connection = try InProcessConnection()
        let values = [
            "", String(repeating: "\u{FFFD}", count: 500), "bearer " + String(repeating: ".", count: 1000),
            "bearer a.b.c.d.e", "bearer \u{0}\u{1}", String(repeating: "9", count: 400),
        ]
        var ids: [Int32] = []
        for value in values {
            ids.append(
                connection.client.submit(
                    path: "/3/device/" + String(repeating: "ab", count: 32),
                    headers: [
                        ("authorization", value), ("apns-topic", value), ("apns-priority", value),
                        ("apns-expiration", value), ("apns-id", value), ("apns-collapse-id", value),
                    ], body: Array(value.utf8)))
        }
        connection.pump(rounds: 50)
        for id in ids {
            let status = connection.client.header(":status", on: id)
            let closed = connection.client.closed[id]
            #expect(status != nil || closed != nil, "stream \(id) got neither an answer nor a reset")
            #expect(status != "200")
        }
    }
}
