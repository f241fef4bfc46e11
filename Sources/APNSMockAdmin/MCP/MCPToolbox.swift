import APNSMockCore

/// The tools the admin API offers over MCP: a curated few, each one operation of the admin
/// API's document (`AdminOperation`). A tool's arguments are its operation's parameters and
/// body as the document declares them (`MCPTool.arguments(of:body:)`): a matcher field added to
/// `GET /v1/deliveries` is an argument of `list_deliveries` with no code here.
enum MCPToolbox {
    static let all: [MCPTool] = [
        MCPTool(
            name: "list_deliveries", title: "List deliveries",
            description:
                "The records of what reached the mock (pushes, broadcasts, channel requests, web pushes), oldest first, each with its request, the answer APNs-style and why (detail).",
            operation: .listDeliveries),
        MCPTool(
            name: "wait_for_deliveries", title: "Wait for deliveries",
            description:
                "Waits until at least count records match, and returns them; when the timeout runs out first, the answer is an error listing the closest near misses and how each differs.",
            operation: .waitForDeliveries,
            preface: { result in
                // A wait that timed out: the server's explanation (closest records, differences, dashboard).
                guard result.status == 408, let text = result.json?["explanation"]?.scalarText else { return nil }
                return text
            }),
        MCPTool(
            name: "explain_delivery", title: "Explain a delivery",
            description:
                "What the mock answered to one request and why: the request, the status and reason, the mock's detail (the claim, header, size or fault behind a rejection) and the fault rule that fired, then the whole record. The request's apns-id is apns-request-id for broadcasts and channel requests; the most recent record with it is explained.",
            operation: .getDelivery,
            preface: { result in
                guard result.status == 200, let text = result.json?["explanation"]?.scalarText else { return nil }
                return text
            }),
        MCPTool(
            name: "list_faults", title: "List fault rules",
            description: "The fault rules in force, each with its match, action and how often it fired.",
            operation: .listFaults),
        MCPTool(
            name: "add_fault", title: "Add a fault rule",
            description:
                "Adds a fault rule: requests it matches get its action (an APNs error status and reason, a delay, a GOAWAY, a reset, a dropped connection).",
            operation: .addFault, body: "rule",
            options: [
                MCPTool.Argument(
                    name: "replace", schema: .object([(key: "type", value: .string("boolean"))]),
                    description: "Replace a rule with the same id instead of refusing (the rule needs an id).",
                    role: .option, types: ["boolean"])
            ],
            route:
                "\(AdminOperation.addFault.method) \(AdminOperation.addFault.path), or \(AdminOperation.putFault.method) \(AdminOperation.putFault.path) with replace.",
            call: { arguments throws(MCPToolError) in
                guard let rule = try arguments.object("rule"), try arguments.bool("replace") == true else {
                    return try arguments.adminCall(.addFault, arguments: MCPToolbox.addFaultArguments)
                }
                guard let id = rule["id"]?.scalarText, rule["id"] != .null else {
                    throw MCPToolError("add_fault with replace needs the rule's id (rule.id)")
                }
                return AdminCall(
                    method: AdminOperation.putFault.method,
                    path: AdminOperation.putFault.path.replacing("{id}", with: AdminCall.encode(id)),
                    body: rule)
            }),
        MCPTool(
            name: "delete_fault", title: "Delete a fault rule", description: "Deletes one fault rule by id.",
            operation: .deleteFault),
        MCPTool(
            name: "set_device", title: "Set a device's state",
            description:
                "Registers a device token or changes its registration: its app (topic), environment, locale, and state: active, unregistered (410 Unregistered, with unregisteredAt) or expired (410 ExpiredToken); and what becomes of accepted pushes: presence (online, offline, lowPower; with for: \"10m\" or until), notifications (enabled, disabled), installed (false: 200s discarded, then 410 after uninstallGrace).",
            operation: .putDevice, body: "device"),
        MCPTool(
            name: "set_devices", title: "Set many devices' state",
            description:
                "Registers or replaces many devices in one change (a fleet for a load test): fleet is {\"devices\": [...]}, each entry set_device's device with its token. One bad entry refuses them all, naming its index and field; the answer counts the devices created and replaced.",
            operation: .putDevices, body: "fleet"),
        MCPTool(
            name: "subscribe_webpush", title: "Subscribe to Web Push",
            description:
                "Subscribes as a browser does for a page that calls pushManager.subscribe with this applicationServerKey (the provider's VAPID public key, base64url): the answer is the W3C PushSubscription JSON (endpoint, keys.p256dh, keys.auth) a Web Push library takes, and its id; its pushes are records of kind webPush with the subscription id as token and the decrypted body as payload. Optionally origin, expirationTime and device (presence, notifications).",
            operation: .createWebPushSubscription, body: "subscription"),
        MCPTool(
            name: "device_notifications", title: "What a device shows",
            description:
                "What a device's user sees now: the notifications delivered to it (newest first, one per collapse id), each app's badge, its Live Activities, and what APNs still holds for it (stored while offline or saving power), with the device's presence.",
            operation: .deviceNotifications),
        MCPTool(
            name: "provider_report", title: "Provider report",
            description:
                "How the provider behaved: retries of refused pushes, pushes to tokens after 410, token churn, connection habits, with examples.",
            operation: .getReport),
        MCPTool(
            name: "verify", title: "Verify expectations",
            description:
                "Checks expectations (what must, or must not, have reached the mock, how many times, within how long, in which order) and says which failed and what came closest.",
            operation: .verify, body: "expectations"),
        MCPTool(
            name: "reset", title: "Reset the mock",
            description:
                "Deletes every record and puts keys, devices, channels, fault rules and modes back to the start-up setup.",
            operation: .reset),
        MCPTool(
            name: "server_info", title: "Server addresses",
            description: "The mock's version, its APNs, channel-management and admin addresses, and where its CA is.",
            operation: .info),
    ]

    /// `add_fault`'s arguments when it adds (`POST /v1/faults`).
    private static let addFaultArguments = MCPTool.arguments(of: .addFault, body: "rule")
}
