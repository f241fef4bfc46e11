import APNSMock
import Foundation
import Testing

/// The broadcast flow (create, read, list, broadcast, delete, broadcast to the deleted channel)
/// driven by the HTTP/2 clients providers build on: Node's built-in `http2` and Python's
/// `httpx` (h2), each by provider token and by client certificate. Apple's "Sending channel
/// management requests to APNs" and "Sending broadcast push notification requests to APNs".
@Suite struct BroadcastClientTests {
    enum Client: String, CaseIterable, CustomStringConvertible {
        case node, httpx
        var description: String { rawValue }
    }

    enum Credential: String, CaseIterable, CustomStringConvertible {
        case token, certificate
        var description: String { rawValue }
    }

    static let certs = E2E.repositoryRoot + "/certs/"

    static func run(_ client: Client, _ credential: Credential, _ mock: RunningMock) async throws -> [String: Any] {
        let authentication =
            credential == .token
            ? ["--token", try E2E.providerToken()]
            : ["--cert", certs + "provider-sandbox.pem", certs + "provider-sandbox-key.pem"]
        let ports = [String(mock.endpoints.apnsPort), String(mock.endpoints.channelsPort), E2E.caFile]
        let output: E2E.Output
        switch client {
        case .node:
            output = try await E2E.run(
                "node", [E2E.clientsDirectory + "/node_broadcast.mjs"] + ports + authentication, timeout: 60)
        case .httpx:
            let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
            output = try await E2E.run(
                python, [E2E.clientsDirectory + "/httpx_broadcast.py"] + ports + authentication, timeout: 60)
        }
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "\(output.stdout)\n\(output.stderr)")
    }

    static var available: Bool {
        E2E.clientsRequired || (E2E.which("node") != nil && PythonClientTests.python != nil)
    }

    @Test(
        .enabled(if: available, "needs node and APNS_MOCK_PYTHON (make test has both)"), arguments: Client.allCases,
        Credential.allCases)
    func aBroadcastFlow(_ client: Client, _ credential: Credential) async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.clientCAPath = E2E.caFile }) { mock in
            let result = try await Self.run(client, credential, mock)
            func answer(_ name: String) -> [String: Any] { result[name] as? [String: Any] ?? [:] }
            let created = answer("created")
            #expect(created["status"] as? Int == 201, "\(result)")
            let id = try #require(created["channelId"] as? String)
            #expect(created["requestId"] is String)
            #expect(created["apnsId"] is NSNull || created["apnsId"] == nil)
            let read = answer("read")
            #expect(read["status"] as? Int == 200)
            let configuration = try JSONSerialization.jsonObject(with: Data((read["body"] as? String ?? "").utf8))
            #expect((configuration as? [String: Any])?["push-type"] as? String == "LiveActivity")
            #expect(answer("list")["body"] as? String == #"{"channels":["\#(id)"]}"#)
            let broadcast = answer("broadcast")
            #expect(broadcast["status"] as? Int == 200, "\(broadcast)")
            #expect(broadcast["uniqueId"] is String)
            #expect(broadcast["requestId"] is String)
            #expect(answer("deleted")["status"] as? Int == 204)
            let afterDelete = answer("afterDelete")
            #expect(afterDelete["status"] as? Int == 400)
            #expect(afterDelete["body"] as? String == #"{"reason":"ChannelNotRegistered"}"#)
            #expect(afterDelete["contentType"] as? String == "application/json")
            if client == .httpx { #expect(broadcast["httpVersion"] as? String == "HTTP/2") }

            let records = mock.deliveries.all(matching: [.kind(.broadcast)])
            #expect(records.count == 2)
            let method: AuthenticationResult.Method = credential == .token ? .token : .certificate
            #expect(records.allSatisfy { $0.authentication?.method == method })
            #expect(records.first?.channelID == id)
        }
    }
}
