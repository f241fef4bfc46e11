import APNSMock
import Foundation
import Testing

/// Broadcast push and channel management as a provider meets them, over curl (HTTP/2, TLS, a
/// provider token): Apple's "Sending channel management requests to APNs" and "Sending
/// broadcast push notification requests to APNs" (APNS-REFERENCE §6), and the mock's model of
/// Live Activities on the device (a push-to-start's `input-push-channel` subscribes the device;
/// a broadcast then reaches it).
@Suite struct BroadcastEndToEndTests {
    static let bundleID = "com.example.app"

    /// One HTTP/2 exchange with curl: the status, the response headers (lower-case names) and
    /// the body.
    struct Exchange {
        var status: Int
        var headers: [String: String]
        var body: String

        var json: [String: Any]? {
            try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        }
    }

    /// - Parameter connectTo: `HOST:PORT` curl connects to instead of the URL's (`--connect-to`),
    ///   so that the URL's host name is the TLS server name, as a client of Apple's hosts sends it.
    static func curl(
        _ method: String, _ url: String, headers: [String] = [], body: String? = nil, authority: String? = nil,
        connectTo: String? = nil
    ) async throws -> Exchange {
        var arguments = ["-sS", "-i", "--http2", "--cacert", E2E.caFile, "-X", method, "-H", E2E.authorizationHeader]
        if let connectTo { arguments += ["--connect-to", "::\(connectTo)"] }
        for header in headers { arguments += ["-H", header] }
        // curl turns `host` into HTTP/2's `:authority`.
        if let authority { arguments += ["-H", "host: \(authority)"] }
        if let body { arguments += ["--data-binary", body] }
        let output = try await E2E.run("curl", arguments + [url], timeout: 30)
        #expect(output.status == 0, "curl: \(output.stderr)")
        let parts = output.stdout.components(separatedBy: "\r\n\r\n")
        let head = parts.first?.components(separatedBy: "\r\n") ?? []
        let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var fields: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Exchange(status: status, headers: fields, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func channelsURL(_ mock: RunningMock, _ path: String) -> String {
        "https://127.0.0.1:\(mock.endpoints.channelsPort)" + path
    }

    static func createChannel(_ mock: RunningMock, policy: Int = 1, authority: String? = nil) async throws -> Exchange {
        try await curl(
            "POST", channelsURL(mock, "/1/apps/\(bundleID)/channels"), headers: ["content-type: application/json"],
            body: #"{"message-storage-policy":\#(policy),"push-type":"LiveActivity"}"#, authority: authority)
    }

    static func broadcast(
        _ mock: RunningMock, channel: String?, payload: String, expiration: String = "0",
        pushType: String = "LiveActivity"
    ) async throws -> Exchange {
        var headers = ["apns-push-type: \(pushType)", "apns-priority: 10", "apns-expiration: \(expiration)"]
        if let channel { headers.append("apns-channel-id: \(channel)") }
        return try await curl(
            "POST", mock.endpoints.apnsURL + "/4/broadcasts/apps/\(bundleID)", headers: headers, body: payload)
    }

    static let update = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"2-1"}}}"#

