import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import CNGHTTP2
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// Streams whose answer the connection owes (a fault rule's delay or hang) and the effects that
/// end them, in process: the frames the client receives, what the session asks of its driver
/// (timers, closing) and the store's records, exactly. These pin today's behaviour before the
/// connection machine is redesigned (issue 31, `docs/design/issue-31-machine-plan.md`, step 0):
/// timers fire through a `RecordingDriver`, never the clock.
@Suite struct OwedStreamTests {
    static let token = String(repeating: "ab", count: 32)
    static let otherToken = String(repeating: "cd", count: 32)
    static let sentAPNSID = "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"
    static let bundleID = "com.example.app"
    static let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
    static let shutdownDebug = #"{"reason":"Shutdown"}"#
    /// One provider token for every request (a new one on the same connection would be an update).
    static let authorization = "bearer " + TestTokens.make()

    /// A connection whose session reports to a `RecordingDriver`, under fault `rules` (rule JSON),
    /// its SETTINGS exchanged.
    static func connection(
        rules: [String], service: APNSService = .push, authentication: AuthenticationMode = .token,
        registry: Registry = Registry()
    ) throws -> (InProcessConnection, RecordingDriver) {
        let faults = FaultControl()
        for rule in rules { _ = try faults.addRule(json: try #require(JSONValue.parse(rule)), now: 0) }
        let driver = RecordingDriver()
        let connection = try InProcessConnection(
            authentication: authentication, registry: registry, faults: faults, service: service, driver: driver)
        #expect(connection.pump() == [])
        return (connection, driver)
    }

    /// Submits an alert push to `token` (`path` instead of the device path when given), with
    /// `apnsID` as its `apns-id` when given; returns the stream.
    static func push(
        on connection: InProcessConnection, token: String = token, path: String? = nil, apnsID: String? = nil
    ) -> Int32 {
        var headers = [
            ("authorization", authorization), ("apns-topic", bundleID), ("apns-push-type", "alert"),
        ]
        if let apnsID { headers.append(("apns-id", apnsID)) }
        return connection.client.submit(path: path ?? "/3/device/" + token, headers: headers, body: payload)
    }

    /// Submits `POST /1/apps/com.example.app/channels` (a storing Live Activity channel) with
    /// `sentAPNSID` as its `apns-request-id`; returns the stream.
    static func createChannel(on connection: InProcessConnection) -> Int32 {
        connection.client.submit(
            path: "/1/apps/\(bundleID)/channels", authority: "api-manage-broadcast.sandbox.push.apple.com:2195",
            headers: [
                ("authorization", authorization), ("apns-request-id", sentAPNSID),
                ("content-type", "application/json"),
            ],
            body: Array(#"{"message-storage-policy":1,"push-type":"LiveActivity"}"#.utf8))
    }

    /// The record with sequence number `sequence` (records are numbered from 1 in arrival order).
    static func record(_ sequence: UInt64, in connection: InProcessConnection) throws -> DeliveryRecord {
        try #require(connection.store.record(sequence: sequence))
    }

    /// The value of the metric sample `sample` (its name and labels, as the exposition writes
    /// them); 0 when it is absent.
    static func metric(_ sample: String, in connection: InProcessConnection) -> Int {
        let lines = String(decoding: connection.context.metrics.exposition(), as: UTF8.self).split(separator: "\n")
        return lines.first { $0.hasPrefix(sample + " ") }.flatMap { Int($0.dropFirst(sample.count + 1)) } ?? 0
    }

    // MARK: delay

    /// A delayed push: recorded `pending` with its final apns-id when it is decided; when the
    /// timer fires the answer goes out and the same record is completed `answered`, once. The
    /// wire's `apns-id` is the record's, echoed or generated (the store mints a generated id's
    /// low bits, and the answer is patched with them).
    @Test(arguments: [nil, sentAPNSID])
    func aDelayedAnswerGoesOutWhenItsTimerFires(sentAPNSID: String?) throws {
        let (connection, driver) = try Self.connection(rules: [#"{"action": {"delay": {"duration": "500ms"}}}"#])
        let stream = Self.push(on: connection, apnsID: sentAPNSID)
        #expect(connection.pump() == [])
        #expect(driver.calls == [.startTimer(streamID: stream, milliseconds: 500)])
        let pending = try Self.record(1, in: connection)
        #expect(pending.outcome == .pending)
        #expect(pending.response == nil)
        #expect(pending.streamID == stream)
        if let sentAPNSID {
            #expect(pending.apnsID == .echoed(sentAPNSID))
        } else {
            #expect(pending.apnsIDGenerated)
        }
        #expect(connection.store.completionCount == 0)

        connection.clock.advance(seconds: 2)
        driver.fire(stream)
        #expect(connection.pump() == [.headers(stream: stream, endStream: true)])
        #expect(connection.client.header(":status", on: stream) == "200")
        let answered = try Self.record(1, in: connection)
        #expect(answered.outcome == .answered)
        #expect(answered.response == DeliveryResponse(status: 200, reason: nil, respondedAt: connection.clock.now))
        #expect(answered.apnsID == pending.apnsID)
        #expect(connection.client.header("apns-id", on: stream) == answered.apnsID.text)
        #expect(connection.store.completionCount == 1)
        #expect(connection.store.count == 1)
        #expect(driver.calls == [.startTimer(streamID: stream, milliseconds: 500)], "nothing cancelled")
    }

    /// A delayed rejection (a malformed device token: 400 BadDeviceToken, with a body) goes out
    /// when the timer fires, and its `apns-id` is the record's.
    @Test(arguments: [nil, sentAPNSID])
    func aDelayedRejectionCarriesTheRecordsAPNSID(sentAPNSID: String?) throws {
        let (connection, driver) = try Self.connection(rules: [#"{"action": {"delay": {"duration": "500ms"}}}"#])
        let stream = Self.push(on: connection, path: "/3/device/nothex", apnsID: sentAPNSID)
        #expect(connection.pump() == [])
        #expect(try Self.record(1, in: connection).outcome == .pending)
        driver.fire(stream)
        #expect(
            connection.pump() == [.headers(stream: stream, endStream: false), .data(stream: stream, endStream: true)])
        #expect(connection.client.header(":status", on: stream) == "400")
        #expect(connection.client.bodies[stream] == Array(#"{"reason":"BadDeviceToken"}"#.utf8))
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .answered)
        #expect(record.status == 400)
        #expect(record.reason == .badDeviceToken)
        #expect(record.apnsIDGenerated == (sentAPNSID == nil))
        #expect(connection.client.header("apns-id", on: stream) == record.apnsID.text)
    }

    /// A delayed answer is counted (`apns_mock_requests_total`, the latency histogram) when it
    /// goes out, not when it is decided.
    @Test func aDelayedAnswerIsCountedWhenItGoesOut() throws {
        let (connection, driver) = try Self.connection(rules: [#"{"action": {"delay": {"duration": "500ms"}}}"#])
        let requests = #"apns_mock_requests_total{kind="push",push_type="alert",status="200",reason=""}"#
        let latencies = "apns_mock_answer_latency_seconds_count"
        let stream = Self.push(on: connection)
        #expect(connection.pump() == [])
        #expect(Self.metric(requests, in: connection) == 0)
        #expect(Self.metric(latencies, in: connection) == 0)
        driver.fire(stream)
        #expect(connection.pump() == [.headers(stream: stream, endStream: true)])
        #expect(Self.metric(requests, in: connection) == 1)
        #expect(Self.metric(latencies, in: connection) == 1)
    }

    // MARK: the client resets

    /// A stream held by a hang (no timer) or a delay (its timer cancelled) that the client resets
    /// is recorded `cancelled`; nothing more goes out on it. A late firing of a cancelled timer
    /// (one that raced the cancel) changes nothing.
    @Test(arguments: [false, true])
    func aStreamTheClientResetsWhileItWaitsIsRecordedCancelled(delayed: Bool) throws {
        let action = delayed ? #"{"delay": {"duration": "500ms"}}"# : #"{"hang": {}}"#
        let (connection, driver) = try Self.connection(rules: [#"{"action": \#(action)}"#])
        let stream = Self.push(on: connection)
        #expect(connection.pump() == [])
        let started: [RecordingDriver.Call] = delayed ? [.startTimer(streamID: stream, milliseconds: 500)] : []
        #expect(driver.calls == started)
        #expect(try Self.record(1, in: connection).outcome == (delayed ? .pending : .hung))

        _ = nghttp2_submit_rst_stream(
            connection.client.session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, NGHTTP2_CANCEL.rawValue)
        #expect(connection.pump() == [])
        #expect(driver.calls == started + (delayed ? [.cancelTimer(streamID: stream)] : []))
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .cancelled)
        #expect(record.response == nil)
        #expect(connection.store.completionCount == 1)
        #expect(Self.metric(#"apns_mock_requests_unanswered_total{outcome="cancelled"}"#, in: connection) == 1)

        #expect(connection.session.timerFired(streamID: stream) == nil, "a stale timer asks nothing")
        #expect(connection.pump() == [])
        #expect(try Self.record(1, in: connection).outcome == .cancelled)
        #expect(connection.store.completionCount == 1)
    }

    /// The client resets a stream in the same read that completed its request, under a delay
    /// or a hang: the close is reported after the read's decisions, so the stream is recorded
    /// `cancelled` and its timer cancelled. (Before every close was reported, its close came
    /// before the session watched it: a delay "answered" a closed stream and a hang ended
    /// `connectionClosed`.)
    @Test(arguments: [false, true])
    func aStreamResetInTheReadThatCompletedItIsCancelled(delayed: Bool) throws {
        let action = delayed ? #"{"delay": {"duration": "500ms"}}"# : #"{"hang": {}}"#
        let (connection, driver) = try Self.connection(rules: [#"{"action": \#(action)}"#])
        connection.pump()
        let stream = Self.push(on: connection)
        // The request's frames and then the reset, handed to the server in one read.
        var bytes = connection.client.output()
        _ = nghttp2_submit_rst_stream(
            connection.client.session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, NGHTTP2_CANCEL.rawValue)
        bytes += connection.client.output()
        #expect(bytes.withUnsafeBufferPointer { connection.session.receive($0) } == .read)
        #expect(connection.pump() == [])
        let started: [RecordingDriver.Call] =
            delayed ? [.startTimer(streamID: stream, milliseconds: 500), .cancelTimer(streamID: stream)] : []
        #expect(driver.calls == started)
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .cancelled)
        #expect(record.response == nil)
        #expect(connection.store.completionCount == 1)
    }

    // MARK: effects after a delay

    /// `delay` then `resetStream`: RST_STREAM with the rule's code when the timer fires; the
    /// record is completed `reset`, without a response.
    @Test func aDelayedResetSendsTheRulesCode() throws {
        let (connection, driver) = try Self.connection(rules: [
            #"{"action": {"delay": {"duration": "500ms"}, "resetStream": {"errorCode": "INTERNAL_ERROR"}}}"#
        ])
        let stream = Self.push(on: connection)
        #expect(connection.pump() == [])
        #expect(try Self.record(1, in: connection).outcome == .pending)
        driver.fire(stream)
        #expect(connection.pump() == [.resetStream(stream: stream, .internalError)])
        #expect(connection.client.closed[stream] == HTTP2ErrorCode.internalError.rawValue)
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .reset)
        #expect(record.response == nil)
        #expect(driver.calls == [.startTimer(streamID: stream, milliseconds: 500)])
        #expect(Self.metric(#"apns_mock_requests_unanswered_total{outcome="reset"}"#, in: connection) == 1)
    }

    /// `delay` then `goaway` naming stream 1, on stream 1, while stream 3 waits for a longer
    /// delay: when 1's timer fires it is answered (the GOAWAY covers it; answer first), the
    /// GOAWAY goes out, and 3, above the GOAWAY's last stream, is refused at once by the GOAWAY
    /// (its timer cancelled, its record completed `goAway` without a response).
    @Test func aDelayedGoAwayAnswersTheStreamItCoversAndRefusesAWaitingStreamAboveIt() throws {
        let (connection, driver) = try Self.connection(rules: [
            #"{"match": {"token": "\#(Self.token)"}, "action": {"delay": {"duration": "500ms"}, "goaway": {"lastStreamId": 1}}}"#,
            #"{"match": {"token": "\#(Self.otherToken)"}, "action": {"delay": {"duration": "1s"}}}"#,
        ])
        let covered = Self.push(on: connection)
        let above = Self.push(on: connection, token: Self.otherToken)
        #expect(covered == 1)
        #expect(above == 3)
        #expect(connection.pump() == [])
        #expect(
            driver.calls == [
                .startTimer(streamID: covered, milliseconds: 500), .startTimer(streamID: above, milliseconds: 1000),
            ])
        #expect(try Self.record(1, in: connection).outcome == .pending)
        #expect(try Self.record(2, in: connection).outcome == .pending)

        driver.fire(covered)
        // Today the machine's RST_STREAM REFUSED_STREAM for 3 never reaches the wire: libnghttp2 closes the streams a
        // GOAWAY it sends does not cover, and the client closes 3 as refused on reading the GOAWAY.
        #expect(
            connection.pump() == [
                .headers(stream: covered, endStream: true), .goAway(lastStream: 1, .noError, debug: Self.shutdownDebug),
            ])
        #expect(
            connection.client.closed == [
                covered: HTTP2ErrorCode.noError.rawValue, above: HTTP2ErrorCode.refusedStream.rawValue,
            ])
        #expect(
            driver.calls == [
                .startTimer(streamID: covered, milliseconds: 500), .startTimer(streamID: above, milliseconds: 1000),
                .cancelTimer(streamID: above),
            ])
        let answered = try Self.record(1, in: connection)
        #expect(answered.outcome == .answered)
        #expect(answered.status == 200)
        #expect(connection.client.header("apns-id", on: covered) == answered.apnsID.text)
        let refused = try Self.record(2, in: connection)
        #expect(refused.outcome == .goAway)
        #expect(refused.response == nil)
        #expect(connection.session.stepEnded() != .serving, "GOAWAY sent, no stream left open")
    }

    /// `delay` then `goaway` naming stream 0 with an error code, on stream 1: when the timer fires
    /// the GOAWAY goes out and refuses the stream it does not cover; the record is completed
    /// `goAway` without a response, and the connection closes after a flush that carries the GOAWAY.
    @Test func aDelayedGoAwayThatDoesNotCoverItsStreamRefusesItAndCloses() throws {
        let (connection, driver) = try Self.connection(rules: [
            #"{"action": {"delay": {"duration": "500ms"}, "goaway": {"lastStreamId": 0, "errorCode": "ENHANCE_YOUR_CALM"}}}"#
        ])
        let stream = Self.push(on: connection)
        #expect(connection.pump() == [])
        driver.fire(stream)
        // Today the machine's RST_STREAM REFUSED_STREAM never reaches the wire: libnghttp2 closes the streams a GOAWAY it
        // sends does not cover, and the client closes the stream as refused on reading the GOAWAY.
        let frames: [ServerFrame] = [.goAway(lastStream: 0, .enhanceYourCalm, debug: Self.shutdownDebug)]
        #expect(
            driver.calls == [
                .startTimer(streamID: stream, milliseconds: 500), .closeConnection(afterFlush: true, flushed: frames),
            ])
        #expect(connection.pump() == frames)
        #expect(connection.client.closed == [stream: HTTP2ErrorCode.refusedStream.rawValue])
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .goAway)
        #expect(record.response == nil)
        #expect(
            connection.session.connectionClosed(error: nil)
                == .goAwayWithError(HTTP2ErrorCode.enhanceYourCalm.rawValue))
        #expect(try Self.record(1, in: connection).outcome == .goAway, "completed once")
    }

    /// `close`, with or without answering first, at once or after a delay: the answer (when it
    /// goes first) is flushed in the close call itself; the record is `answered`, or
    /// `connectionClosed` without a response, before the connection has closed.
    @Test(arguments: [false, true], [false, true])
    func aCloseRuleClosesAfterAnsweringOrWithout(respondFirst: Bool, delayed: Bool) throws {
        let delay = delayed ? #""delay": {"duration": "500ms"}, "# : ""
        let (connection, driver) = try Self.connection(rules: [
            #"{"action": {\#(delay)"close": {"respondFirst": \#(respondFirst)}}}"#
        ])
        let stream = Self.push(on: connection)
        let answer: [ServerFrame] = respondFirst ? [.headers(stream: stream, endStream: true)] : []
        let close = RecordingDriver.Call.closeConnection(afterFlush: respondFirst, flushed: answer)
        let frames: [ServerFrame]
        if delayed {
            #expect(connection.pump() == [])
            #expect(driver.calls == [.startTimer(streamID: stream, milliseconds: 500)])
            #expect(try Self.record(1, in: connection).outcome == .pending)
            driver.fire(stream)
            #expect(driver.calls == [.startTimer(streamID: stream, milliseconds: 500), close])
            frames = connection.pump()
        } else {
            frames = connection.pump()
            #expect(driver.calls == [close])
        }
        #expect(frames == answer)
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == (respondFirst ? .answered : .connectionClosed))
        #expect(record.status == (respondFirst ? 200 : nil))
        if respondFirst { #expect(connection.client.header("apns-id", on: stream) == record.apnsID.text) }
        #expect(connection.session.connectionClosed(error: nil) == .faultRuleClose)
        #expect(try Self.record(1, in: connection).outcome == record.outcome, "completed once")
    }

    // MARK: the connection ends

    /// A graceful shutdown while a stream is delayed: GOAWAY NO_ERROR naming the last stream
    /// processed goes out at once; the delayed answer when its timer fires, and then the
    /// session has nothing left to do.
    @Test func aShutdownSendsGoAwayNowAndTheDelayedAnswerWhenItsTimerFires() throws {
        let (connection, driver) = try Self.connection(rules: [#"{"action": {"delay": {"duration": "500ms"}}}"#])
        let stream = Self.push(on: connection)
        #expect(connection.pump() == [])
        #expect(connection.session.shutdown(debugData: Array(Self.shutdownDebug.utf8)) == nil, "no close yet")
        #expect(connection.pump() == [.goAway(lastStream: stream, .noError, debug: Self.shutdownDebug)])
        #expect(try Self.record(1, in: connection).outcome == .pending)
        #expect(connection.session.stepEnded() == .serving)

        driver.fire(stream)
        #expect(connection.pump() == [.headers(stream: stream, endStream: true)])
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .answered)
        #expect(connection.client.header("apns-id", on: stream) == record.apnsID.text)
        #expect(connection.session.stepEnded() != .serving)
        #expect(
            driver.calls == [.startTimer(streamID: stream, milliseconds: 500)],
            "the session ended by itself: the handler closes on stepEnded, no step asked")
    }

    /// The connection closes while one stream is delayed and one hung: the delay's timer is
    /// cancelled (the hang has none) and both records are completed `connectionClosed`.
    @Test func aClosedConnectionEndsItsDelayedAndHungStreams() throws {
        let (connection, driver) = try Self.connection(rules: [
            #"{"match": {"token": "\#(Self.token)"}, "action": {"delay": {"duration": "500ms"}}}"#,
            #"{"match": {"token": "\#(Self.otherToken)"}, "action": {"hang": {}}}"#,
        ])
        let delayed = Self.push(on: connection)
        let hung = Self.push(on: connection, token: Self.otherToken)
        #expect(connection.pump() == [])
        #expect(driver.calls == [.startTimer(streamID: delayed, milliseconds: 500)])
        #expect(try Self.record(1, in: connection).outcome == .pending)
        #expect(try Self.record(2, in: connection).outcome == .hung)

        #expect(connection.session.connectionClosed(error: nil) == .clientClosed)
        #expect(
            driver.calls == [.startTimer(streamID: delayed, milliseconds: 500), .cancelTimer(streamID: delayed)])
        for sequence: UInt64 in [1, 2] {
            let record = try Self.record(sequence, in: connection)
            #expect(record.outcome == .connectionClosed)
            #expect(record.response == nil)
        }
        #expect(try Self.record(1, in: connection).streamID == delayed)
        #expect(try Self.record(2, in: connection).streamID == hung)
        #expect(connection.store.completionCount == 2)
        #expect(Self.metric(#"apns_mock_requests_unanswered_total{outcome="connectionClosed"}"#, in: connection) == 2)
    }

    /// A certificate of the other environment is answered with GOAWAY instead of a status; after
    /// a delay, when the timer fires: GOAWAY NO_ERROR naming stream 0 with the reason as debug
    /// data, flushed in a close call. The record, completed `goAway`, keeps the client's apns-id.
    @Test func aDelayedGoAwayInsteadOfAnswerKeepsTheClientsAPNSID() throws {
        let identity = CertificateIdentity(
            subject: "UID=com.example.app", topics: [Self.bundleID], bundleID: Self.bundleID,
            environment: .production)
        let (connection, driver) = try Self.connection(
            rules: [#"{"action": {"delay": {"duration": "500ms"}}}"#], authentication: .certificate(identity))
        let stream = connection.client.submit(
            path: "/3/device/" + Self.token, headers: [("apns-id", Self.sentAPNSID)], body: Self.payload)
        #expect(connection.pump() == [])
        #expect(try Self.record(1, in: connection).outcome == .pending)
        connection.clock.advance(seconds: 1)
        driver.fire(stream)
        let goAway = ServerFrame.goAway(lastStream: 0, .noError, debug: #"{"reason":"BadCertificateEnvironment"}"#)
        #expect(
            driver.calls == [
                .startTimer(streamID: stream, milliseconds: 500), .closeConnection(afterFlush: true, flushed: [goAway]),
            ])
        #expect(connection.pump() == [goAway])
        #expect(connection.client.header(":status", on: stream) == nil)
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .goAway)
        #expect(
            record.response
                == DeliveryResponse(
                    status: nil, reason: .badCertificateEnvironment, respondedAt: connection.clock.now, goAway: true))
        #expect(record.apnsID == .echoed(Self.sentAPNSID))
        #expect(
            connection.session.connectionClosed(error: nil) == .goAwayInsteadOfAnswer("BadCertificateEnvironment"))
    }

