import APNSMockCore

/// The Model Context Protocol's JSON-RPC methods, answered over the admin API's tools:
/// `initialize`, `ping`, `tools/list` and `tools/call` (each tool one admin call, made by
/// `perform`); notifications are taken and not answered. No I/O of its own: `MCPEndpoint`
/// carries its messages over HTTP.
struct MCPDispatcher: Sendable {
    /// The protocol revisions answered; a client asking for another gets the newest.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    let tools: [MCPTool]
    /// The server's version (`serverInfo.version`).
    let version: String
    /// Makes a tool's admin call.
    let perform: @Sendable (AdminCall) async -> AdminCallResult

    /// What the HTTP side sends back for one POSTed message (or batch).
    enum Reply: Sendable, Equatable {
        /// 200 with this JSON-RPC message (or batch of them).
        case message(JSONValue)
        /// 202 with no body: the POST held only notifications or responses.
        case accepted
        /// 400 with this JSON-RPC error (the body was no JSON-RPC message).
        case invalid(JSONValue)
    }

    /// JSON-RPC error codes.
    enum ErrorCode: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
    }

    /// The reply to a POSTed body.
    func reply(to body: [UInt8]) async -> Reply {
        let document: JSONValue
        do throws(JSONSyntaxError) {
            document = try JSONValue.parsing(body)
        } catch {
            return .invalid(Self.error(id: .null, .parseError, "the body is not JSON (\(error.description))"))
        }
        if case .array(let messages) = document {
            guard !messages.isEmpty else {
                return .invalid(Self.error(id: .null, .invalidRequest, "an empty batch"))
            }
            // A batch with a member that is no message is refused whole, as a lone one is.
            for message in messages {
                if let malformed = Self.malformation(of: message) { return .invalid(malformed) }
            }
            var answers: [JSONValue] = []
            for message in messages {
                if let answer = await answer(message) { answers.append(answer) }
            }
            return answers.isEmpty ? .accepted : .message(.array(answers))
        }
        if let malformed = Self.malformation(of: document) { return .invalid(malformed) }
        guard let answer = await answer(document) else { return .accepted }
        return .message(answer)
    }

    /// The JSON-RPC error for a message that is not one (JSON-RPC 2.0 §4-5, MCP's `id` and
    /// `params`): not an object, not version 2.0, a method that is no string, no method and no
    /// result, an `id` that is neither string nor number, `params` that are no object.
    static func malformation(of message: JSONValue) -> JSONValue? {
        let id: JSONValue
        switch message["id"] {
        case .string?: id = message["id"] ?? .null
        case .number(let number, _)? where number.rounded() == number: id = message["id"] ?? .null
        case nil: id = .null
        case let other?:
            return error(id: .null, .invalidRequest, "id must be a string or a whole number; got \(other.jsonText)")
        }
        guard case .object = message else {
            return error(id: .null, .invalidRequest, "a JSON-RPC message is an object; got \(message.jsonText)")
        }
        guard message["jsonrpc"] == .string("2.0") else {
            return error(id: id, .invalidRequest, "not a JSON-RPC 2.0 message (\"jsonrpc\": \"2.0\" is missing)")
        }
        switch message["method"] {
        case .string?: break
        case nil:
            // A response to a request of ours (there are none) is taken; anything else is not a message.
            if message["result"] != nil || message["error"] != nil { return nil }
            return error(id: id, .invalidRequest, "a request needs a method")
        case let other?:
            return error(id: id, .invalidRequest, "method must be a string; got \(other.jsonText)")
        }
        if let params = message["params"] {
            guard case .object = params else {
                return error(id: id, .invalidParams, "params must be an object; got \(params.jsonText)")
            }
        }
        return nil
    }

    /// The answer to one message; none for a notification or a response.
    func answer(_ message: JSONValue) async -> JSONValue? {
        if let malformed = Self.malformation(of: message) { return malformed }
        guard case .string(let method)? = message["method"] else { return nil }  // a response
        guard let id = message["id"], id != .null else { return nil }  // a notification
        let params = message["params"]
        switch method {
        case "initialize":
            return Self.result(id: id, initializeResult(params))
        case "ping":
            return Self.result(id: id, .object([]))
        case "tools/list":
            return Self.result(id: id, .object([(key: "tools", value: .array(tools.map(\.listing)))]))
        case "tools/call":
            guard case .string(let name)? = params?["name"] else {
                return Self.error(id: id, .invalidParams, "tools/call needs params.name, a tool's name")
            }
            guard let tool = tools.first(where: { $0.name == name }) else {
                let names = tools.map(\.name)
                return Self.error(
                    id: id, .invalidParams,
                    "no tool '\(name)'\(NameSuggestion.didYouMean(name, among: names)); the tools are \(names.joined(separator: ", "))"
                )
            }
            return Self.result(id: id, await call(tool, params?["arguments"]))
        default:
            return Self.error(id: id, .methodNotFound, "method '\(method)' is not offered (tools only)")
        }
    }

    private func initializeResult(_ params: JSONValue?) -> JSONValue {
        let asked = params?["protocolVersion"]?.scalarText ?? ""
        let version = Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0]
        return .object([
            (key: "protocolVersion", value: .string(version)),
            (
                key: "capabilities",
                value: .object([(key: "tools", value: .object([(key: "listChanged", value: .bool(false))]))])
            ),
            (
                key: "serverInfo",
                value: .object([
                    (key: "name", value: .string("apns-mock")), (key: "title", value: .string("apns-mock admin API")),
                    (key: "version", value: .string(self.version)),
                ])
            ),
            (
                key: "instructions",
                value: .string(
                    "apns-mock is a mock Apple Push Notification service. Its tools read what providers pushed to it (list_deliveries, wait_for_deliveries), explain why a push was refused (explain_delivery), inject faults (add_fault, delete_fault), set device tokens' state (set_device), check expectations (verify) and report provider habits (provider_report). Each tool is one admin API route; its answer is that route's JSON."
                )
            ),
        ])
    }

    /// A tool's result: the admin answer as text (after the tool's preface), as
    /// `structuredContent` when it is a JSON object, and `isError` for bad arguments or an
    /// answer of 400 or more.
    func call(_ tool: MCPTool, _ arguments: JSONValue?) async -> JSONValue {
        let adminCall: AdminCall
        do throws(MCPToolError) {
            adminCall = try tool.call(MCPArguments(arguments, for: tool))
        } catch {
            return Self.toolResult(text: error.message, structured: nil, isError: true)
        }
        let result = await perform(adminCall)
        var text = "\(adminCall.method.rawValue) \(adminCall.target) → \(result.status)"
        if let message = result.errorMessage { text += ": " + message }
        if let preface = tool.preface?(result) { text = preface + "\n\n" + text }
        text += "\n" + String(decoding: result.body, as: UTF8.self)
        var structured: JSONValue?
        if case .object? = result.json { structured = result.json }
        return Self.toolResult(text: text, structured: structured, isError: result.status >= 400)
    }

    static func toolResult(text: String, structured: JSONValue?, isError: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            (
                key: "content",
                value: .array([.object([(key: "type", value: .string("text")), (key: "text", value: .string(text))])])
            )
        ]
        if let structured { members.append((key: "structuredContent", value: structured)) }
        members.append((key: "isError", value: .bool(isError)))
        return .object(members)
    }

    static func result(id: JSONValue, _ result: JSONValue) -> JSONValue {
        .object([(key: "jsonrpc", value: .string("2.0")), (key: "id", value: id), (key: "result", value: result)])
    }

    static func error(id: JSONValue, _ code: ErrorCode, _ message: String) -> JSONValue {
        .object([
            (key: "jsonrpc", value: .string("2.0")), (key: "id", value: id),
            (
                key: "error",
                value: .object([
                    (key: "code", value: .integer(Int64(code.rawValue))), (key: "message", value: .string(message)),
                ])
            ),
        ])
    }
}
