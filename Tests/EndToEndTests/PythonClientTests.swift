import APNSMock
import Foundation
import Testing

/// aioapns from PyPI, in the venv `make test` creates, with its default connection (no ALPN).
@Suite(.serialized) struct PythonClientTests {
    static let python = ProcessInfo.processInfo.environment["APNS_MOCK_PYTHON"]

    @Test(.enabled(if: python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func aioapnsTokenAuthWithoutALPN() async throws {
        let python = try #require(Self.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock { mock in
            let good = E2E.randomToken()
            let goodID = E2E.newAPNSID()
            let badID = E2E.newAPNSID()
            let output = try await E2E.run(
                python,
                [
                    E2E.clientsDirectory + "/aioapns_push.py", String(mock.endpoints.apnsPort), E2E.caFile, E2E.keyFile,
                    E2E.keyID, E2E.teamID, "com.example.app", good, goodID, "not-hex", badID,
                ])
            #expect(output.status == 0, "\(output.stderr)")
            let results = output.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(results.count == 2, "\(output.stdout) \(output.stderr)")
            #expect(results.first?["status"] as? String == "200")
            #expect(results.first?["notificationId"] as? String == goodID)
            #expect(results.last?["status"] as? String == "400")
            #expect(results.last?["description"] as? String == "BadDeviceToken")

            let records = try await E2E.deliveries(mock, token: good)
            let record = try #require(records.first)
            #expect(record["apnsId"] as? String == goodID)
            #expect(
                ((record["authorization"] as? [String: Any])?["claims"] as? [String: Any])?["iss"] as? String
                    == E2E.teamID)
            let alert = ((record["payload"] as? [String: Any])?["aps"] as? [String: Any])?["alert"] as? [String: Any]
            #expect(alert?["title"] as? String == "Hello")
        }
    }
}
