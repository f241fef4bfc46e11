import APNSMock
import Foundation
import Testing

/// What the broadcast and channel-management APIs share with device pushes, met over curl as a
/// provider meets it: payload lint judged as a broadcast's, fault rules and modes on both
/// listeners, environments chosen by Apple's host names (TLS server name), devices subscribed
/// through the admin API, the channel limit, and a deleted channel's kept message staying with
/// its app (APNS-REFERENCE §6; Apple's "Sending broadcast push notification requests to APNs",
/// "Sending channel management requests to APNs", "Handling error responses from APNs").
@Suite struct BroadcastFidelityTests {
    typealias B = BroadcastEndToEndTests

    static func records(_ mock: RunningMock, _ query: String) async throws -> [[String: Any]] {
        let (status, page) = try await E2E.adminGET(mock, "/v1/deliveries?" + query)
        #expect(status == 200, "\(page)")
        return page["deliveries"] as? [[String: Any]] ?? []
    }

    static func broadcast(
        _ mock: RunningMock, channel: String, payload: String, priority: String = "10"
    ) async throws -> B.Exchange {
        try await B.curl(
            "POST", mock.endpoints.apnsURL + "/4/broadcasts/apps/\(B.bundleID)",
            headers: [
                "apns-push-type: LiveActivity", "apns-priority: \(priority)", "apns-expiration: 0",
                "apns-channel-id: \(channel)",
            ], body: payload)
    }

    static func lintCodes(_ record: [String: Any]?) -> [String] {
        (record?["lint"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    /// A broadcast is linted as a broadcast (no topic to check, the 5120-byte limit, its own
    /// findings), its deliveries to devices too; a channel request has no notification to lint.
    @Test func recordsAreLintedAsWhatTheyAre() async throws {
        try await E2E.withMock { mock in
            let created = try await B.createChannel(mock, policy: 0)
            let id = try #require(created.headers["apns-channel-id"])
            let token = E2E.randomToken()
            let escaped = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let subscribe = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT",
                    mock.endpoints.adminURL + "/v1/channels/\(escaped)/devices/\(token)",
                ])
            #expect(subscribe.stdout.hasPrefix("2"), "subscribe: \(subscribe.stdout)")

            #expect(try await Self.broadcast(mock, channel: id, payload: B.update).status == 200)
            // Between the device limit (4096) and the broadcast limit (5120).
            let big =
                #"{"aps":{"timestamp":1,"event":"update","content-state":{"s":""#
                + String(repeating: "x", count: 4400) + #""}}}"#
            #expect(try await Self.broadcast(mock, channel: id, payload: big).status == 200)
            let starting =
                #"{"aps":{"timestamp":1,"event":"start","attributes-type":"A","attributes":{},"content-state":{}}}"#
            #expect(try await Self.broadcast(mock, channel: id, payload: starting, priority: "1").status == 200)

            let broadcasts = try await Self.records(mock, "kind=broadcast&order=asc")
            #expect(broadcasts.count == 3)
            #expect(
                Self.lintCodes(broadcasts.first) == [], "a valid update is clean: \(Self.lintCodes(broadcasts.first))")
            #expect(broadcasts[1]["payloadLimit"] as? Int == 5120)
            #expect(!Self.lintCodes(broadcasts[1]).contains("payload-too-large"))
            let mistakes = Self.lintCodes(broadcasts.last)
            #expect(mistakes.contains("broadcast-starts-activity"), "\(mistakes)")
            #expect(mistakes.contains("broadcast-priority-1"), "\(mistakes)")
            // The matcher finds them by code, and the device's copies are judged the same way.
            #expect(try await Self.records(mock, "kind=broadcast&lint=broadcast-starts-activity").count == 1)
            #expect(try await Self.records(mock, "kind=broadcast&lint=error").count == 1)
            let delivered = try await Self.records(mock, "token=\(token)&order=asc")
            #expect(delivered.count == 3)
            #expect(delivered.map { Self.lintCodes($0).contains("broadcast-starts-activity") } == [false, false, true])

            let channelRecords = try await Self.records(mock, "kind=channel")
            #expect(channelRecords.count == 1)
            #expect((channelRecords.first?["lint"] as? [Any])?.isEmpty == true, "no lint for a channel request")
            #expect(channelRecords.first?["payloadLimit"] is NSNull, "\(channelRecords)")
        }
    }

