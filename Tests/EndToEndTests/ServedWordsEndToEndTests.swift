import APNSMock
import Foundation
import Testing

/// The CLI prints the server's words: `wait` that times out prints the 408's `explanation` as
/// served, `deliveries` each record's `summary`, `explain` the record's `explanation`.
@Suite struct ServedWordsEndToEndTests {
    @Test func theCLIPrintsWhatTheServerSays() async throws {
        try await E2E.withMock { mock in
            let token = E2E.randomToken()
            let push = try await FaultInjectionTests.curlPush(
                mock, token: token, payload: #"{"aps":{"alert":{"title":"Hi"}}}"#)
            #expect(push.status == 200, "\(push.body)")
            let admin = mock.endpoints.adminURL

            // A misspelled path: the server says "did you mean", and the CLI prints its words.
            let (status, served) = try await E2E.adminGET(
                mock, "/v1/deliveries/wait?token=\(token)&payload.aps.alert.titel=Hi&count=1&timeout=200ms")
            #expect(status == 408)
            let explanation = try #require(served["explanation"] as? String)
            #expect(explanation.contains("(1 of 2 conditions hold)"), "\(explanation)")
            #expect(explanation.contains("(did you mean payload.aps.alert.title?)"), "\(explanation)")
            #expect(
                explanation.hasSuffix("\ndashboard: \(admin)/#filter=token%3D\(token)%26payload.aps.alert.titel%3DHi"))
            let waited = try await E2E.run(
                CLITests.executable,
                ["wait", "token=\(token)", "payload.aps.alert.titel=Hi", "--timeout", "200ms", "--admin", admin])
            #expect(waited.status == 1, "\(waited.stderr)")
            #expect(waited.stdout == explanation + "\n")

            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?token=\(token)")
            let record = try #require((page["deliveries"] as? [[String: Any]])?.first)
            let summary = try #require(record["summary"] as? String)
            #expect(summary.hasPrefix("#") && summary.contains("  200  push  \(token.prefix(8))…"), "\(summary)")
            let listed = try await E2E.run(CLITests.executable, ["deliveries", "token=\(token)", "--admin", admin])
            #expect(listed.stdout == summary + "\n")
            let found = try await E2E.run(
                CLITests.executable, ["wait", "token=\(token)", "--timeout", "1s", "--admin", admin])
            #expect(found.stdout == summary + "\n")

            let apnsID = try #require(record["apnsId"] as? String)
            let (_, single) = try await E2E.adminGET(mock, "/v1/deliveries/\(apnsID)")
            let served2 = try #require(single["explanation"] as? String)
            let explained = try await E2E.run(CLITests.executable, ["explain", apnsID, "--admin", admin])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout == served2 + "\n")
        }
    }
}
