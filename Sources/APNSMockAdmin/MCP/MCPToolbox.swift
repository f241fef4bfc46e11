import APNSMockCore

/// The tools the admin API offers over MCP, each one documented admin route: its name in
/// snake_case, its arguments named as the route's query parameters and body fields.
enum MCPToolbox {
    static let match = MCPTool.Argument(
        name: "match", schema: #"{"type":"object"}"#,
        description:
            "Matcher fields, named as in the admin API's query: token, tokenPrefix, topic, pushType, status, reason, apnsId, collapseId, priority, environment, authMethod, kind, channelId, faultId, lint, … Nested objects are flattened with dots: {\"payload\": {\"aps\": {\"alert\": {\"title\": \"Hi\"}}}} is payload.aps.alert.title=Hi, {\"headers\": {\"apns-priority\": \"5\"}} is headers.apns-priority=5."
    )

    static let all: [MCPTool] = [
        MCPTool(
            name: "list_deliveries", title: "List deliveries",
            description:
                "The records of what reached the mock (pushes, broadcasts, channel requests), oldest first, each with its request, the answer APNs-style and why (detail). GET /v1/deliveries.",
            arguments: [
                match,
                .init(
                    name: "since", schema: #"{"type":"integer","minimum":0}"#,
                    description: "Only records after this sequence number."),
                .init(
                    name: "before", schema: #"{"type":"integer","minimum":0}"#,
                    description: "Only records before this sequence number."),
                .init(
                    name: "limit", schema: #"{"type":"integer","minimum":1,"maximum":10000}"#,
                    description: "At most this many records (default 1000)."),
                .init(
                    name: "order", schema: #"{"type":"string","enum":["asc","desc"]}"#,
                    description: "asc (oldest first, the default) or desc."),
            ],
            call: { arguments throws(MCPToolError) in
                var query = try arguments.matchQuery()
                for name in ["since", "before", "limit"] {
                    if let value = try arguments.integer(name) { query.append(.init(name: name, value: "\(value)")) }
                }
                if let order = try arguments.string("order") { query.append(.init(name: "order", value: order)) }
                return AdminCall(.get, "/v1/deliveries", query: query)
            }),
        MCPTool(
            name: "wait_for_deliveries", title: "Wait for deliveries",
            description:
                "Waits until at least count records match, and returns them; when the timeout runs out first, the answer is an error listing the closest near misses and how each differs. GET /v1/deliveries/wait.",
            arguments: [
                match,
                .init(
                    name: "count", schema: #"{"type":"integer","minimum":1}"#,
                    description: "How many matching records to wait for (default 1)."),
                .init(
                    name: "timeout", schema: #"{"type":["string","number"]}"#,
                    description:
                        "How long to wait: \"500ms\", \"10s\", \"2m\", or a number of seconds (default 30 s, at most 300 s)."
                ),
                .init(
                    name: "since", schema: #"{"type":"integer","minimum":0}"#,
                    description: "Only records after this sequence number."),
            ],
            call: { arguments throws(MCPToolError) in
                var query = try arguments.matchQuery()
                if let count = try arguments.integer("count") { query.append(.init(name: "count", value: "\(count)")) }
                if let timeout = try arguments.duration("timeout") {
                    query.append(.init(name: "timeout", value: timeout))
                }
                if let since = try arguments.integer("since") { query.append(.init(name: "since", value: "\(since)")) }
                return AdminCall(.get, "/v1/deliveries/wait", query: query)
            },
            preface: { result in
                // A wait that timed out: the server's explanation (closest records, differences, dashboard).
                guard result.status == 408, let text = result.json?["explanation"]?.scalarText else { return nil }
                return text
            }),
        MCPTool(
            name: "explain_delivery", title: "Explain a delivery",
            description:
                "What the mock answered to one request and why: the request, the status and reason, the mock's detail (the claim, header, size or fault behind a rejection) and the fault rule that fired, then the whole record. GET /v1/deliveries/{apnsId}.",
            arguments: [
                .init(
                    name: "apnsId", schema: #"{"type":"string"}"#,
                    description:
                        "The request's apns-id (apns-request-id for broadcasts and channel requests); the most recent record with it is explained.",
                    required: true)
            ],
            call: { arguments throws(MCPToolError) in
                let id = try arguments.string("apnsId") ?? ""
                return AdminCall(.get, "/v1/deliveries/" + AdminCall.encode(id))
            },
            preface: { result in
                guard result.status == 200, let text = result.json?["explanation"]?.scalarText else { return nil }
                return text
            }),
        MCPTool(
            name: "list_faults", title: "List fault rules",
            description:
                "The fault rules in force, each with its match, action and how often it fired. GET /v1/faults.",
            call: { _ throws(MCPToolError) in AdminCall(.get, "/v1/faults") }),
        MCPTool(
            name: "add_fault", title: "Add a fault rule",
            description:
                "Adds a fault rule: requests it matches get its action (an APNs error status and reason, a delay, a GOAWAY, a reset, a dropped connection). POST /v1/faults, or PUT /v1/faults/{id} with replace.",
            arguments: [
                .init(
                    name: "rule", schema: #"{"type":"object"}"#,
                    description:
                        "The rule as POST /v1/faults takes it, e.g. {\"id\": \"gone\", \"match\": {\"token\": \"…\"}, \"action\": {\"respond\": {\"status\": 410, \"reason\": \"Unregistered\"}}, \"select\": {\"first\": 1}}.",
                    required: true),
                .init(
                    name: "replace", schema: #"{"type":"boolean"}"#,
                    description: "Replace a rule with the same id instead of refusing (the rule needs an id)."),
            ],
            call: { arguments throws(MCPToolError) in
                let rule = try arguments.object("rule") ?? .null
                guard try arguments.bool("replace") == true else { return AdminCall(.post, "/v1/faults", body: rule) }
                guard let id = rule["id"]?.scalarText, rule["id"] != .null else {
                    throw MCPToolError("add_fault with replace needs the rule's id (rule.id)")
                }
                return AdminCall(.put, "/v1/faults/" + AdminCall.encode(id), body: rule)
            }),
        MCPTool(
            name: "delete_fault", title: "Delete a fault rule",
            description: "Deletes one fault rule by id. DELETE /v1/faults/{id}.",
            arguments: [
                .init(name: "id", schema: #"{"type":"string"}"#, description: "The rule's id.", required: true)
            ],
            call: { arguments throws(MCPToolError) in
                AdminCall(.delete, "/v1/faults/" + AdminCall.encode(try arguments.string("id") ?? ""))
            }),
        MCPTool(
            name: "set_device", title: "Set a device's state",
            description:
                "Registers a device token or changes its registration: its app (topic), environment, locale, and state: active, unregistered (410 Unregistered, with unregisteredAt) or expired (410 ExpiredToken); and what becomes of accepted pushes: presence (online, offline, lowPower; with for: \"10m\" or until), notifications (enabled, disabled), installed (false: 200s discarded, then 410 after uninstallGrace). PUT /v1/devices/{token}.",
            arguments: [
                .init(
                    name: "token", schema: #"{"type":"string"}"#,
                    description: "The device token (64 hex digits, any case).", required: true),
                .init(
                    name: "device", schema: #"{"type":"object"}"#,
                    description:
                        "The body PUT /v1/devices/{token} takes, e.g. {\"topic\": \"com.example.app\", \"environment\": \"sandbox\", \"state\": \"unregistered\"} or {\"presence\": \"offline\", \"for\": \"10m\"}.",
                    required: true),
            ],
            call: { arguments throws(MCPToolError) in
                AdminCall(
                    .put, "/v1/devices/" + AdminCall.encode(try arguments.string("token") ?? ""),
                    body: try arguments.object("device"))
            }),
        MCPTool(
            name: "device_notifications", title: "What a device shows",
            description:
                "What a device's user sees now: the notifications delivered to it (newest first, one per collapse id), each app's badge, its Live Activities, and what APNs still holds for it (stored while offline or saving power), with the device's presence. GET /v1/devices/{token}/notifications.",
            arguments: [
                .init(
                    name: "token", schema: #"{"type":"string"}"#,
                    description: "The device token (hex, any case).", required: true),
                .init(
                    name: "limit", schema: #"{"type":"integer","minimum":1,"maximum":10000}"#,
                    description: "At most this many notifications, the newest (default 100)."),
            ],
            call: { arguments throws(MCPToolError) in
                let limit = try arguments.integer("limit")
                return AdminCall(
                    .get, "/v1/devices/" + AdminCall.encode(try arguments.string("token") ?? "") + "/notifications",
                    query: limit.map { [.init(name: "limit", value: "\($0)")] } ?? [])
            }),
        MCPTool(
            name: "provider_report", title: "Provider report",
            description:
                "How the provider behaved: retries of refused pushes, pushes to tokens after 410, token churn, connection habits, with examples. GET /v1/report.",
            arguments: [
                .init(
                    name: "window", schema: #"{"type":["string","number"]}"#,
                    description: "Only the last span: \"10m\", \"1h\", or seconds."),
                .init(
                    name: "since", schema: #"{"type":"integer","minimum":0}"#,
                    description: "Only from this time (epoch milliseconds)."),
                .init(
                    name: "until", schema: #"{"type":"integer","minimum":0}"#,
                    description: "Only until this time (epoch milliseconds)."),
            ],
            call: { arguments throws(MCPToolError) in
                var query: [AdminCall.Query] = []
                if let window = try arguments.duration("window") { query.append(.init(name: "window", value: window)) }
                for name in ["since", "until"] {
                    if let value = try arguments.integer(name) { query.append(.init(name: name, value: "\(value)")) }
                }
                return AdminCall(.get, "/v1/report", query: query)
            }),
        MCPTool(
            name: "verify", title: "Verify expectations",
            description:
                "Checks expectations (what must, or must not, have reached the mock, how many times, within how long, in which order) and says which failed and what came closest. POST /v1/verify.",
            arguments: [
                .init(
                    name: "expectations", schema: #"{"type":["object","array"]}"#,
                    description:
                        "The body POST /v1/verify takes: {\"expect\": [{\"name\", \"match\", \"count\", \"within\"}, …]}, or the list alone.",
                    required: true)
            ],
            call: { arguments throws(MCPToolError) in
                AdminCall(.post, "/v1/verify", body: arguments.value("expectations"))
            }),
        MCPTool(
            name: "reset", title: "Reset the mock",
            description:
                "Deletes every record and puts keys, devices, channels, fault rules and modes back to the start-up setup. POST /v1/reset.",
            arguments: [
                .init(
                    name: "closeConnections", schema: #"{"type":"boolean"}"#,
                    description: "Close the open APNs connections too.")
            ],
            call: { arguments throws(MCPToolError) in
                let close = try arguments.bool("closeConnections") ?? false
                return AdminCall(
                    .post, "/v1/reset", query: close ? [.init(name: "closeConnections", value: "true")] : [])
            }),
        MCPTool(
            name: "server_info", title: "Server addresses",
            description:
                "The mock's version, its APNs, channel-management and admin addresses, and where its CA is. GET /v1/info.",
            call: { _ throws(MCPToolError) in AdminCall(.get, "/v1/info") }),
    ]
}
