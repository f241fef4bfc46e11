import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import CNGHTTP2
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// The HTTP/2 layer without sockets: an nghttp2 client session talks to the server session.
/// Frame layouts follow "Handling notification responses from APNs" (Apple Developer).
@Suite struct HTTP2SessionTests {
    static let token = String(repeating: "ab", count: 32)
    static let path = "/3/device/" + token
    static let headers: [(String, String)] = [
        ("authorization", "bearer " + TestTokens.make()), ("apns-topic", "com.example.app"),
        ("apns-push-type", "alert"), ("apns-priority", "10"),
    ]
    static let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    let headersType = UInt8(NGHTTP2_HEADERS.rawValue)
    let dataType = UInt8(NGHTTP2_DATA.rawValue)
    let rstType = UInt8(NGHTTP2_RST_STREAM.rawValue)
    let endStream = UInt8(NGHTTP2_FLAG_END_STREAM.rawValue)

    @Test func serverSettingsAreAPNsValues() throws {
        let connection = try InProcessConnection()
        connection.pump()
        let settings = connection.client.session.map { session in
            [
                NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, NGHTTP2_SETTINGS_HEADER_TABLE_SIZE,
                NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE,
                NGHTTP2_SETTINGS_MAX_FRAME_SIZE,
            ].map { nghttp2_session_get_remote_settings(session, $0) }
        }
        #expect(settings == [1000, 4096, 8000, 65_535, 16_384])
    }

    @Test func settingsAreConfigurable() throws {
        let connection = try InProcessConnection(
            settings: HTTP2Settings(maxConcurrentStreams: 7, maxHeaderListSize: 9000))
        connection.pump()
        let session = connection.client.session
        #expect(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS) == 7)
        #expect(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE) == 9000)
    }