    // MARK: channels and broadcasts

    /// A channel create on the channel-management service, after a delay: the channel is made when
    /// the timer fires, and the answer's `apns-channel-id` is the registry's channel; the
    /// `apns-request-id` is the record's.
    @Test func aDelayedChannelCreateMakesTheChannelWhenItsTimerFires() throws {
        let (connection, driver) = try Self.connection(
            rules: [#"{"match": {"kind": "channel"}, "action": {"delay": {"duration": "500ms"}}}"#],
            service: .channelManagement)
        let stream = Self.createChannel(on: connection)
        #expect(connection.pump() == [])
        let scope = ChannelScope(bundleID: Self.bundleID, environment: .sandbox)
        #expect(connection.registry.channelDirectory().channels(in: scope).isEmpty)
        let pending = try Self.record(1, in: connection)
        #expect(pending.outcome == .pending)
        #expect(pending.channelID == nil)

        driver.fire(stream)
        #expect(connection.pump() == [.headers(stream: stream, endStream: true)])
        #expect(connection.client.header(":status", on: stream) == "201")
        let channels = connection.registry.channelDirectory().channels(in: scope).map(\.id)
        #expect(channels.count == 1)
        #expect(connection.client.header("apns-channel-id", on: stream) == channels.first)
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .answered)
        #expect(record.status == 201)
        // The completed record names the channel the create made, as an undelayed one does.
        #expect(record.channelID == channels.first)
        #expect(record.apnsID == .echoed(Self.sentAPNSID))
        #expect(connection.client.header("apns-request-id", on: stream) == record.apnsID.text)
        #expect(connection.client.header("apns-id", on: stream) == nil)
    }