    @Test func aChannelIsCreatedReadListedAndDeleted() async throws {
        try await E2E.withMock { mock in
            let requestID = "9f2c6e0a-5b7d-4c1e-8a3f-2d4b6c8e0a1b"
            let created = try await Self.curl(
                "POST", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"),
                headers: ["content-type: application/json", "apns-request-id: \(requestID)"],
                body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
            #expect(created.status == 201)
            #expect(created.body.isEmpty)
            #expect(created.headers["apns-request-id"] == requestID, "echoed when sent")
            #expect(created.headers["apns-id"] == nil)
            let id = try #require(created.headers["apns-channel-id"])
            #expect(Data(base64Encoded: id) != nil, "base64: \(id)")

            let read = try await Self.curl(
                "GET", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"), headers: ["apns-channel-id: \(id)"])
            #expect(read.status == 200)
            #expect(read.json?["message-storage-policy"] as? Int == 1)
            #expect(read.json?["push-type"] as? String == "LiveActivity")
            #expect(read.headers["apns-request-id"].map { $0.count == 36 } == true, "generated when not sent")

            let second = try await Self.createChannel(mock, policy: 0)
            let list = try await Self.curl("GET", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/all-channels"))
            #expect(list.status == 200)
            #expect(
                list.json?["channels"] as? [String] == [id, try #require(second.headers["apns-channel-id"])],
                "\(list.body)")

            let deleted = try await Self.curl(
                "DELETE", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"),
                headers: ["apns-channel-id: \(id)"])
            #expect(deleted.status == 204)
            let gone = try await Self.curl(
                "GET", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"), headers: ["apns-channel-id: \(id)"])
            #expect(gone.status == 400)
            #expect(gone.json?["reason"] as? String == "ChannelNotRegistered")
            #expect(gone.headers["content-type"] == "application/json")
            #expect(gone.headers["apns-request-id"] != nil)
            #expect(gone.headers["apns-id"] == nil)

            // Every operation is a record of kind `channel`.
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?kind=channel")
            let records = page["deliveries"] as? [[String: Any]] ?? []
            #expect(records.count == 6, "create, read, create, list, delete, read: \(records)")
            #expect(records.first?["channelId"] as? String == id)
            let (_, byChannel) = try await E2E.adminGET(
                mock, "/v1/deliveries?channelId=\(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect((byChannel["deliveries"] as? [[String: Any]])?.count == 4, "create, read, delete, read")
        }
    }

    /// Channels are per environment: a sandbox channel is unknown to production.
    @Test func channelsArePerEnvironment() async throws {
        let configuration = try E2E.mockConfiguration { $0.environment = .auto }
        try await E2E.withMock(configuration) { mock in
            let created = try await Self.createChannel(mock, authority: "api-manage-broadcast.sandbox.push.apple.com")
            let id = try #require(created.headers["apns-channel-id"])
            let production = try await Self.curl(
                "GET", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"), headers: ["apns-channel-id: \(id)"],
                authority: "api-manage-broadcast.push.apple.com")
            #expect(production.status == 400)
            #expect(production.json?["reason"] as? String == "ChannelNotRegistered")
            let sandbox = try await Self.curl(
                "GET", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"), headers: ["apns-channel-id: \(id)"],
                authority: "api-manage-broadcast.sandbox.push.apple.com")
            #expect(sandbox.status == 200)
        }
    }

    @Test func aBroadcastIsAnsweredWithRequestAndUniqueIDs() async throws {
        try await E2E.withMock { mock in
            let created = try await Self.createChannel(mock, policy: 0)
            let id = try #require(created.headers["apns-channel-id"])
            let sent = try await Self.broadcast(mock, channel: id, payload: Self.update)
            #expect(sent.status == 200, "\(sent.body)")
            #expect(sent.headers["apns-request-id"] != nil)
            #expect(sent.headers["apns-unique-id"] != nil)
            #expect(sent.headers["apns-id"] == nil)

            // A no-storage channel takes only expiration 0.
            let stored = try await Self.broadcast(mock, channel: id, payload: Self.update, expiration: "1900000000")
            #expect(stored.status == 400)
            #expect(stored.json?["reason"] as? String == "BadExpirationDate")
            // Apple spells the push type three ways; any letter case is accepted.
            let lower = try await Self.broadcast(mock, channel: id, payload: Self.update, pushType: "liveactivity")
            #expect(lower.status == 200)

            let missing = try await Self.broadcast(mock, channel: nil, payload: Self.update)
            #expect(missing.status == 400)
            #expect(missing.json?["reason"] as? String == "MissingChannelId")
            #expect(missing.headers["apns-request-id"] != nil)
            #expect(missing.headers["apns-id"] == nil)

            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?kind=broadcast")
            let records = page["deliveries"] as? [[String: Any]] ?? []
            #expect(records.count == 4)
            #expect(records.first?["channelId"] as? String == id)
        }
    }

    /// A push-to-start whose `aps` names the channel subscribes the device (as the device
    /// would); a broadcast then yields a record for that device (`viaChannel`); an `end`
    /// event ends the subscription.
    @Test func aPushToStartSubscribesTheDeviceAndABroadcastReachesIt() async throws {
        try await E2E.withMock { mock in
            let id = try #require(try await Self.createChannel(mock).headers["apns-channel-id"])
            let token = E2E.randomToken()
            let start = """
                {"aps":{"timestamp":1700000000,"event":"start","content-state":{"score":"0-0"},\
                "attributes-type":"MatchAttributes","attributes":{"home":"A","away":"B"},\
                "alert":{"title":"Kick-off","body":"A v B"},"input-push-channel":"\(id)"}}
                """
            let started = try await Self.curl(
                "POST", mock.endpoints.apnsURL + "/3/device/\(token)",
                headers: [
                    "apns-topic: \(Self.bundleID).push-type.liveactivity", "apns-push-type: liveactivity",
                    "apns-priority: 10",
                ], body: start)
            #expect(started.status == 200, "\(started.body)")
            let sent = try await Self.broadcast(mock, channel: id, payload: Self.update)
            #expect(sent.status == 200)

            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(token)&order=asc")
            let records = page["deliveries"] as? [[String: Any]] ?? []
            #expect(records.count == 2, "\(records)")
            #expect(records.first?["channelId"] as? String == id, "the push-to-start names the channel")
            #expect(records.first?["viaChannel"] as? Bool == false)
            let delivered = records.last
            #expect(delivered?["viaChannel"] as? Bool == true)
            #expect(delivered?["kind"] as? String == "push")
            #expect(delivered?["channelId"] as? String == id)
            #expect(delivered?["apnsId"] as? String == sent.headers["apns-request-id"])
            #expect(delivered?["topic"] as? String == "\(Self.bundleID).push-type.liveactivity")

            let end = #"{"aps":{"timestamp":1700000100,"event":"end","content-state":{"score":"3-1"}}}"#
            #expect(try await Self.broadcast(mock, channel: id, payload: end).status == 200)
            #expect(try await Self.broadcast(mock, channel: id, payload: Self.update).status == 200)
            let (_, after) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(token)")
            #expect((after["deliveries"] as? [[String: Any]])?.count == 3, "the end reached it; the next did not")
        }
    }

    /// Fault rules reach the new kinds: a channel create failed with a chosen reason creates
    /// nothing; a delayed broadcast still reaches its subscribers once its answer goes out.
    @Test func faultRulesFailAChannelCreateAndDelayABroadcast() async throws {
        try await E2E.withMock { mock in
            let (failing, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"id":"no-create","match":{"kind":"channel"},"action":{"respond":{"status":500,"reason":"InternalServerError"}},"select":{"first":1}}"#
            )
            #expect(failing == 201)
            let refused = try await Self.createChannel(mock)
            #expect(refused.status == 500)
            #expect(refused.json?["reason"] as? String == "InternalServerError")
            #expect(refused.headers["apns-request-id"] != nil)
            #expect(refused.headers["apns-channel-id"] == nil)
            let list = try await Self.curl("GET", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/all-channels"))
            #expect(list.json?["channels"] as? [String] == [], "nothing was created: \(list.body)")

            let id = try #require(try await Self.createChannel(mock).headers["apns-channel-id"])
            let token = E2E.randomToken()
            let start = """
                {"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"A","attributes":{},\
                "alert":{"title":"t"},"input-push-channel":"\(id)"}}
                """
            let started = try await Self.curl(
                "POST", mock.endpoints.apnsURL + "/3/device/\(token)",
                headers: ["apns-topic: \(Self.bundleID).push-type.liveactivity", "apns-push-type: liveactivity"],
                body: start)
            #expect(started.status == 200)
            let (delaying, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults", #"{"match":{"kind":"broadcast"},"action":{"delay":{"duration":"400ms"}}}"#)
            #expect(delaying == 201)
            // Followers open before the broadcast: a live wait for the device's two records on the
            // channel (the start, already there, and the delivery to come), and
            // an event stream of broadcasts answered 200 (the record is pending until the delay ends).
            let escaped = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let wait = WireTruthTests.curlAdmin(
                mock, "/v1/deliveries/wait?token=\(token)&channelId=\(escaped)&count=2&timeout=30", maxTime: 35)
            let events = WireTruthTests.followEvents(
                mock, "/v1/events?kind=broadcast&status=200", until: WireTruthTests.isAnswered)
            try await WireTruthTests.awaitFollowers(mock, streams: 1, waiters: 1)
            let began = Date()
            let sent = try await Self.broadcast(mock, channel: id, payload: Self.update)
            #expect(sent.status == 200)
            #expect(Date().timeIntervalSince(began) >= 0.35)
            let waited =
                try JSONSerialization.jsonObject(with: Data(try await wait.value.stdout.utf8)) as? [String: Any]
            let found = waited?["deliveries"] as? [[String: Any]] ?? []
            #expect(found.count == 2, "the wait saw the delivery: \(String(describing: waited))")
            #expect(found.map { $0["viaChannel"] as? Bool } == [false, true])
            let streamed = WireTruthTests.deliveryEvents(try await events.value)
            #expect(streamed.count == 1, "the completed broadcast, once: \(streamed)")
            #expect(streamed.first?["outcome"] as? String == "answered")
            let (_, all) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(token)")
            let records = all["deliveries"] as? [[String: Any]] ?? []
            #expect(records.count == 2, "the start and the delayed broadcast's delivery: \(records)")
            #expect(records.last?["viaChannel"] as? Bool == true, "oldest first")
        }
    }

    /// A channel large enough that its fan-out runs after the 200, in the background (more than
    /// 64 subscribers), under fault rules: a broadcast a rule answers 503 reaches nobody, and a
    /// broadcast a rule delays reaches every subscriber once its answer goes out, as a live
    /// wait sees.
    @Test func aLargeChannelsFanOutFollowsTheFaultRules() async throws {
        try await E2E.withMock { mock in
            let id = try #require(try await Self.createChannel(mock).headers["apns-channel-id"])
            let escaped = try #require(id.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let tokens = (0..<200).map { _ in E2E.randomToken() }
            let (subscribed, answer) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/channels/\(escaped)/devices",
                #"{"tokens":["# + tokens.map { "\"\($0)\"" }.joined(separator: ",") + "]}")
            #expect(subscribed == 200 && answer["subscribers"] as? Int == 200, "\(answer)")
            let (failing, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"id":"fail-one","match":{"kind":"broadcast"},"select":{"first":1},"action":{"respond":{"status":503,"reason":"Service Unavailable"}}}"#
            )
            #expect(failing == 201)
            let refused = try await Self.broadcast(mock, channel: id, payload: Self.update)
            #expect(refused.status == 503 && refused.json?["reason"] as? String == "Service Unavailable")
            let (delaying, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults", #"{"match":{"kind":"broadcast"},"action":{"delay":{"duration":"300ms"}}}"#)
            #expect(delaying == 201)
            let wait = WireTruthTests.curlAdmin(
                mock, "/v1/deliveries/wait?kind=push&channelId=\(escaped)&count=200&timeout=20", maxTime: 25)
            try await WireTruthTests.awaitFollowers(mock, streams: 0, waiters: 1)
            let began = Date()
            let sent = try await Self.broadcast(mock, channel: id, payload: Self.update)
            #expect(sent.status == 200)
            #expect(Date().timeIntervalSince(began) >= 0.25)
            let waited =
                try JSONSerialization.jsonObject(with: Data(try await wait.value.stdout.utf8)) as? [String: Any]
            let found = waited?["deliveries"] as? [[String: Any]] ?? []
            #expect(found.count == 200, "every subscriber, once: \(found.count)")
            #expect(Set(found.compactMap { $0["token"] as? String }) == Set(tokens))
            #expect(found.allSatisfy { $0["viaChannel"] as? Bool == true })
            // The refused broadcast reached nobody: its record and the 200's, and one delivery each.
            let (_, all) = try await E2E.adminGET(mock, "/v1/deliveries?kind=push&channelId=\(escaped)&limit=1000")
            #expect(all["total"] as? Int == 200, "\(all["total"] ?? "-")")
        }
    }

    /// The per-app broadcast capability, switched through the admin API: off deletes the app's
    /// channels and answers FeatureNotEnabled on both APIs, as Apple does.
    @Test func theBroadcastCapabilitySwitch() async throws {
        try await E2E.withMock { mock in
            let id = try #require(try await Self.createChannel(mock).headers["apns-channel-id"])
            let off = try await E2E.run(
                "curl",
                [
                    "-sS", "-X", "PUT", "-H", "content-type: application/json", "--data", #"{"enabled":false}"#,
                    mock.endpoints.adminURL + "/v1/apps/\(Self.bundleID)/broadcast",
                ])
            let switched = try JSONSerialization.jsonObject(with: Data(off.stdout.utf8)) as? [String: Any]
            #expect(switched?["enabled"] as? Bool == false, "\(off.stdout)")
            #expect(switched?["deletedChannels"] as? Int == 1)
            let create = try await Self.createChannel(mock)
            #expect(create.status == 400)
            #expect(create.json?["reason"] as? String == "FeatureNotEnabled")
            let broadcast = try await Self.broadcast(mock, channel: id, payload: Self.update)
            #expect(broadcast.status == 400)
            #expect(broadcast.json?["reason"] as? String == "FeatureNotEnabled")
            let (_, channels) = try await E2E.adminGET(mock, "/v1/channels?bundleId=\(Self.bundleID)")
            #expect((channels["channels"] as? [Any])?.isEmpty == true, "\(channels)")
        }
    }

    /// A storage channel keeps its most recent broadcast: a device that starts listening later
    /// gets it. After a delete it is gone, unless `storedMessagesOutliveChannels` is on ("APNs
    /// may still deliver stored messages after you delete the channel").
    @Test(arguments: [false, true])
    func aLateSubscriberGetsTheKeptMessage(_ outlive: Bool) async throws {
        let configuration = try E2E.mockConfiguration { $0.storedMessagesOutliveChannels = outlive }
        try await E2E.withMock(configuration) { mock in
            let id = try #require(try await Self.createChannel(mock, policy: 1).headers["apns-channel-id"])
            let expiration = String(Int(Date().timeIntervalSince1970) + 3600)
            let sent = try await Self.broadcast(mock, channel: id, payload: Self.update, expiration: expiration)
            #expect(sent.status == 200)
            func start(_ token: String) async throws -> Int {
                let body = """
                    {"aps":{"timestamp":1,"event":"start","content-state":{},"attributes-type":"A","attributes":{},\
                    "alert":{"title":"t"},"input-push-channel":"\(id)"}}
                    """
                return try await Self.curl(
                    "POST", mock.endpoints.apnsURL + "/3/device/\(token)",
                    headers: ["apns-topic: \(Self.bundleID).push-type.liveactivity", "apns-push-type: liveactivity"],
                    body: body
                ).status
            }
            let late = E2E.randomToken()
            #expect(try await start(late) == 200)
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(late)")
            let records = page["deliveries"] as? [[String: Any]] ?? []
            #expect(records.count == 2, "the start, then the kept update: \(records)")
            #expect(records.last?["viaChannel"] as? Bool == true)
            #expect(records.last?["apnsId"] as? String == sent.headers["apns-request-id"])
            #expect((records.last?["payload"] as? [String: Any])?["aps"] as? [String: Any] != nil)

            let deleted = try await Self.curl(
                "DELETE", Self.channelsURL(mock, "/1/apps/\(Self.bundleID)/channels"),
                headers: ["apns-channel-id: \(id)"])
            #expect(deleted.status == 204)
            let afterDelete = E2E.randomToken()
            #expect(try await start(afterDelete) == 200)
            let (_, after) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(afterDelete)")
            #expect((after["deliveries"] as? [[String: Any]])?.count == (outlive ? 2 : 1), "\(after)")
        }
    }
}
