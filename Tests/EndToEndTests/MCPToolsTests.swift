import APNSMock
import Foundation
import Testing

/// The admin API's MCP endpoint (`POST /mcp`, Streamable HTTP) as an assistant meets it: the
/// `mcp` client library from PyPI (in the venv `make test` creates) lists the tools, calls each
/// one against pushes curl sent, and gets tool errors, not crashes, for bad arguments; a client
/// without the admin token is refused.
@Suite(.serialized) struct MCPToolsTests {
    static let adminToken = "mcp-admin-token-5678"

    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func thePythonMCPClientListsAndCallsEveryTool() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock(E2E.mockConfiguration { $0.adminToken = Self.adminToken }) { mock in
            let device = E2E.randomToken()
            let accepted = E2E.newAPNSID()
            let refused = E2E.newAPNSID()
            let ok = try await FaultInjectionTests.curlPush(
                mock, token: device, payload: #"{"aps":{"alert":{"title":"Hi"}}}"#,
                extra: ["-H", "apns-id: \(accepted)"])
            #expect(ok.status == 200)
            let bad = try await FaultInjectionTests.curlPush(
                mock, token: device, extra: ["-H", "apns-id: \(refused)", "-H", "apns-priority: 7"])
            #expect(bad.status == 400)

            let output = try await E2E.run(
                python,
                [
                    E2E.clientsDirectory + "/mcp_tools.py", mock.endpoints.adminURL, Self.adminToken, accepted, refused,
                    device,
                ], timeout: 90)
            #expect(output.status == 0, "\(output.stderr)")
            var steps: [String: [String: Any]] = [:]
            for line in output.stdout.split(separator: "\n") {
                guard let step = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    let name = step["step"] as? String
                else { continue }
                steps[name] = step
            }
            func text(_ name: String) -> String { steps[name]?["text"] as? String ?? "" }
            func isError(_ name: String) -> Bool? { steps[name]?["isError"] as? Bool }
            func structured(_ name: String) -> [String: Any] { steps[name]?["structured"] as? [String: Any] ?? [:] }

            #expect(steps["initialize"]?["server"] as? String == "apns-mock", "\(output.stdout)\(output.stderr)")
            #expect(
                steps["list"]?["tools"] as? [String] == [
                    "add_fault", "delete_fault", "device_notifications", "explain_delivery", "list_deliveries",
                    "list_faults",
                    "provider_report",
                    "reset", "server_info", "set_device", "set_devices", "subscribe_webpush", "verify",
                    "wait_for_deliveries",
                ])
            #expect(isError("set_devices") == false, "\(text("set_devices"))")
            // Both devices of the fleet are new to the registry.
            #expect(structured("set_devices")["created"] as? Int == 2, "\(structured("set_devices"))")
            #expect(structured("set_devices")["replaced"] as? Int == 0, "\(structured("set_devices"))")
            let subscription = structured("subscribe_webpush")
            #expect(isError("subscribe_webpush") == false, "\(text("subscribe_webpush"))")
            #expect(
                (subscription["endpoint"] as? String)?.hasPrefix(mock.endpoints.webPushURL + "/") == true,
                "\(subscription)")
            #expect((subscription["keys"] as? [String: Any])?["auth"] is String)
            #expect(structured("server_info")["apnsUrl"] as? String == mock.endpoints.apnsURL)
            #expect((structured("list_deliveries")["deliveries"] as? [Any])?.count == 2)
            // What the device shows: the accepted push, not the refused one.
            let shown = structured("device_notifications")["notifications"] as? [[String: Any]]
            #expect(shown?.map { $0["apnsId"] as? String } == [accepted], "\(structured("device_notifications"))")
            #expect(isError("wait_for_deliveries") == false)
            #expect(
                (structured("wait_for_deliveries")["deliveries"] as? [[String: Any]])?.first?["apnsId"] as? String
                    == accepted)
            // A wait that times out is an error that lists what came closest.
            #expect(isError("wait_timeout") == true)
            #expect(text("wait_timeout").contains("→ 408"))
            let nearMisses = structured("wait_timeout")["nearMisses"] as? [[String: Any]] ?? []
            #expect(nearMisses.contains { ($0["record"] as? [String: Any])?["apnsId"] as? String == accepted })
            // The server's words come first: the 408's explanation, the record's.
            let waitWords = try #require(structured("wait_timeout")["explanation"] as? String)
            #expect(text("wait_timeout").hasPrefix(waitWords + "\n\n"), "\(text("wait_timeout"))")
            #expect(waitWords.contains("conditions hold)") && waitWords.contains("\ndashboard: http://"))
            let recordWords = try #require(structured("explain_refused")["explanation"] as? String)
            #expect(text("explain_refused").hasPrefix(recordWords + "\n\n"))
            // explain: Apple's answer and the mock's reason, then the record.
            #expect(text("explain_refused").contains("answer: 400 BadPriority"), "\(text("explain_refused"))")
            #expect(text("explain_refused").contains("why: "))
            #expect(text("explain_accepted").contains("answer: 200"))
            // Fault rules: added, refused twice (409), replaced, listed, deleted.
            #expect(isError("add_fault") == false)
            #expect(text("add_fault_again").contains("→ 409"))
            #expect(isError("add_fault_replace") == false && text("add_fault_replace").hasPrefix("PUT /v1/faults/gone"))
            #expect((structured("list_faults")["faults"] as? [[String: Any]])?.first?["id"] as? String == "gone")
            #expect(isError("delete_fault") == false)
            #expect(structured("set_device")["state"] as? String == "unregistered")
            #expect(structured("provider_report")["deliveries"] as? Int == 2)
            #expect(structured("verify")["passed"] as? Bool == true)
            // Bad arguments get tool errors that say what is wrong.
            #expect(isError("bad_argument_name") == true && text("bad_argument_name").contains("did you mean 'match'"))
            #expect(isError("bad_argument_type") == true && text("bad_argument_type").contains("whole number"))
            #expect(isError("bad_match_field") == true && text("bad_match_field").contains("did you mean 'status'"))
            #expect(isError("missing_argument") == true && text("missing_argument").contains("needs the argument 'id'"))
            #expect(isError("unknown_fault") == true && text("unknown_fault").contains("→ 404"))
            #expect((steps["unknown_tool"]?["raised"] as? String)?.contains("no tool 'no_such_tool'") == true)
            #expect(structured("reset")["reset"] as? Bool == true)
            #expect(steps["no_token"]?["status"] as? Int == 401)
            // The server is still there and every call went through the admin API.
            let (status, _) = try await E2E.adminGET(mock, "/health")
            #expect(status == 200)
        }
    }

    /// `mcp.Client(url)`, the library's high-level client: it probes a newer revision first
    /// (`server/discover`), is refused, and falls back to `initialize`.
    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func theHighLevelClientFallsBackToInitialize() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock { mock in
            let script = """
                import asyncio, sys
                from mcp import Client
                async def main():
                    async with Client(sys.argv[1] + "/mcp") as client:
                        tools = await client.list_tools()
                        result = await client.call_tool("list_faults", {})
                        print(len(tools.tools), result.is_error, result.content[0].text.splitlines()[0])
                asyncio.run(main())
                """
            let output = try await E2E.run(python, ["-c", script, mock.endpoints.adminURL], timeout: 60)
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout == "14 False GET /v1/faults → 200\n", "\(output.stdout)\(output.stderr)")
        }
    }
}
