import APNSMock
import Foundation
import Testing

/// `apns-mock explain` on a broadcast's id: the broadcast and the devices it reached, not the
/// last device's record (which carries the same id and is the most recent record with it).
@Suite struct ExplainCommandTests {
    typealias B = BroadcastEndToEndTests

    static func explain(_ mock: RunningMock, _ apnsID: String) async throws -> E2E.Output {
        try await E2E.run(CLITests.executable, ["explain", apnsID, "--admin", mock.endpoints.adminURL], timeout: 60)
    }

    static func broadcast(_ mock: RunningMock, channel: String, requestID: String) async throws -> Int {
        try await B.curl(
            "POST", mock.endpoints.apnsURL + "/4/broadcasts/apps/\(B.bundleID)",
            headers: [
                "apns-push-type: LiveActivity", "apns-priority: 10", "apns-expiration: 0",
                "apns-channel-id: \(channel)", "apns-request-id: \(requestID)",
            ], body: B.update
        ).status
    }

    /// Subscribes `token` to `channel` as an app does in-app (the admin API).
    static func subscribe(_ mock: RunningMock, _ token: String, to channel: String) async throws {
        let escaped = try #require(channel.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let answer = try await E2E.run(
            "curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT",
                mock.endpoints.adminURL + "/v1/channels/\(escaped)/devices/\(token)",
            ])
        #expect(answer.stdout == "200", "subscribe: \(answer.stdout) \(answer.stderr)")
    }

    @Test func aBroadcastsIDShowsTheBroadcastAndTheDevicesItReached() async throws {
        try await E2E.withMock { mock in
            let channel = try #require(try await B.createChannel(mock, policy: 0).headers["apns-channel-id"])
            let devices = [E2E.randomToken(), E2E.randomToken()].sorted()
            for device in devices { try await Self.subscribe(mock, device, to: channel) }
            let requestID = E2E.newAPNSID()
            #expect(try await Self.broadcast(mock, channel: channel, requestID: requestID) == 200)

            let output = try await Self.explain(mock, requestID)
            #expect(output.status == 0, "\(output.stderr)")
            let lines = output.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains(": broadcast #") == true, "\(output.stdout)")
            #expect(output.stdout.contains("request: POST /4/broadcasts/apps/\(B.bundleID)"), "\(output.stdout)")
            #expect(output.stdout.contains("channel \(channel)"), "\(output.stdout)")
            #expect(output.stdout.contains("answer: 200"), "\(output.stdout)")
            #expect(output.stdout.contains("reached 2 devices via channel \(channel):"), "\(output.stdout)")
            let reached = lines.filter { $0.hasPrefix("  #") }
            #expect(reached.count == 2, "\(output.stdout)")
            for (line, device) in zip(reached, devices) { #expect(line.hasSuffix(" \(device)"), "\(line)") }
            #expect(!output.stdout.contains(": push #"), "not a device's record: \(output.stdout)")
        }
    }

    /// The same id sent again (a retry): the latest broadcast, and only the devices it reached;
    /// a broadcast the channel had no subscriber for says so.
    @Test func aRepeatedIDShowsTheLatestBroadcastAndAnEmptyChannelSaysSo() async throws {
        try await E2E.withMock { mock in
            let channel = try #require(try await B.createChannel(mock, policy: 0).headers["apns-channel-id"])
            let requestID = E2E.newAPNSID()
            #expect(try await Self.broadcast(mock, channel: channel, requestID: requestID) == 200)
            let lonely = try await Self.explain(mock, requestID)
            #expect(lonely.status == 0, "\(lonely.stderr)")
            #expect(
                lonely.stdout.contains("reached no device: channel \(channel) had no subscriber"), "\(lonely.stdout)")

            let device = E2E.randomToken()
            try await Self.subscribe(mock, device, to: channel)
            #expect(try await Self.broadcast(mock, channel: channel, requestID: requestID) == 200)
            let output = try await Self.explain(mock, requestID)
            #expect(output.stdout.contains("reached 1 device via channel \(channel):"), "\(output.stdout)")
            #expect(output.stdout.contains(device), "\(output.stdout)")
            let sequences = try await E2E.adminGET(mock, "/v1/deliveries?apnsId=\(requestID)&kind=broadcast")
            let latest = try #require((sequences.1["deliveries"] as? [[String: Any]])?.last?["sequence"] as? Int)
            #expect(output.stdout.contains(": broadcast #\(latest) "), "the latest broadcast: \(output.stdout)")
        }
    }
}
