import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// No input crashes the server session: random bytes after the preface, random frames, mutated
/// conversations and valid frames with hostile contents end in an HTTP/2 error or an answer,
/// never a trap. Each run also checks where it ended: a session that ended sent GOAWAY with an
/// HTTP/2 error code; every record is of a request the server answered; and the server still
/// answers a well-formed push on a new connection. (Random bytes and random frames end the
/// session at their first frame, FRAME_SIZE_ERROR and PROTOCOL_ERROR for these seeds; the
/// mutated conversations are the runs that stay alive, answer and record.)
@Suite struct RobustnessTests {
    /// One frame the server sent.
    struct Frame {
        var type: UInt8
        var flags: UInt8
        var streamID: Int32
        var payload: ArraySlice<UInt8>
    }

    /// The server's output split into frames; `nil` when it does not end on a frame boundary.
    static func frames(_ bytes: [UInt8]) -> [Frame]? {
        var frames: [Frame] = []
        var index = 0
        while index < bytes.count {
            guard bytes.count - index >= 9 else { return nil }
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard bytes.count - index - 9 >= length else { return nil }
            let stream = bytes[index + 5..<index + 9].reduce(0) { $0 << 8 | UInt32($1) } & 0x7FFF_FFFF
            frames.append(
                Frame(
                    type: bytes[index + 3], flags: bytes[index + 4], streamID: Int32(stream),
                    payload: bytes[index + 9..<index + 9 + length]))
            index += 9 + length
        }
        return frames
    }

    /// What a garbage run left behind.
    struct EndState {
        /// `receive` reported a connection error, or the session wants neither to read nor to
        /// write: the connection handler closes the connection in both cases.
        var closed: Bool
        var output: [UInt8]
    }

    /// Feeds `chunks` to a connection that has exchanged SETTINGS, collecting the server's
    /// output, as the connection handler would until it closes the connection.
    static func feed(_ connection: InProcessConnection, _ chunks: [[UInt8]]) -> EndState {
        connection.pump()
        var output: [UInt8] = []
        for chunk in chunks {
            let ok =
                chunk.withUnsafeBufferPointer { connection.session.receive($0) } == .read
                && !connection.session.isClosed
            connection.session.collectOutput(into: &output)
            if !ok || connection.session.stepEnded() != .serving { return EndState(closed: true, output: output) }
        }
        return EndState(closed: false, output: output)
    }