    /// A channel create under a `goaway` rule (answer first), at once or after a delay: the 201
    /// goes out whole before the GOAWAY, and its `apns-channel-id` is the registry's channel.
    @Test(arguments: [false, true])
    func aChannelCreateUnderAGoAwayIsAnsweredFirst(delayed: Bool) throws {
        let delay = delayed ? #""delay": {"duration": "500ms"}, "# : ""
        let (connection, driver) = try Self.connection(
            rules: [#"{"match": {"kind": "channel"}, "action": {\#(delay)"goaway": {"order": "answerFirst"}}}"#],
            service: .channelManagement)
        let stream = Self.createChannel(on: connection)
        let frames: [ServerFrame] = [
            .headers(stream: stream, endStream: true), .goAway(lastStream: stream, .noError, debug: Self.shutdownDebug),
        ]
        if delayed {
            #expect(connection.pump() == [])
            #expect(try Self.record(1, in: connection).outcome == .pending)
            driver.fire(stream)
        }
        #expect(connection.pump() == frames)
        #expect(driver.calls == (delayed ? [.startTimer(streamID: stream, milliseconds: 500)] : []))
        #expect(connection.client.header(":status", on: stream) == "201")
        let scope = ChannelScope(bundleID: Self.bundleID, environment: .sandbox)
        let channels = connection.registry.channelDirectory().channels(in: scope).map(\.id)
        #expect(channels.count == 1)
        #expect(connection.client.header("apns-channel-id", on: stream) == channels.first)
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .answered)
        #expect(record.status == 201)
        // Decided at once or after the delay, the record names its channel.
        #expect(record.channelID == channels.first)
        #expect(connection.client.header("apns-request-id", on: stream) == record.apnsID.text)
    }

