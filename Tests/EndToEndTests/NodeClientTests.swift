import Foundation
import Testing

/// Node's built-in http2 module with an ES256 provider token.
@Suite(.serialized) struct NodeClientTests {
    @Test(.enabled(if: E2E.which("node") != nil || E2E.clientsRequired, "node is not installed"))
    func nodeHTTP2Push() async throws {
        let mock = try await E2E.startMock()
        defer { Task { await mock.stop() } }
        let token = E2E.randomToken()
        let apnsID = E2E.newAPNSID()
        let output = try await E2E.run(
            "node",
            [
                E2E.clientsDirectory + "/node_push.mjs", String(mock.endpoints.apnsPort), E2E.caFile, token,
                try E2E.providerToken(), apnsID,
            ])
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
        #expect(result["status"] as? Int == 200)
        #expect(result["apnsId"] as? String == apnsID)
        #expect(result["uniqueId"] is String)
        #expect(try await E2E.deliveries(mock, token: token).count == 1)
    }
}
