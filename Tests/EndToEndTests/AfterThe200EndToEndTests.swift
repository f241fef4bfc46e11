import APNSMock
import APNSMockRegistry
import Foundation
import Testing

/// What reaches the device after the 200 (issue 32), as a provider's own test suite meets it:
/// real clients push over HTTP/2 and TLS, move the mock clock, change the device through the
/// admin API and assert with waits and `apns-mock verify`. Apple: "Sending notification
/// requests to APNs" (`apns-expiration`, `apns-collapse-id`, `apns-priority`) and "Handling
/// notification responses from APNs" (410's timestamp).
@Suite(.serialized) struct AfterThe200EndToEndTests {
    static let offlineFile = VerifyCommandTests.file("offline-device.yaml")

    /// An offline phone: a one-time code with expiration 0 is discarded at once, the older of
    /// two scores with one collapse id is replaced in storage, a news alert expires in storage
    /// when the clock passes its two minutes, and the newest score is delivered when the phone
    /// comes back, which a live wait sees. `apns-mock verify` then holds the expectation file.
    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON"))
    func httpxSeesAnOfflinePhoneGetOnlyTheNewestScore() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        // Minted before the mock starts: the manual clock stands at its start, and a token minted
        // later (a ThreadSanitizer run took over a minute to get here) would be from its future.
        let providerToken = try E2E.providerToken()
        let loaded = try ExpectationFile.load([Self.offlineFile], now: WallClock.milliseconds())
        let device = try VerifyCommandTests.token(in: "offline-device.yaml")
        let configuration = try E2E.mockConfiguration { configuration in
            configuration.clock = .manual(startsAt: nil)
            for file in loaded {
                configuration.addSetup(
                    keys: file.setup.keys, devices: file.setup.devices, channels: file.setup.channels,
                    broadcastDisabled: file.setup.broadcastDisabled)
            }
        }
        try await E2E.withMock(configuration) { mock in
            let output = try await E2E.run(
                python,
                [
                    E2E.clientsDirectory + "/httpx_after_the_200.py", String(mock.endpoints.apnsPort),
                    mock.endpoints.adminURL, E2E.caFile, providerToken, device,
                ], timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
            let now = try #require(seen["clockNow"] as? Int64)
            for name in ["code", "score1", "score2", "news"] {
                let answer = seen[name] as? [String: Any]
                #expect(answer?["status"] as? Int == 200, "\(name): \(String(describing: answer))")
                #expect(answer?["http"] as? String == "HTTP/2")
            }
            let offline = try #require(seen["whileOffline"] as? [String: [String: Any]])
            #expect(offline["code"]?["state"] as? String == "discarded")
            #expect(offline["code"]?["reason"] as? String == "expired")
            #expect(offline["score1"]?["reason"] as? String == "replaced")
            #expect(offline["score2"]?["state"] as? String == "stored")
            #expect(offline["score2"]?["until"] as? Int64 == (now / 1000 + 3600) * 1000)
            #expect(offline["news"]?["state"] as? String == "stored")
            let later = try #require(seen["afterFiveMinutes"] as? [String: [String: Any]])
            #expect(later["news"]?["state"] as? String == "discarded")
            #expect(later["news"]?["reason"] as? String == "expired")
            #expect(later["news"]?["at"] as? Int64 == (now / 1000 + 120) * 1000, "discarded when it expired")
            #expect(later["score2"]?["state"] as? String == "stored")
            #expect(seen["earlyWait"] as? Int == 408)
            #expect(seen["online"] as? Int == 200)
            let wait = try #require(seen["wait"] as? [String: Any])
            #expect(wait["status"] as? Int == 200)
            let delivered = (wait["deliveries"] as? [[String: Any]])?.first?["delivery"] as? [String: Any]
            #expect(delivered?["state"] as? String == "delivered")
            #expect(delivered?["at"] as? Int64 == now + 5 * 60_000, "delivered when the phone came back")
            let verified = try await VerifyCommandTests.verify(mock, [Self.offlineFile])
            #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
            #expect(verified.stdout.contains("6 of 6 expectations hold"), "\(verified.stdout)")
        }
    }