    /// Fault rules on the new kinds: a broadcast failed with a chosen reason reaches no device; a
    /// channel request reset; a success a rule makes of a rejected broadcast goes out as the rule
    /// says (200 with `apns-unique-id`, as every broadcast success) and reaches nobody.
    @Test func faultRulesFailResetAndForceBroadcastsAndChannelRequests() async throws {
        try await E2E.withMock { mock in
            let id = try #require(try await B.createChannel(mock, policy: 0).headers["apns-channel-id"])
            let token = E2E.randomToken()
            let escaped = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            _ = try await E2E.run(
                "curl", ["-sS", "-X", "PUT", mock.endpoints.adminURL + "/v1/channels/\(escaped)/devices/\(token)"])

            let (failing, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"id":"busy","match":{"kind":"broadcast"},"action":{"respond":{"status":429,"reason":"TooManyRequests"}},"select":{"first":1}}"#
            )
            #expect(failing == 201)
            let refused = try await Self.broadcast(mock, channel: id, payload: B.update)
            #expect(refused.status == 429)
            #expect(refused.json?["reason"] as? String == "TooManyRequests")
            #expect(refused.headers["apns-request-id"] != nil)
            #expect(refused.headers["apns-unique-id"] == nil)
            #expect(try await Self.records(mock, "token=\(token)").isEmpty, "a failed broadcast reaches nobody")
            let failedRecord = try await Self.records(mock, "kind=broadcast&faultId=busy")
            #expect(failedRecord.count == 1)

            let (forcing, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"match":{"kind":"broadcast","reason":"ChannelNotRegistered"},"action":{"respond":{"status":200}},"select":{"first":1}}"#
            )
            #expect(forcing == 201)
            let unknown = Data("no such channel".utf8).base64EncodedString()
            let forced = try await Self.broadcast(mock, channel: unknown, payload: B.update)
            #expect(forced.status == 200, "the rule's answer, not the rules': \(forced.body)")
            #expect(forced.headers["apns-unique-id"] != nil)
            #expect(try await Self.records(mock, "token=\(token)").isEmpty)