    /// A delayed broadcast whose channel is deleted before the timer fires: answered 400
    /// ChannelNotRegistered (as the registry is then, not as the rules saw it), on the wire and
    /// in the record; the generated `apns-request-id` is the record's; no device gets it.
    @Test func aDelayedBroadcastToAChannelDeletedMeanwhileIsNotRegistered() throws {
        let registry = Registry()
        // Not SystemRandomNumberGenerator: ThreadSanitizer crashes on an `inout` of a zero-sized
        // value (see Registry's own generator).
        var random = FastRandom()
        let channel = try registry.createChannel(
            in: ChannelScope(bundleID: Self.bundleID, environment: .sandbox), storagePolicy: .noMessageStored,
            createdAt: 1_700_000_000_000, using: &random)
        let (connection, driver) = try Self.connection(
            rules: [#"{"match": {"kind": "broadcast"}, "action": {"delay": {"duration": "500ms"}}}"#],
            registry: registry)
        let stream = connection.client.submit(
            path: "/4/broadcasts/apps/" + Self.bundleID,
            headers: [
                ("authorization", Self.authorization), ("apns-channel-id", channel.id),
                ("apns-push-type", "LiveActivity"), ("apns-priority", "10"), ("apns-expiration", "0"),
            ],
            body: Array(#"{"aps":{"event":"update","timestamp":1700000000,"content-state":{"score":"2-1"}}}"#.utf8))
        #expect(connection.pump() == [])
        let pending = try Self.record(1, in: connection)
        #expect(pending.kind == .broadcast)
        #expect(pending.outcome == .pending)
        #expect(pending.channelID == channel.id)

        #expect(registry.deleteChannel(channel.id) != nil)
        driver.fire(stream)
        #expect(
            connection.pump() == [.headers(stream: stream, endStream: false), .data(stream: stream, endStream: true)])
        #expect(connection.client.header(":status", on: stream) == "400")
        #expect(connection.client.bodies[stream] == Array(#"{"reason":"ChannelNotRegistered"}"#.utf8))
        let record = try Self.record(1, in: connection)
        #expect(record.outcome == .answered)
        #expect(record.status == 400)
        #expect(record.reason == .channelNotRegistered)
        #expect(record.apnsIDGenerated)
        #expect(record.apnsID == pending.apnsID)
        #expect(connection.client.header("apns-request-id", on: stream) == record.apnsID.text)
        #expect(connection.store.count == 1, "no delivery to a device")
    }
}
