import APNSMock
import APNSMockRegistry
import Foundation
import Testing

/// The server's clock through the admin API, as a provider meets it (issue 32, item 4): curl
/// pushes with one provider token while a test moves the clock. Apple: "Establishing a
/// token-based connection to APNs" — a token older than an hour is answered 403
/// ExpiredProviderToken.
@Suite(.serialized) struct ClockEndToEndTests {
    static func push(_ mock: RunningMock, token authorization: String) async throws -> (Int, String) {
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-w", "\n%{http_code}", "-H", authorization, "-H",
                "apns-topic: com.example.app", "-H", "apns-push-type: alert", "--data", #"{"aps":{"alert":"hi"}}"#,
                mock.endpoints.apnsURL + "/3/device/" + String(repeating: "ab", count: 32),
            ])
        var lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.removeLast()) ?? 0
        return (status, lines.joined(separator: "\n"))
    }

    static func clock(_ mock: RunningMock, _ method: String, _ body: String? = nil) async throws -> [String: Any] {
        var arguments = ["-sS", "-X", method, "-H", "content-type: application/json"]
        if let body { arguments += ["--data", body] }
        let output = try await E2E.run("curl", arguments + [mock.endpoints.adminURL + "/v1/clock"])
        return (try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]) ?? [:]
    }

    /// A token accepted now is expired once the clock has moved 61 minutes on, and accepted
    /// again when the clock is the wall clock again; the records are dated by the mock's clock.
    @Test func aProviderTokenAgesWithTheMocksClock() async throws {
        try await E2E.withMock { mock in
            let authorization = E2E.authorizationHeader
            #expect(try await Self.push(mock, token: authorization).0 == 200)
            let moved = try await Self.clock(mock, "POST", #"{"advance":"61m"}"#)
            let offset = moved["offsetMs"] as? Int64 ?? 0
            let hour: Int64 = 61 * 60_000
            #expect(abs(offset - hour) < 5_000, "\(moved)")
            let (status, body) = try await Self.push(mock, token: authorization)
            #expect(status == 403 && body.contains("ExpiredProviderToken"), "\(status) \(body)")
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?status=403")
            let expired = (page["deliveries"] as? [[String: Any]])?.first
            let receivedAt = expired?["receivedAt"] as? Int64 ?? 0
            let ahead = receivedAt - WallClock.milliseconds()
            #expect(ahead > 60 * 60_000, "dated by the mock's clock: \(receivedAt)")
            let reset = try await Self.clock(mock, "DELETE")
            #expect(reset["mode"] as? String == "system")
            #expect(try await Self.push(mock, token: authorization).0 == 200)
        }
    }

    /// `--clock manual`: time stands still, so a fault window lasts until the clock is moved.
    @Test func aManualClockHoldsAModeUntilMoved() async throws {
        var configuration = try E2E.mockConfiguration()
        configuration.clock = .manual(startsAt: nil)
        try await E2E.withMock(configuration) { mock in
            let (status, _) = try await FaultInjectionTests.adminPOST(mock, "/v1/modes/unavailable?for=30s")
            #expect(status == 200)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await Self.push(mock, token: E2E.authorizationHeader).0 == 503)
            _ = try await Self.clock(mock, "POST", #"{"advance":"31s"}"#)
            #expect(try await Self.push(mock, token: E2E.authorizationHeader).0 == 200)
        }
    }
}
