import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import APNSMockAdmin

/// `POST /mcp` on the admin router: tools reach the real routes (with the caller's token), the
/// transport's refusals (another origin, an unknown revision), `GET /mcp` is 405.
@Suite struct MCPEndpointTests {
    static func post(
        _ client: some TestClientProtocol, _ body: String, headers: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, [String: Any]?) {
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.accept] = "application/json, text/event-stream"
        let response = try await client.executeRequest(
            uri: "/mcp", method: .post, headers: fields, body: ByteBuffer(string: body))
        let bytes = Data(response.body.readableBytesView)
        return (response.status, bytes.isEmpty ? nil : try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    }

    static func toolCall(_ name: String, _ arguments: String) -> String {
        #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"\#(name)","arguments":\#(arguments)}}"#
    }

    @Test func aToolCallReachesTheRouteAndItsState() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let (status, added) = try await Self.post(
                client, Self.toolCall("add_fault", #"{"rule":{"id":"slow","action":{"delay":{"duration":"5ms"}}}}"#))
            #expect(status == .ok)
            let result = added?["result"] as? [String: Any]
            #expect(result?["isError"] as? Bool == false)
            #expect((result?["structuredContent"] as? [String: Any])?["id"] as? String == "slow")
            // The rule is there for the admin API itself.
            let listed = try await ChannelRoutesTests.call(client, .get, "/v1/faults")
            #expect((listed.json?["faults"] as? [[String: Any]])?.first?["id"] as? String == "slow")
        }
    }

    /// A value of the right JSON type that the route refuses gets the route's own words: the
    /// tool does not judge what the admin API judges.
    @Test func aValueTheRouteRefusesIsTheRoutesError() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let (status, answer) = try await Self.post(
                client, Self.toolCall("wait_for_deliveries", #"{"timeout":"soon","tokenPrefix":["ab","abc"]}"#))
            #expect(status == .ok)
            let result = answer?["result"] as? [String: Any]
            #expect(result?["isError"] as? Bool == true)
            let text = ((result?["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
            #expect(
                text.hasPrefix(
                    "GET /v1/deliveries/wait?tokenPrefix=ab&tokenPrefix=abc&timeout=soon → 400: query parameter 'timeout' must be a duration"
                ), "\(text)")
        }
    }

    @Test func theAdminTokenGuardsTheEndpointAndItsTools() async throws {
        let executor = AdminExecutor()
        let router = AdminRouter.build(
            store: DeliveryStore(), registry: Registry(), executor: executor, access: AdminAccess(token: "t0k"))
        try await Application(router: router).test(.router) { client in
            let (refused, _) = try await Self.post(client, Self.toolCall("list_faults", "{}"))
            #expect(refused == .unauthorized)
            let (status, answer) = try await Self.post(
                client, Self.toolCall("list_faults", "{}"), headers: [.authorization: "Bearer t0k"])
            #expect(status == .ok)
            let result = answer?["result"] as? [String: Any]
            #expect(result?["isError"] as? Bool == false, "\(String(describing: answer))")
        }
        await executor.shutdown()
    }

    @Test func anotherOriginAndAnUnknownRevisionAreRefused() async throws {
        try await ChannelRoutesTests.withRouter { client in
            let ping = #"{"jsonrpc":"2.0","id":1,"method":"ping"}"#
            let (foreign, _) = try await Self.post(client, ping, headers: [.origin: "https://evil.example"])
            #expect(foreign == .forbidden)
            let (local, _) = try await Self.post(client, ping, headers: [.origin: "http://localhost:5173"])
            #expect(local == .ok)
            let (future, answer) = try await Self.post(
                client, ping, headers: [MCPEndpoint.protocolVersionHeader: "1999-01-01"])
            #expect(future == .badRequest)
            #expect(((answer?["error"] as? [String: Any])?["message"] as? String)?.contains("2025-11-25") == true)
            let (notification, body) = try await Self.post(
                client, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            #expect(notification == .accepted && body == nil)
            let get = try await ChannelRoutesTests.call(client, .get, "/mcp")
            #expect(get.status == .methodNotAllowed)
        }
    }
}
