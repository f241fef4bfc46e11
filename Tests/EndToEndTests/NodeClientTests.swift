import APNSMock
import Foundation
import Testing

/// Node's built-in http2 module with an ES256 provider token.
@Suite(.serialized) struct NodeClientTests {
    @Test(.enabled(if: E2E.which("node") != nil || E2E.clientsRequired, "node is not installed"))
    func nodeHTTP2Push() async throws {
        try await E2E.withMock { mock in
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

    /// The whole CI flow from another language: a Node script starts `apns-mock serve`, pushes,
    /// waits for the delivery on the admin API and runs `apns-mock verify` on an expectation file.
    @Test(.enabled(if: E2E.which("node") != nil || E2E.clientsRequired, "node is not installed"))
    func ciFlowFromNode() async throws {
        let output = try await E2E.run(
            "node",
            [E2E.clientsDirectory + "/ci_flow.mjs", CLITests.executable, E2E.repositoryRoot, try E2E.providerToken()],
            timeout: 90)
        #expect(output.status == 0, "\(output.stdout) \(output.stderr)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
        #expect(result["push"] as? Int == 200)
        #expect(result["wait"] as? Int == 200)
        #expect((result["waitedToken"] as? String)?.hasPrefix("7f3a") == true)
        #expect(result["verify"] as? Int == 0)
        #expect((result["report"] as? String)?.contains("all 3 expectations hold") == true)
    }
}