    @Test func successIsOneHeadersFrameWithEndStream() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(path: Self.path, headers: Self.headers, body: Self.payload)
        connection.pump()
        let frames = connection.client.frames(on: id)
        #expect(frames.count == 1)
        #expect(frames.first?.type == headersType)
        #expect((frames.first?.flags ?? 0) & endStream != 0)
        #expect(connection.client.header(":status", on: id) == "200")
        let apnsID = try #require(connection.client.header("apns-id", on: id))
        #expect(APNSMessageID.isValid(apnsID) && apnsID == apnsID.uppercased())
        #expect(connection.client.header("apns-unique-id", on: id) != nil)
        #expect(connection.client.bodies[id] == nil)
    }

    @Test func productionSendsNoUniqueID() throws {
        let connection = try InProcessConnection(environment: .production)
        let id = connection.client.submit(path: Self.path, headers: Self.headers, body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "200")
        #expect(connection.client.header("apns-unique-id", on: id) == nil)
    }

    @Test func autoEnvironmentFollowsAuthority() throws {
        let connection = try InProcessConnection(environment: .auto)
        let production = connection.client.submit(
            path: Self.path, authority: "api.push.apple.com:443", headers: Self.headers, body: Self.payload)
        let sandbox = connection.client.submit(
            path: Self.path, authority: "localhost:2197", headers: Self.headers, body: Self.payload)
        connection.pump()
        #expect(connection.client.header("apns-unique-id", on: production) == nil)
        #expect(connection.client.header("apns-unique-id", on: sandbox) != nil)
        let page = connection.store.query(DeliveryQuery.where())
        #expect(page.deliveries.map(\.environment) == [.production, .sandbox])
    }

    @Test func errorIsHeadersThenOneDataFrameWithReason() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(path: "/3/device/nothex", headers: Self.headers, body: Self.payload)
        connection.pump()
        let frames = connection.client.frames(on: id)
        #expect(frames.map(\.type) == [headersType, dataType])
        #expect(frames[0].flags & endStream == 0)
        #expect(frames[1].flags & endStream != 0)
        #expect(connection.client.header(":status", on: id) == "400")
        #expect(connection.client.header("content-type", on: id) == "application/json")
        #expect(connection.client.header("apns-id", on: id) != nil)
        #expect(connection.client.bodies[id] == Array(#"{"reason":"BadDeviceToken"}"#.utf8))
    }

    @Test(arguments: ["7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D", "7f4c2b9e-1d3a-4f5b-8c6d-0e1f2a3b4c5d"])
    func apnsIDIsEchoedByteForByte(_ sent: String) throws {
        let connection = try InProcessConnection()
        let ok = connection.client.submit(
            path: Self.path, headers: Self.headers + [("apns-id", sent)], body: Self.payload)
        let bad = connection.client.submit(
            path: "/3/device/zz", headers: Self.headers + [("apns-id", sent)], body: Self.payload)
        connection.pump()
        #expect(connection.client.header("apns-id", on: ok) == sent)
        #expect(connection.client.header("apns-id", on: bad) == sent)
        #expect(connection.store.latest(apnsID: sent.uppercased())?.apnsIDGenerated == false)
    }

    @Test func duplicateAPNsHeadersReachTheRules() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(
            path: Self.path, headers: Self.headers + [("apns-topic", "com.example.other")], body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "400")
        #expect(connection.client.bodies[id] == Array(#"{"reason":"DuplicateHeaders"}"#.utf8))
    }

    /// libnghttp2's own HTTP messaging checks stay on: a repeated pseudo-header is reset with
    /// PROTOCOL_ERROR before any callback, so no answer and no record exist for it.
    @Test func repeatedPseudoHeaderIsResetByNghttp2() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(
            path: Self.path, headers: [(":path", "/3/device/abcd")] + Self.headers, body: Self.payload)
        connection.pump()
        #expect(connection.client.closed[id] == NGHTTP2_PROTOCOL_ERROR.rawValue)
        #expect(connection.client.header(":status", on: id) == nil)
        #expect(connection.store.count == 0)
    }

    @Test func headerListOverTheLimitGets431() throws {
        let connection = try InProcessConnection()
        let big = String(repeating: "x", count: 8100)
        let id = connection.client.submit(path: Self.path, headers: Self.headers + [("x-big", big)], body: Self.payload)
        let fine = connection.client.submit(path: Self.path, headers: Self.headers, body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "431")
        #expect(connection.client.bodies[id] == Array(#"{"reason":"HeaderListTooLarge"}"#.utf8))
        #expect(connection.client.header(":status", on: fine) == "200")
    }

    @Test func bodyOverTheLimitWithinOneWindowIsAnsweredAtEndStream() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(
            path: Self.path, headers: Self.headers, body: [UInt8](repeating: 0x20, count: 20_000))
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "413")
        #expect(connection.client.bodies[id] == Array(#"{"reason":"PayloadTooLarge"}"#.utf8))
        #expect(connection.client.closed[id] == NGHTTP2_NO_ERROR.rawValue)
        #expect(!connection.client.frames(on: id).contains { $0.type == rstType })
        let record = try #require(connection.store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.payloadSize == 20_000)
        #expect(record.payload.count <= APNSPushType.largestPayloadLimit)
    }

    /// The answer goes out once the body passes one flow-control window, before END_STREAM;
    /// the rest is read and discarded (no RST_STREAM: curl 7.88 reports RST_STREAM NO_ERROR
    /// after a complete response as a failure).
    @Test func bodyLargerThanOneWindowIsAnsweredEarly() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(
            path: Self.path, headers: Self.headers, body: [UInt8](repeating: 0x20, count: 300_000))
        connection.pump(rounds: 100)
        #expect(connection.client.header(":status", on: id) == "413")
        #expect(connection.client.bodies[id] == Array(#"{"reason":"PayloadTooLarge"}"#.utf8))
        let types = connection.client.frames(on: id).map(\.type).filter {
            $0 == headersType || $0 == dataType || $0 == rstType
        }
        #expect(types == [headersType, dataType])
        #expect(connection.client.closed[id] == NGHTTP2_NO_ERROR.rawValue)
        #expect(connection.store.count == 1)
    }

    @Test func headerErrorsStillWinOverAnEarlyTooLargeAnswer() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(
            path: Self.path, headers: [Self.headers[0], ("apns-topic", "com.example.app"), ("apns-priority", "3")],
            body: [UInt8](repeating: 0x20, count: 200_000))
        connection.pump(rounds: 100)
        #expect(connection.client.bodies[id] == Array(#"{"reason":"BadPriority"}"#.utf8))
    }

    @Test func manyStreamsOnOneConnection() throws {
        let connection = try InProcessConnection()
        var expected: [Int32: (apnsID: String, status: String)] = [:]
        for index in 0..<200 {
            let apnsID = APNSMessageID.format(high: UInt64(index), low: 0x8000_0000_0000_0000)
            let bad = index % 10 == 9
            let id = connection.client.submit(
                path: bad ? "/3/device/bad" : Self.path, headers: Self.headers + [("apns-id", apnsID)],
                body: Self.payload)
            expected[id] = (apnsID, bad ? "400" : "200")
        }
        connection.pump(rounds: 200)
        for (id, want) in expected {
            #expect(connection.client.header("apns-id", on: id) == want.apnsID)
            #expect(connection.client.header(":status", on: id) == want.status)
        }
        #expect(connection.store.count == 200)
        #expect(connection.store.query(DeliveryQuery.where(status: 400)).total == 20)
        #expect(!connection.client.goAwayReceived)
    }

    @Test func hostHeaderStandsInForAuthority() throws {
        let connection = try InProcessConnection(environment: .auto)
        let id = connection.client.submit(
            path: Self.path, authority: nil, headers: [("host", "api.push.apple.com")] + Self.headers,
            body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "200")
        let record = try #require(connection.store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.authority == "api.push.apple.com")
        #expect(record.environment == .production)
    }

    @Test func everyRequestIsRecordedWithItsAnswer() throws {
        let connection = try InProcessConnection()
        let id = connection.client.submit(
            method: "GET", path: Self.path,
            headers: Self.headers.dropFirst() + [("authorization", "bearer a.b.SIGNATURE")])
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "405")
        let record = try #require(connection.store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.method == "GET")
        #expect(record.status == 405)
        #expect(record.reason == .methodNotAllowed)
        #expect(record.token == Self.token)
        #expect(record.streamID == id)
        #expect(record.header("authorization") == "bearer a.b")
    }
}