    /// The checks every garbage run ends with (see the suite's description).
    /// - Parameter mayAccept: whether the garbage may hold whole, valid pushes (a mutated
    ///   conversation can); otherwise no record may be a 200.
    static func expectEndState(
        _ end: EndState, of connection: InProcessConnection, _ label: String, mayAccept: Bool = false
    ) throws {
        let sent = try #require(Self.frames(end.output), "\(label): the server's output is not whole frames")
        let goAways = sent.filter { $0.type == 7 }
        if end.closed {
            let goAway = try #require(goAways.last, "\(label): the session ended without a GOAWAY")
            #expect(goAway.payload.count >= 8, "\(label): a GOAWAY without its error code")
            let code = goAway.payload.dropFirst(4).prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
            #expect((0x1...0xD).contains(code), "\(label): GOAWAY error code \(code) is not an HTTP/2 error")
        } else {
            #expect(goAways.isEmpty, "\(label): GOAWAY sent, yet the session is still active")
        }
        // A record that says `answered` has its answer (a HEADERS frame on its stream) in the output.
        let answered = Set(sent.filter { $0.type == 1 }.map(\.streamID))
        for record in connection.store.query(DeliveryQuery.where()).deliveries {
            #expect(
                record.outcome != .answered || answered.contains(record.streamID),
                "\(label): stream \(record.streamID) recorded as answered (\(record.status ?? 0)), but no answer went out"
            )
            #expect(mayAccept || record.status != 200, "\(label): garbage accepted on stream \(record.streamID)")
        }
        // The server is not hurt: a well-formed push on a new connection is answered and recorded.
        let fresh = try connection.sibling()
        let before = connection.store.count
        let id = fresh.client.submit(
            path: HTTP2SessionTests.path, headers: HTTP2SessionTests.headers, body: HTTP2SessionTests.payload)
        fresh.pump()
        #expect(fresh.client.header(":status", on: id) == "200", "\(label): a well-formed push after the garbage")
        #expect(connection.store.count == before + 1)
    }

    @Test(arguments: 0..<20)
    func randomBytesEndInAnHTTP2ErrorOrALiveSession(_ seed: Int) throws {
        var random = FastRandom(seed: (UInt64(seed) &+ 1, 7, 11, 13))
        let chunks = (0..<50).map { _ in
            (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        let connection = try InProcessConnection()
        try Self.expectEndState(Self.feed(connection, chunks), of: connection, "seed \(seed)")
    }

    /// Frame headers that look right (length, type, flags, stream) with random payloads.
    @Test(arguments: 0..<20)
    func randomFramesEndInAnHTTP2ErrorOrALiveSession(_ seed: Int) throws {
        var random = FastRandom(seed: (UInt64(seed) &+ 100, 3, 5, 9))
        let frames = (0..<200).map { _ in
            let length = Int(random.next() % 64)
            let type = UInt8(random.next() % 10)
            let flags = UInt8(truncatingIfNeeded: random.next())
            let stream = UInt32(random.next() % 8) * 2 + 1
            let header: [UInt8] = [
                UInt8(length >> 16), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF), type, flags,
                UInt8(stream >> 24), UInt8((stream >> 16) & 0xFF), UInt8((stream >> 8) & 0xFF), UInt8(stream & 0xFF),
            ]
            return header + (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        }
        let connection = try InProcessConnection()
        try Self.expectEndState(Self.feed(connection, frames), of: connection, "seed \(seed)")
    }

    /// A push's headers with the same bytes in every run (`TestTokens` signs with a key made
    /// per run, and ECDSA signatures are randomized): the signature is fixed bytes, which the
    /// mock does not check for a key it does not know.
    static let fixedHeaders: [(String, String)] = {
        func encode(_ bytes: [UInt8]) -> String {
            var text = ""
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            var bits = 0
            var buffer = 0
            for byte in bytes {
                buffer = buffer << 8 | Int(byte)
                bits += 8
                while bits >= 6 {
                    bits -= 6
                    text.append(alphabet[(buffer >> bits) & 0x3F])
                }
            }
            if bits > 0 { text.append(alphabet[(buffer << (6 - bits)) & 0x3F]) }
            return text
        }
        let token = [
            encode(Array(#"{"alg":"ES256","kid":"\#(TestTokens.keyID)"}"#.utf8)),
            encode(Array(#"{"iss":"\#(TestTokens.teamID)","iat":1699999990}"#.utf8)),
            encode([UInt8](repeating: 0x2A, count: 64)),
        ].joined(separator: ".")
        return [("authorization", "bearer " + token)] + HTTP2SessionTests.headers.filter { $0.0 != "authorization" }
    }()

    /// A valid conversation (four pushes, headers and bodies) with one to three bytes changed,
    /// fed in random pieces: the garbage reaches past the first frame, into HPACK, flow control
    /// and half-received requests. A push left whole may be accepted; a request the mutation
    /// cut short must not be recorded.
    @Test(arguments: 0..<400)
    func mutatedConversationsEndInAnHTTP2ErrorOrALiveSession(_ seed: Int) throws {
        var random = FastRandom(seed: (UInt64(seed) &+ 1000, 17, 19, 23))
        let writer = HTTP2TestClient()
        for index in 0..<4 {
            _ = writer.submit(
                path: "/3/device/" + String(repeating: "0\(index)", count: 32), headers: Self.fixedHeaders,
                body: HTTP2SessionTests.payload)
        }
        var bytes = Array(writer.output().dropFirst(24))
        for _ in 0...(random.next() % 3) {
            bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
        }
        var chunks: [[UInt8]] = []
        while !bytes.isEmpty {
            let count = min(bytes.count, 1 + Int(random.next() % 64))
            chunks.append(Array(bytes.prefix(count)))
            bytes.removeFirst(count)
        }
        let connection = try InProcessConnection()
        let end = Self.feed(connection, chunks)
        try Self.expectEndState(end, of: connection, "seed \(seed)", mayAccept: true)
        if Self.sessionEndsInTheReadOfARequest.contains(seed) {
            let records = connection.store.query(DeliveryQuery()).deliveries
            #expect(
                records.contains { $0.outcome == .connectionClosed && $0.response == nil },
                "seed \(seed): \(records.map(\.outcome))")
        }
    }

    /// Seeds whose mutation ends the session (GOAWAY FRAME_SIZE_ERROR) in the same read that
    /// completes a request: that request is recorded `connectionClosed`, not answered (no answer
    /// goes out after the library's GOAWAY). They once were recorded as answered.
    static let sessionEndsInTheReadOfARequest: Set<Int> = [143, 189]

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