            let (resetting, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"match":{"kind":"channel"},"action":{"resetStream":{"errorCode":"INTERNAL_ERROR"}},"select":{"first":1}}"#
            )
            #expect(resetting == 201)
            let reset = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-H", E2E.authorizationHeader, "-X", "GET",
                    B.channelsURL(mock, "/1/apps/\(B.bundleID)/all-channels"),
                ], timeout: 30)
            #expect(reset.status == 92, "curl sees the stream reset (exit 92): \(reset.stderr)")
            let resetRecord = try await Self.records(mock, "kind=channel&outcome=reset")
            #expect(resetRecord.count == 1, "\(resetRecord)")

            // A rule's success on an accepted broadcast still reaches the device.
            #expect(try await Self.broadcast(mock, channel: id, payload: B.update).status == 200)
            #expect(try await Self.records(mock, "token=\(token)").count == 1)
        }
    }

    /// The server-wide modes answer the channel listener too, in those APIs' spelling.
    @Test func modesAnswerChannelRequests() async throws {
        try await E2E.withMock { mock in
            let (unavailable, _) = try await FaultInjectionTests.adminPOST(mock, "/v1/modes/unavailable")
            #expect(unavailable == 200)
            let refused = try await B.createChannel(mock)
            #expect(refused.status == 503)
            #expect(refused.json?["reason"] as? String == "Service Unavailable")
            #expect(refused.headers["apns-request-id"] != nil)
            #expect(try await FaultInjectionTests.adminDELETE(mock, "/v1/modes/unavailable") == 200)

            let (shutdown, _) = try await FaultInjectionTests.adminPOST(mock, "/v1/modes/shutdown")
            #expect(shutdown == 200)
            let closing = try await B.createChannel(mock)
            #expect(closing.status == 503)
            #expect(closing.json?["reason"] as? String == "Shutdown")
            #expect(try await FaultInjectionTests.adminDELETE(mock, "/v1/modes/shutdown") == 200)
            #expect(try await B.createChannel(mock).status == 201)
        }
    }

    /// Under `--environment auto`, Apple's host names choose the environment by the TLS server
    /// name (curl `--connect-to` keeps the host in the URL): a sandbox channel is unknown to a
    /// production broadcast. A device subscribed through the admin API gets the broadcast.
    @Test func hostNamesChooseTheEnvironmentOfChannelsAndBroadcasts() async throws {
        let configuration = try E2E.mockConfiguration { $0.environment = .auto }
        try await E2E.withMock(configuration) { mock in
            let manage = "127.0.0.1:\(mock.endpoints.channelsPort)"
            let created = try await B.curl(
                "POST", "https://api-manage-broadcast.sandbox.push.apple.com/1/apps/\(B.bundleID)/channels",
                headers: ["content-type: application/json"],
                body: #"{"message-storage-policy":0,"push-type":"LiveActivity"}"#, connectTo: manage)
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.headers["apns-channel-id"])
            let elsewhere = try await B.curl(
                "GET", "https://api-manage-broadcast.push.apple.com/1/apps/\(B.bundleID)/channels",
                headers: ["apns-channel-id: \(id)"], connectTo: manage)
            #expect(elsewhere.json?["reason"] as? String == "ChannelNotRegistered", "\(elsewhere.body)")

            let token = E2E.randomToken()
            let escaped = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            _ = try await E2E.run(
                "curl", ["-sS", "-X", "PUT", mock.endpoints.adminURL + "/v1/channels/\(escaped)/devices/\(token)"])
            let apns = "127.0.0.1:\(mock.endpoints.apnsPort)"
            func send(_ host: String) async throws -> B.Exchange {
                try await B.curl(
                    "POST", "https://\(host)/4/broadcasts/apps/\(B.bundleID)",
                    headers: [
                        "apns-push-type: LiveActivity", "apns-priority: 10", "apns-expiration: 0",
                        "apns-channel-id: \(id)",
                    ], body: B.update, connectTo: apns)
            }
            let production = try await send("api-broadcast.push.apple.com")
            #expect(production.status == 400)
            #expect(production.json?["reason"] as? String == "ChannelNotRegistered")
            #expect(production.headers["apns-unique-id"] == nil)
            let sandbox = try await send("api-broadcast.sandbox.push.apple.com")
            #expect(sandbox.status == 200, "\(sandbox.body)")
            #expect(sandbox.headers["apns-unique-id"] != nil)
            let delivered = try await Self.records(mock, "token=\(token)")
            #expect(delivered.count == 1)
            #expect(delivered.first?["viaChannel"] as? Bool == true)
            #expect(delivered.first?["environment"] as? String == "sandbox")
        }
    }

    /// `channelLimit` (`--channel-limit`) over the wire: one more is `CannotCreateChannelConfig`.
    @Test func theChannelLimit() async throws {
        let configuration = try E2E.mockConfiguration { $0.channelLimit = 2 }
        try await E2E.withMock(configuration) { mock in
            #expect(try await B.createChannel(mock).status == 201)
            #expect(try await B.createChannel(mock).status == 201)
            let third = try await B.createChannel(mock)
            #expect(third.status == 400)
            #expect(third.json?["reason"] as? String == "CannotCreateChannelConfig")
        }
    }

    /// A deleted channel's kept message (`storedMessagesOutliveChannels`) reaches only a
    /// push-to-start of the same app: another app naming the id gets nothing.
    @Test func aDeletedChannelsKeptMessageStaysWithItsApp() async throws {
        let configuration = try E2E.mockConfiguration { $0.storedMessagesOutliveChannels = true }
        try await E2E.withMock(configuration) { mock in
            let id = try #require(try await B.createChannel(mock, policy: 1).headers["apns-channel-id"])
            let expiration = String(Int(Date().timeIntervalSince1970) + 3600)
            #expect(
                try await B.broadcast(mock, channel: id, payload: B.update, expiration: expiration).status == 200)
            let deleted = try await B.curl(
                "DELETE", B.channelsURL(mock, "/1/apps/\(B.bundleID)/channels"), headers: ["apns-channel-id: \(id)"])
            #expect(deleted.status == 204)
            func start(_ token: String, bundleID: String) async throws -> Int {
                let body = """
                    {"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"A","attributes":{},\
                    "alert":{"title":"t"},"input-push-channel":"\(id)"}}
                    """
                return try await B.curl(
                    "POST", mock.endpoints.apnsURL + "/3/device/\(token)",
                    headers: ["apns-topic: \(bundleID).push-type.liveactivity", "apns-push-type: liveactivity"],
                    body: body
                ).status
            }
            let other = E2E.randomToken()
            #expect(try await start(other, bundleID: "com.example.other") == 200)
            #expect(try await Self.records(mock, "token=\(other)").count == 1, "only the start")
            let same = E2E.randomToken()
            #expect(try await start(same, bundleID: B.bundleID) == 200)
            #expect(try await Self.records(mock, "token=\(same)").count == 2, "the start and the kept message")
        }
    }

    /// Apple's error tables, through curl: a broadcast body that is not JSON is 400
    /// BadRequestPayload ("Sending broadcast push notification requests to APNs": "The JSON Request
    /// payload is unparseable") without --strict-payload; a channel-create body with an attribute
    /// Apple does not define is 400 BadRequestParams ("Sending channel management requests to APNs":
    /// "contained an unrecognizable attribute"). Neither creates or sends anything.
    @Test func unparseableBroadcastsAndUnknownChannelAttributesAreRefused() async throws {
        try await E2E.withMock { mock in
            let created = try await B.createChannel(mock, policy: 1)
            let id = try #require(created.headers["apns-channel-id"])
            let notJSON = try await Self.broadcast(mock, channel: id, payload: "score=1-0")
            #expect(notJSON.status == 400)
            #expect(notJSON.json?["reason"] as? String == "BadRequestPayload", "\(notJSON.body)")

            let colour = try await B.curl(
                "POST", B.channelsURL(mock, "/1/apps/\(B.bundleID)/channels"),
                headers: ["content-type: application/json"],
                body: #"{"message-storage-policy":1,"push-type":"LiveActivity","colour":"red"}"#)
            #expect(colour.status == 400)
            #expect(colour.json?["reason"] as? String == "BadRequestParams", "\(colour.body)")
            #expect(colour.headers["apns-channel-id"] == nil)

            let refused = try await Self.records(mock, "status=400&order=asc")
            #expect(refused.count == 2)
            #expect(refused.first?["detail"] as? String != nil, "the record says why: \(refused.first ?? [:])")
        }
    }
}
