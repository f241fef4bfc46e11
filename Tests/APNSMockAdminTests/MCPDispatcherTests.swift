import APNSMockCore
import Synchronization
import Testing

@testable import APNSMockAdmin

/// The MCP JSON-RPC rules without HTTP: each tool makes exactly its admin call, bad arguments
/// become tool errors that say what is wrong, protocol mistakes become JSON-RPC errors.
/// (modelcontextprotocol.io/specification/2025-11-25: basic/lifecycle, server/tools.)
@Suite struct MCPDispatcherTests {
    /// A dispatcher whose admin calls are recorded and answered with `answer`.
    final class Calls: Sendable {
        let made = Mutex<[AdminCall]>([])
    }

    static func dispatcher(
        _ calls: Calls = Calls(),
        answer: AdminCallResult = AdminCallResult(status: 200, body: Array(#"{"ok":true}"#.utf8))
    ) -> MCPDispatcher {
        MCPDispatcher(tools: MCPToolbox.all, version: "1.2.3") { call in
            calls.made.withLock { $0.append(call) }
            return answer
        }
    }

    static func call(_ name: String, _ arguments: String, calls: Calls = Calls()) async -> (JSONValue?, [AdminCall]) {
        let body =
            #"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"\#(name)","arguments":\#(arguments)}}"#
        guard case .message(let message) = await dispatcher(calls).reply(to: Array(body.utf8)) else {
            return (nil, calls.made.withLock { $0 })
        }
        return (message["result"], calls.made.withLock { $0 })
    }

    /// The text of a tool result's first content item.
    static func text(of result: JSONValue?) -> String {
        guard case .array(let content)? = result?["content"], let first = content.first else { return "" }
        return first["text"]?.scalarText ?? ""
    }

    @Test func initializeEchoesAKnownRevisionAndOffersTools() async throws {
        for (asked, answered) in [
            ("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"), ("2099-01-01", "2025-11-25"),
        ] {
            let body =
                #"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"\#(asked)","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
            guard case .message(let message) = await Self.dispatcher().reply(to: Array(body.utf8)) else {
                Issue.record("no message")
                return
            }
            #expect(message["id"] == .string("a"))
            #expect(message["result"]?["protocolVersion"] == .string(answered))
            #expect(message["result"]?["capabilities"]?["tools"] != nil)
            #expect(message["result"]?["serverInfo"]?["version"] == .string("1.2.3"))
        }
    }

    @Test func notificationsAreAcceptedWithoutAnAnswer() async {
        let body = #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#
        #expect(await Self.dispatcher().reply(to: Array(body.utf8)) == .accepted)
    }

    @Test func everyToolIsListedWithAnObjectSchema() async throws {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#
        guard case .message(let message) = await Self.dispatcher().reply(to: Array(body.utf8)),
            case .array(let tools)? = message["result"]?["tools"]
        else {
            Issue.record("no tool list")
            return
        }
        #expect(tools.count == MCPToolbox.all.count)
        for tool in tools {
            #expect(tool["inputSchema"]?["type"] == .string("object"))
            #expect(tool["description"]?.scalarText?.isEmpty == false)
        }
        let wait = tools.first { $0["name"] == .string("explain_delivery") }
        #expect(wait?["inputSchema"]?["required"] == .array([.string("apnsId")]))
    }

    /// Each tool is one admin route, its arguments that route's query and body.
    @Test(arguments: [
        (
            "list_deliveries",
            #"{"match":{"status":410,"payload":{"aps":{"alert":{"title":"Hi & bye"}}}},"limit":5,"order":"desc"}"#,
            "GET /v1/deliveries?status=410&payload.aps.alert.title=Hi%20%26%20bye&limit=5&order=desc"
        ),
        (
            "wait_for_deliveries", #"{"match":{"headers":{"apns-priority":"5"}},"count":2,"timeout":"2s"}"#,
            "GET /v1/deliveries/wait?headers.apns-priority=5&count=2&timeout=2s"
        ),
        ("wait_for_deliveries", #"{"timeout":1.5}"#, "GET /v1/deliveries/wait?timeout=1.5"),
        (
            "explain_delivery", #"{"apnsId":"8E1A2B3C-0000-4000-8000-000000000001"}"#,
            "GET /v1/deliveries/8E1A2B3C-0000-4000-8000-000000000001"
        ),
        ("list_faults", "{}", "GET /v1/faults"),
        ("add_fault", #"{"rule":{"id":"x","action":{"hang":{}}}}"#, "POST /v1/faults"),
        ("add_fault", #"{"rule":{"id":"a/b","action":{"hang":{}}},"replace":true}"#, "PUT /v1/faults/a%2Fb"),
        ("delete_fault", #"{"id":"outage"}"#, "DELETE /v1/faults/outage"),
        ("set_device", #"{"token":"ABCD","device":{"state":"expired"}}"#, "PUT /v1/devices/ABCD"),
        ("device_notifications", #"{"token":"ABCD"}"#, "GET /v1/devices/ABCD/notifications"),
        ("device_notifications", #"{"token":"abcd","limit":5}"#, "GET /v1/devices/abcd/notifications?limit=5"),
        ("provider_report", #"{"window":"10m"}"#, "GET /v1/report?window=10m"),
        ("verify", #"{"expectations":[{"name":"n","match":{"status":200}}]}"#, "POST /v1/verify"),
        ("reset", #"{"closeConnections":true}"#, "POST /v1/reset?closeConnections=true"),
        ("server_info", "null", "GET /v1/info"),
    ])
    func eachToolMakesItsAdminCall(_ tool: String, _ arguments: String, _ expected: String) async {
        let (result, calls) = await Self.call(tool, arguments)
        #expect(calls.map { "\($0.method.rawValue) \($0.target)" } == [expected])
        #expect(result?["isError"] == .bool(false))
        #expect(result?["structuredContent"]?["ok"] == .bool(true))
    }

    /// A matcher field is an argument of its own or a member of `match`; a list of values gives
    /// the field once per value (each one more condition), as the Python and Node clients do.
    @Test(arguments: [
        (
            "list_deliveries", #"{"status":[410,429],"delivery":"stored","deliveryReason":"expired"}"#,
            "GET /v1/deliveries?status=410&status=429&delivery=stored&deliveryReason=expired"
        ),
        (
            "list_deliveries", #"{"match":{"token":["ab","cd"],"payload":{"aps":{"badge":[1,2]}}},"tokenPrefix":"ab"}"#,
            "GET /v1/deliveries?token=ab&token=cd&payload.aps.badge=1&payload.aps.badge=2&tokenPrefix=ab"
        ),
        (
            "wait_for_deliveries", #"{"kind":["push","broadcast"],"before":9,"since":2}"#,
            "GET /v1/deliveries/wait?kind=push&kind=broadcast&since=2&before=9"
        ),
        ("set_device", #"{"token":"abcd"}"#, "PUT /v1/devices/abcd"),
        ("reset", #"{"closeConnections":"false"}"#, "POST /v1/reset?closeConnections=false"),
    ])
    func matcherFieldsAndLists(_ tool: String, _ arguments: String, _ expected: String) async {
        let (result, calls) = await Self.call(tool, arguments)
        #expect(calls.map { "\($0.method.rawValue) \($0.target)" } == [expected], "\(Self.text(of: result))")
        #expect(result?["isError"] == .bool(false))
    }

    /// The deliveries tools take every matcher field the document declares for their
    /// operation, with the document's schema and description, and `match` for the free-form
    /// conditions; every tool's arguments are its operation's parameters and body.
    @Test func toolArgumentsAreTheDocumentsParameters() throws {
        for (name, operation) in [
            ("list_deliveries", AdminOperation.listDeliveries), ("wait_for_deliveries", .waitForDeliveries),
        ] {
            let tool = try #require(MCPToolbox.all.first { $0.name == name })
            #expect(tool.operation == operation)
            let properties = tool.listing["inputSchema"]?["properties"]
            for parameter in operation.parameters where parameter.location == .query {
                if parameter.isFreeForm {
                    #expect(properties?["match"]?["type"] == .string("object"), "\(name)")
                    continue
                }
                let property = try #require(properties?[parameter.name], "\(name) lacks \(parameter.name)")
                if DeliveryMatcher.isQueryField(parameter.name) {
                    // The document's schema, or a list of such values.
                    let one = JSONValue.parse(parameter.schema).map(MCPTool.withoutDescription)
                    guard case .array(let alternatives)? = property["anyOf"] else {
                        Issue.record("\(name)'s \(parameter.name) takes no list")
                        continue
                    }
                    #expect(alternatives.first == one, "\(parameter.name)")
                }
                if !parameter.description.isEmpty {
                    #expect(property["description"] == .string(MCPTool.prose(parameter.description)))
                }
            }
            // `headers.`, `payload.`, `preview.` and `webPush.` conditions go in `match` (checked above).
            for field in DeliveryMatcher.fieldNames + ["delivery", "deliveryReason"]
            where !DeliveryMatcher.pathFieldNames.contains(field) {
                #expect(properties?[field] != nil, "\(name) lacks the matcher field \(field)")
            }
        }
        for tool in MCPToolbox.all {
            let documented = tool.operation.parameters.filter { $0.location != .header && !$0.isFreeForm }.map(\.name)
            let arguments = tool.arguments.filter {
                $0.role == .path || $0.role == .query(repeats: true) || $0.role == .query(repeats: false)
            }
            #expect(arguments.map(\.name) == documented, "\(tool.name)")
            #expect(tool.description.contains(tool.operation.path), "\(tool.name)")
        }
        let setDevice = try #require(MCPToolbox.all.first { $0.name == "set_device" })
        #expect(
            setDevice.arguments.last?.schema
                == MCPTool.withoutDescription(
                    JSONValue.parse(AdminOperation.putDevice.requestBodySchema ?? "") ?? .null))
    }

    @Test func aBodyArgumentIsSentAsGiven() async {
        let (_, calls) = await Self.call("add_fault", #"{"rule":{"id":"x","action":{"hang":{}}}}"#)
        #expect(calls.first?.body?.jsonText == #"{"id":"x","action":{"hang":{}}}"#)
    }

    /// Input errors are tool results with isError, so the model can correct itself (2025-11-25, server/tools).
    @Test(arguments: [
        ("list_deliveries", #"{"mach":{}}"#, "has no argument 'mach' (did you mean 'match'?)"),
        (
            "list_deliveries", #"{"match":{"payload":{"aps":null}}}"#,
            "'payload.aps' must be a string, a number or a boolean"
        ),
        ("list_deliveries", #"{"match":{"token":[["ab"]]}}"#, "'token' must be a string, a number or a boolean"),
        ("list_deliveries", #"{"limit":2.5}"#, "argument 'limit' must be a whole number"),
        ("list_deliveries", #"{"status":["410"]}"#, "argument 'status' must be a whole number"),
        ("list_deliveries", #"{"limit":[1,2]}"#, "argument 'limit' must be a whole number"),
        ("wait_for_deliveries", #"{"timeout":{"s":1}}"#, "argument 'timeout' must be a string"),
        ("delete_fault", "{}", "delete_fault needs the argument 'id'"),
        ("add_fault", #"{"rule":{"action":{"hang":{}}},"replace":true}"#, "needs the rule's id"),
        ("set_device", #"{"token":"ab","device":"offline"}"#, "argument 'device' must be a JSON object"),
        ("reset", #"[1]"#, "must be a JSON object"),
    ])
    func badArgumentsAreToolErrors(_ tool: String, _ arguments: String, _ words: String) async {
        let (result, calls) = await Self.call(tool, arguments)
        #expect(calls.isEmpty)
        #expect(result?["isError"] == .bool(true))
        let text = Self.text(of: result)
        #expect(text.contains(words), "\(text)")
    }

    @Test func anAdminErrorIsAToolErrorCarryingItsMessage() async {
        let calls = Calls()
        let answer = AdminCallResult(status: 404, body: AdminError.notFound("no fault rule with id 'x'").body)
        let body =
            #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_fault","arguments":{"id":"x"}}}"#
        guard case .message(let message) = await Self.dispatcher(calls, answer: answer).reply(to: Array(body.utf8))
        else {
            Issue.record("no message")
            return
        }
        #expect(message["result"]?["isError"] == .bool(true))
        let text = Self.text(of: message["result"])
        #expect(text.hasPrefix("DELETE /v1/faults/x → 404: no fault rule with id 'x'"), "\(text)")
    }

    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#, -32601),
        (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_deliverys"}}"#, -32602),
        (#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}"#, -32602),
    ])
    func protocolMistakesAreJSONRPCErrors(_ body: String, _ code: Int) async {
        guard case .message(let message) = await Self.dispatcher().reply(to: Array(body.utf8)) else {
            Issue.record("no message")
            return
        }
        #expect(message["error"]?["code"]?.scalarText == "\(code)")
        #expect(message["id"] == .number(1, text: "1"))
    }

    @Test func anUnknownToolNameGetsASuggestion() async {
        let body = #"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_deliverys"}}"#
        guard case .message(let message) = await Self.dispatcher().reply(to: Array(body.utf8)) else { return }
        #expect(message["error"]?["message"]?.scalarText?.contains("did you mean 'list_deliveries'") == true)
    }

    /// Refused with HTTP 400 as the OpenAPI document says (schemathesis sends each): not JSON, no
    /// version, an empty batch, no object, params that are no object, a method or id of the wrong type.
    @Test(arguments: [
        "{", #"{"id":1,"method":"ping"}"#, "[]", "3", #"{"jsonrpc":"2.0","id":1,"method":"ping","params":"x"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"ping","params":null}"#, #"{"jsonrpc":"2.0","id":1,"method":7}"#,
        #"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, #"{"jsonrpc":"2.0","id":1}"#,
        #"{"jsonrpc":"2.0","id":2.5,"method":"ping"}"#, "[null, null]",
        #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":3}]"#,
    ])
    func aBodyThatIsNoMessageIsInvalid(_ body: String) async {
        guard case .invalid(let message) = await Self.dispatcher().reply(to: Array(body.utf8)) else {
            Issue.record("not refused: \(body)")
            return
        }
        #expect(message["error"]?["code"] != nil)
    }

    @Test func aBatchIsAnsweredMessageByMessage() async {
        let body =
            #"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#
        guard case .message(.array(let answers)) = await Self.dispatcher().reply(to: Array(body.utf8)) else {
            Issue.record("no batch answer")
            return
        }
        #expect(answers.map { $0["id"]?.scalarText } == ["1", "2"])
    }

    @Test func originsFromThisMachineOrThisServerAreLocal() {
        #expect(MCPEndpoint.isLocal(origin: "http://localhost:3000", host: "127.0.0.1:8080"))
        #expect(MCPEndpoint.isLocal(origin: "http://127.0.0.1", host: nil))
        #expect(MCPEndpoint.isLocal(origin: "http://[::1]:9", host: nil))
        #expect(MCPEndpoint.isLocal(origin: "http://apns-mock:8080", host: "apns-mock:8080"))
        #expect(!MCPEndpoint.isLocal(origin: "https://evil.example", host: "127.0.0.1:8080"))
        #expect(!MCPEndpoint.isLocal(origin: "http://localhost.evil.example", host: nil))
        #expect(!MCPEndpoint.isLocal(origin: "null", host: nil))
    }
}