    /// Uninstalled: pushes get 200 and are discarded (`tokenInactive`) until the grace period
    /// passes, then 410 Unregistered with the uninstall time. Saving power: priority 5 waits
    /// while priority 10 is delivered; the wait for the held one returns when the phone stops
    /// saving power. Node's http2 and fetch, as a Node provider's tests would.
    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func nodeSeesAnUninstallTurnInto410AndAPhoneSavingPower() async throws {
        // Minted before the mock starts, as above: the manual clock stands at its start.
        let providerToken = try E2E.providerToken()
        var configuration = try E2E.mockConfiguration()
        configuration.clock = .manual(startsAt: nil)
        try await E2E.withMock(configuration) { mock in
            let output = try await E2E.run(
                "node",
                [
                    E2E.clientsDirectory + "/node_after_the_200.mjs", String(mock.endpoints.apnsPort),
                    mock.endpoints.adminURL, E2E.caFile, providerToken, E2E.randomToken(), E2E.randomToken(),
                ], timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            let seen = try #require(
                try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
            let uninstalledAt = try #require(seen["uninstalledAt"] as? Int64)
            let before = seen["beforeTheGrace"] as? [String: Any]
            #expect(before?["status"] as? Int == 200)
            let discarded = seen["beforeTheGraceDelivery"] as? [String: Any]
            #expect(discarded?["state"] as? String == "discarded")
            #expect(discarded?["reason"] as? String == "tokenInactive")
            let after = seen["afterTheGrace"] as? [String: Any]
            #expect(after?["status"] as? Int == 410)
            let body = after?["body"] as? [String: Any]
            #expect(body?["reason"] as? String == "Unregistered")
            #expect(body?["timestamp"] as? Int64 == uninstalledAt, "\(String(describing: body))")
            #expect((seen["quiet"] as? [String: Any])?["status"] as? Int == 200)
            let saving = try #require(seen["whileSaving"] as? [String: [String: Any]])
            #expect(saving["quiet"]?["state"] as? String == "stored")
            #expect(saving["urgent"]?["state"] as? String == "delivered")
            let wait = try #require(seen["wait"] as? [String: Any])
            #expect(wait["status"] as? Int == 200)
            let delivered = (wait["deliveries"] as? [[String: Any]])?.first?["delivery"] as? [String: Any]
            #expect(delivered?["state"] as? String == "delivered")
        }
    }

    /// Live Activity channels under the model (Apple: "Sending broadcast push notification
    /// requests to APNs", `message-storage-policy`): to an offline subscriber, a channel that
    /// stores its newest message keeps the newer of two broadcasts (the older `replaced`) and
    /// delivers it when the device is back, which a live wait sees; a channel that stores
    /// nothing discards its broadcast (`expired`). curl over HTTP/2 and TLS.
    @Test func aBroadcastToAnOfflineSubscriberFollowsTheChannelsStoragePolicy() async throws {
        try await E2E.withMock { mock in
            typealias Broadcasts = BroadcastEndToEndTests
            let keeping = try #require(try await Broadcasts.createChannel(mock, policy: 1).headers["apns-channel-id"])
            let dropping = try #require(try await Broadcasts.createChannel(mock, policy: 0).headers["apns-channel-id"])
            let device = E2E.randomToken()
            for channel in [keeping, dropping] {
                let escaped = try #require(channel.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                let (status, _) = try await FaultInjectionTests.adminPOST(
                    mock, "/v1/channels/\(escaped)/devices", #"{"tokens":["\#(device)"]}"#)
                #expect(status == 200)
            }
            let offline = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--data", #"{"presence":"offline"}"#,
                    mock.endpoints.adminURL + "/v1/devices/\(device)",
                ])
            #expect(offline.stdout == "201")
            let inAnHour = String(Int(Date().timeIntervalSince1970) + 3600)
            let first = #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":"1-0"}}}"#
            #expect(
                try await Broadcasts.broadcast(mock, channel: keeping, payload: first, expiration: inAnHour).status
                    == 200)
            #expect(
                try await Broadcasts.broadcast(mock, channel: keeping, payload: Broadcasts.update, expiration: inAnHour)
                    .status == 200)
            #expect(try await Broadcasts.broadcast(mock, channel: dropping, payload: Broadcasts.update).status == 200)
            func deliveries(_ channel: String) async throws -> [[String: Any]] {
                let escaped = try #require(channel.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
                let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(device)&channelId=\(escaped)")
                return page["deliveries"] as? [[String: Any]] ?? []
            }
            let kept = try await deliveries(keeping).compactMap { $0["delivery"] as? [String: Any] }
            #expect(kept.map { $0["state"] as? String } == ["discarded", "stored"], "\(kept)")
            #expect(kept.first?["reason"] as? String == "replaced")
            let until = kept.last?["until"] as? Int64 ?? 0
            let eightHours = WallClock.milliseconds() + 8 * 3_600_000
            #expect(until <= eightHours && until > WallClock.milliseconds(), "at most 8 hours: \(until)")
            let dropped = try await deliveries(dropping).compactMap { $0["delivery"] as? [String: Any] }
            #expect(dropped.map { $0["reason"] as? String } == ["expired"], "\(dropped)")
            let escaped = try #require(keeping.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let wait = WireTruthTests.curlAdmin(
                mock, "/v1/deliveries/wait?token=\(device)&channelId=\(escaped)&delivery=delivered&timeout=20",
                maxTime: 25)
            try await WireTruthTests.awaitFollowers(mock, streams: 0, waiters: 1)
            let online = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--data", #"{"presence":"online"}"#,
                    mock.endpoints.adminURL + "/v1/devices/\(device)",
                ])
            #expect(online.stdout == "200")
            let waited =
                try JSONSerialization.jsonObject(with: Data(try await wait.value.stdout.utf8)) as? [String: Any]
            let found = waited?["deliveries"] as? [[String: Any]] ?? []
            #expect(found.count == 1, "\(found)")
            #expect((found.first?["payload"] as? [String: Any]).map { "\($0)" }?.contains("2-1") == true)
            #expect((found.first?["delivery"] as? [String: Any])?["state"] as? String == "delivered")
        }
    }

    /// On the running clock, time passes by itself: a phone offline `for` ten seconds gets its
    /// stored push when they are over, and a wait started before sees it delivered then. Ten, not
    /// three: the push, the read and the CLI must all happen inside the period, and a CI run under
    /// AddressSanitizer with every suite at once took longer than three seconds for them.
    @Test func onTheRunningClockAStoredPushIsDeliveredWhenTheOfflinePeriodEnds() async throws {
        try await E2E.withMock { mock in
            let device = E2E.randomToken()
            let before = WallClock.milliseconds()
            let offline = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--data",
                    #"{"presence":"offline","for":"10s"}"#, mock.endpoints.adminURL + "/v1/devices/\(device)",
                ])
            #expect(offline.stdout == "201")
            let pushed = try await VerifyCommandTests.push(mock, token: device, payload: #"{"aps":{"alert":"later"}}"#)
            #expect(pushed == "200")
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(device)")
            let stored = (page["deliveries"] as? [[String: Any]])?.first?["delivery"] as? [String: Any]
            #expect(stored?["state"] as? String == "stored", "\(String(describing: stored))")
            // The CLI filters on it and says it on the record's line.
            let listed = try await E2E.run(
                CLITests.executable,
                ["deliveries", "--admin", mock.endpoints.adminURL, "token=\(device)", "delivery=stored"])
            #expect(listed.status == 0 && listed.stdout.contains("  stored until "), "\(listed.stdout)\(listed.stderr)")
            let (status, waited) = try await E2E.adminGET(
                mock, "/v1/deliveries/wait?token=\(device)&delivery=delivered&timeout=30")
            #expect(status == 200)
            let delivery = (waited["deliveries"] as? [[String: Any]])?.first?["delivery"] as? [String: Any]
            let at = delivery?["at"] as? Int64 ?? 0
            // The period began when the PUT was answered, and ends ten seconds later.
            #expect(at >= before + 10_000 && at <= WallClock.milliseconds(), "delivered at \(at - before) ms")
        }
    }

    /// Between features: a fault rule delays the answer to an offline phone while a live wait
    /// is open. The push is judged when its delayed 200 goes out (stored, not before), the wait
    /// for `delivery=stored` sees it then, and a second wait sees it delivered when the phone
    /// comes back. curl over HTTP/2 and TLS.
    @Test func aDelayedAnswerToAnOfflinePhoneIsStoredWhenAnsweredAndDeliveredWhenBack() async throws {
        try await E2E.withMock { mock in
            let device = E2E.randomToken()
            let offline = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--data", #"{"presence":"offline"}"#,
                    mock.endpoints.adminURL + "/v1/devices/\(device)",
                ])
            #expect(offline.stdout == "201")
            let (added, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults", #"{"match":{"token":"\#(device)"},"action":{"delay":{"duration":"300ms"}}}"#)
            #expect(added == 201)
            let stored = WireTruthTests.curlAdmin(
                mock, "/v1/deliveries/wait?token=\(device)&delivery=stored&timeout=20", maxTime: 25)
            try await WireTruthTests.awaitFollowers(mock, streams: 0, waiters: 1)
            let began = Date()
            let pushed = try await VerifyCommandTests.push(mock, token: device, payload: #"{"aps":{"alert":"late"}}"#)
            #expect(pushed == "200")
            #expect(Date().timeIntervalSince(began) >= 0.25, "the rule delayed the answer")
            let held =
                try JSONSerialization.jsonObject(with: Data(try await stored.value.stdout.utf8)) as? [String: Any]
            let record = (held?["deliveries"] as? [[String: Any]])?.first
            #expect(record?["outcome"] as? String == "answered", "\(String(describing: record))")
            #expect((record?["delivery"] as? [String: Any])?["state"] as? String == "stored")
            let delivered = WireTruthTests.curlAdmin(
                mock, "/v1/deliveries/wait?token=\(device)&delivery=delivered&timeout=20", maxTime: 25)
            try await WireTruthTests.awaitFollowers(mock, streams: 0, waiters: 1)
            let online = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "--data", #"{"presence":"online"}"#,
                    mock.endpoints.adminURL + "/v1/devices/\(device)",
                ])
            #expect(online.stdout == "200")
            let reached =
                try JSONSerialization.jsonObject(with: Data(try await delivered.value.stdout.utf8)) as? [String: Any]
            let history = (reached?["deliveries"] as? [[String: Any]])?.first?["deliveryHistory"] as? [[String: Any]]
            #expect(
                history?.map { $0["state"] as? String } == ["stored", "delivered"], "\(String(describing: reached))")
        }
    }
}
