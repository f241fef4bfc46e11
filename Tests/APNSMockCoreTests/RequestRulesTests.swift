import APNSMockCore
import HashTreeCollections
import Testing

/// One row of the rule table: a change to the valid baseline and what APNs answers to it.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let reason: APNSReason?
    let check: RequestCheck?
    let change: @Sendable (inout RequestBuilder) -> Void

    var testDescription: String { name }

    static func accepted(_ name: String, _ change: @escaping @Sendable (inout RequestBuilder) -> Void) -> RuleCase {
        RuleCase(name: name, status: 200, reason: nil, check: nil, change: change)
    }

    static func rejected(
        _ name: String, _ status: Int, _ reason: APNSReason, at check: RequestCheck,
        _ change: @escaping @Sendable (inout RequestBuilder) -> Void
    ) -> RuleCase {
        RuleCase(name: name, status: status, reason: reason, check: check, change: change)
    }

    /// Applies the row to the baseline and checks status, reason, failed check and acceptance.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        let verdict = RequestBuilder().with(change).evaluate()
        #expect(verdict.status == status, sourceLocation: sourceLocation)
        #expect(verdict.reason == reason, sourceLocation: sourceLocation)
        #expect(verdict.failedCheck == check, sourceLocation: sourceLocation)
        #expect(verdict.isAccepted == (status == 200), sourceLocation: sourceLocation)
        // Every rejection says why in words (issue 20: "the mock says why"); a success says nothing.
        #expect(
            (verdict.detail != nil) == (reason != nil), "detail: \(verdict.detail ?? "nil")",
            sourceLocation: sourceLocation)
        if let detail = verdict.detail { #expect(!detail.isEmpty, sourceLocation: sourceLocation) }
        if let reason {
            #expect(APNSStatus.forReason(reason) == status, sourceLocation: sourceLocation)
        }
    }
}

@Suite("RequestRules: the rule table, one defect per row")
struct RequestRulesTests {
    // MARK: Baseline

    @Test("The valid baseline request is accepted")
    func baselineAccepted() {
        let verdict = RequestBuilder().evaluate()
        #expect(verdict.status == 200)
        #expect(verdict.reason == nil)
        #expect(verdict.failedCheck == nil)
        #expect(verdict.isAccepted)
        #expect(verdict.deviceToken == RequestBuilder.validToken)
        #expect(verdict.pushType == .alert)
    }

    @Test("The baseline is accepted without the optional headers (apns-id, priority, expiration, collapse id)")
    func optionalHeadersMayBeOmitted() {
        let verdict = RequestBuilder().with {
            $0.messageID = nil
            $0.priority = nil
            $0.expiration = nil
            $0.collapseID = nil
        }.evaluate()
        #expect(verdict.status == 200 && verdict.reason == nil)
        #expect(verdict.deviceToken == RequestBuilder.validToken && verdict.pushType == .alert)
    }

    @Test("RequestRules() is lenient about the payload by default")
    func defaultPolicy() {
        #expect(RequestRules().policy.strictPayload == false)
        #expect(ValidationPolicy().strictPayload == false)
        #expect(RequestRules(policy: ValidationPolicy(strictPayload: true)).policy.strictPayload)
    }

    // MARK: Method and path

    static let methodAndPathRows: [RuleCase] = [
        .rejected("GET → 405 MethodNotAllowed", 405, .methodNotAllowed, at: .method) { $0.method = "GET" },
        .rejected("PUT → 405 MethodNotAllowed", 405, .methodNotAllowed, at: .method) { $0.method = "PUT" },
        // HTTP methods are case-sensitive (RFC 9110 §9.1).
        .rejected("lower-case post → 405", 405, .methodNotAllowed, at: .method) { $0.method = "post" },
        .rejected("path /3/device/ → MissingDeviceToken", 400, .missingDeviceToken, at: .path) {
            $0.pathOverride = "/3/device/"
        },
        .rejected("path /3/device → MissingDeviceToken", 400, .missingDeviceToken, at: .path) {
            $0.pathOverride = "/3/device"
        },
        .rejected("path /2/device/<token> → 404 BadPath", 404, .badPath, at: .path) { $0.pathPrefix = "/2/device/" },
        .rejected("path / → 404 BadPath", 404, .badPath, at: .path) { $0.pathOverride = "/" },
        .rejected("path /3/devices/x → 404 BadPath", 404, .badPath, at: .path) { $0.pathOverride = "/3/devices/x" },
        .rejected("empty path → 404 BadPath", 404, .badPath, at: .path) { $0.pathOverride = "" },
        .rejected("path /3/device/<token>/extra → 404 BadPath", 404, .badPath, at: .path) {
            $0.pathOverride = "/3/device/\(RequestBuilder.validToken)/extra"
        },
    ]

    @Test("Method and path", arguments: methodAndPathRows)
    func methodAndPath(_ row: RuleCase) { row.verify() }

    // MARK: Device token

    static let deviceTokensRows: [RuleCase] = [
        .rejected("token not hex → BadDeviceToken", 400, .badDeviceToken, at: .deviceToken) {
            $0.token = String(repeating: "zz", count: 32)
        },
        .rejected("token of odd length (63 digits) → BadDeviceToken", 400, .badDeviceToken, at: .deviceToken) {
            $0.token = RequestBuilder.hexToken(digits: 63)
        },
        .rejected("token of 7 bytes (14 digits) → BadDeviceToken", 400, .badDeviceToken, at: .deviceToken) {
            $0.token = RequestBuilder.hexToken(digits: 14)
        },
        .rejected("token of 257 bytes → BadDeviceToken", 400, .badDeviceToken, at: .deviceToken) {
            $0.token = RequestBuilder.hexToken(digits: 514)
        },
        .rejected("token followed by a query → BadDeviceToken", 400, .badDeviceToken, at: .deviceToken) {
            $0.token = RequestBuilder.validToken + "?x=1"
        },
        .accepted("token of 8 bytes") { $0.token = RequestBuilder.hexToken(digits: 16) },
        .accepted("token of 32 bytes") { $0.token = RequestBuilder.hexToken(digits: 64) },
        // Live Activity tokens are longer than 32 bytes (APNS-REFERENCE §2: never hard-code 64).
        .accepted("token of 80 bytes") { $0.token = RequestBuilder.hexToken(digits: 160) },
        .accepted("token of 256 bytes") { $0.token = RequestBuilder.hexToken(digits: 512) },
        .accepted("upper-case hex token") { $0.token = RequestBuilder.hexToken(digits: 64, upperCase: true) },
    ]

    @Test("Device token format", arguments: deviceTokensRows)
    func deviceTokens(_ row: RuleCase) { row.verify() }

    @Test("verdict.deviceToken is the lower-cased token when well-formed", arguments: [16, 64, 160, 512])
    func deviceTokenIsLowerCased(digits: Int) {
        let upper = RequestBuilder.hexToken(digits: digits, upperCase: true)
        let verdict = RequestBuilder().with { $0.token = upper }.evaluate()
        #expect(verdict.isAccepted)
        #expect(verdict.deviceToken == upper.lowercased())
        #expect(verdict.deviceToken == RequestBuilder.hexToken(digits: digits))
    }

    @Test("verdict.deviceToken is kept when a later check rejects the request")
    func deviceTokenKeptOnLaterRejection() {
        let verdict = RequestBuilder().with {
            $0.token = "ABCDEF0123456789"
            $0.topic = nil
        }.evaluate()
        #expect(verdict.reason == .missingTopic)
        #expect(verdict.deviceToken == "abcdef0123456789")
    }

    @Test("verdict.deviceToken is nil when the token is malformed or never read")
    func deviceTokenNilWhenNotRead() {
        #expect(RequestBuilder().with { $0.token = "xyz" }.evaluate().deviceToken == nil)
        #expect(RequestBuilder().with { $0.method = "GET" }.evaluate().deviceToken == nil)
        #expect(RequestBuilder().with { $0.pathPrefix = "/2/device/" }.evaluate().deviceToken == nil)
        #expect(RequestBuilder().with { $0.headerListTooLarge = true }.evaluate().deviceToken == nil)
    }

    // MARK: Duplicate headers

    // "Handling notification responses from APNs": DuplicateHeaders, "One or more headers are
    // repeated." libnghttp2 resets repeated pseudo-headers itself (APNS-REFERENCE §9); the mock
    // checks `apns-*` and `authorization` and ignores other repeated headers.
    static let duplicateHeadersRows: [RuleCase] = [
        .rejected("apns-topic twice → DuplicateHeaders", 400, .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-topic", value: "com.example.app")]
        },
        .rejected("apns-id twice → DuplicateHeaders", 400, .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-id", value: RequestBuilder.validMessageID)]
        },
        .rejected("authorization twice → DuplicateHeaders", 400, .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "authorization", value: "bearer aGVhZGVy.Y2xhaW1z.c2ln")]
        },
        .rejected(
            "apns-push-type twice, different values → DuplicateHeaders", 400, .duplicateHeaders, at: .duplicateHeaders
        ) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-push-type", value: "background")]
        },
        .rejected("apns-collapse-id twice → DuplicateHeaders", 400, .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-collapse-id", value: "game-42")]
        },
        .rejected(
            "authorization twice without a first one in the baseline", 400, .duplicateHeaders, at: .duplicateHeaders
        ) {
            $0.authorization = nil
            $0.extraHeaders = [
                HTTPHeaderField(name: "authorization", value: "bearer a.b.c"),
                HTTPHeaderField(name: "authorization", value: "bearer a.b.c"),
            ]
        },
        .accepted("accept twice") {
            $0.extraHeaders = [
                HTTPHeaderField(name: "accept", value: "*/*"),
                HTTPHeaderField(name: "accept", value: "application/json"),
            ]
        },
        .accepted("user-agent twice") {
            $0.extraHeaders = [
                HTTPHeaderField(name: "user-agent", value: "a"),
                HTTPHeaderField(name: "user-agent", value: "b"),
            ]
        },
    ]

    @Test("Duplicate headers", arguments: duplicateHeadersRows)
    func duplicateHeaders(_ row: RuleCase) { row.verify() }

    // MARK: apns-id

    // "Sending notification requests to APNs": apns-id is "a canonical UUID … 8-4-4-4-12";
    // providers send it in either case (APNS-REFERENCE §2).
    static let messageIDsRows: [RuleCase] = [
        .rejected("apns-id too short → BadMessageId", 400, .badMessageId, at: .messageID) { $0.messageID = "1234" },
        .rejected("apns-id 35 characters → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = String(RequestBuilder.validMessageID.dropLast())
        },
        .rejected("apns-id 37 characters → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = RequestBuilder.validMessageID + "0"
        },
        .rejected("apns-id without hyphens → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = "123E4567E89B42D3A456426614174000"
        },
        .rejected("apns-id with non-hex digit → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = "123E4567-E89B-42D3-A456-42661417400G"
        },
        .rejected("apns-id with misplaced hyphen → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = "123E456-7E89B-42D3-A456-426614174000"
        },
        .rejected("apns-id in braces → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = "{123E4567-E89B-42D3-A456-426614174000}"
        },
        .rejected("empty apns-id → BadMessageId", 400, .badMessageId, at: .messageID) { $0.messageID = "" },
        .accepted("lower-case apns-id") { $0.messageID = "123e4567-e89b-42d3-a456-426614174000" },
        .accepted("upper-case apns-id") { $0.messageID = "123E4567-E89B-42D3-A456-426614174000" },
        .accepted("mixed-case apns-id") { $0.messageID = "123e4567-E89B-42d3-A456-426614174000" },
        .accepted("no apns-id") { $0.messageID = nil },
    ]

    @Test("apns-id", arguments: messageIDsRows)
    func messageIDs(_ row: RuleCase) { row.verify() }

    // MARK: apns-push-type

    static let pushTypesRows: [RuleCase] = [
        // Push type values are lower case and case-sensitive ("Sending notification requests to APNs").
        .rejected("push type Alert (capitalised) → InvalidPushType", 400, .invalidPushType, at: .pushType) {
            $0.pushType = "Alert"
        },
        .rejected("push type banner → InvalidPushType", 400, .invalidPushType, at: .pushType) {
            $0.pushType = "banner"
        },
        .rejected("empty push type → InvalidPushType", 400, .invalidPushType, at: .pushType) { $0.pushType = "" },
        .rejected("push type with a space → InvalidPushType", 400, .invalidPushType, at: .pushType) {
            $0.pushType = " alert"
        },
        .accepted("no push type (treated as alert)") { $0.pushType = nil },
    ]

    @Test("apns-push-type values", arguments: pushTypesRows)
    func pushTypes(_ row: RuleCase) { row.verify() }

    /// The baseline with push type `type` and topic `topic`; background pushes use priority 5.
    static func push(_ type: APNSPushType, topic: String) -> RequestBuilder {
        RequestBuilder().with {
            $0.pushType = type.rawValue
            $0.topic = topic
            $0.priority = type == .background ? "5" : "10"
        }
    }

    // "Sending notification requests to APNs", apns-topic: the bundle ID plus `.voip`,
    // `.complication`, `.pushkit.fileprovider`, `.push-type.liveactivity`, `.location-query`,
    // `.voip-ptt`, `.push-type.widgets`, `.push-type.controls`; bare for alert and background.
    @Test("Every push type is accepted with its topic suffix", arguments: APNSPushType.allCases)
    func pushTypeWithSuffix(_ type: APNSPushType) {
        let verdict = Self.push(type, topic: "com.example.app" + (type.requiredTopicSuffix ?? "")).evaluate()
        #expect(verdict.status == 200)
        #expect(verdict.reason == nil)
        #expect(verdict.pushType == type)
    }

    @Test("A push type that needs a suffix gets BadTopic for the bare bundle ID", arguments: APNSPushType.allCases)
    func pushTypeWithoutSuffix(_ type: APNSPushType) {
        let verdict = Self.push(type, topic: "com.example.app").evaluate()
        switch type {
        case .alert, .background, .mdm:
            #expect(verdict.isAccepted)
            #expect(verdict.pushType == type)
        default:
            #expect(verdict.status == 400)
            #expect(verdict.reason == .badTopic)
            #expect(verdict.failedCheck == .topic)
        }
    }

    @Test("The suffixes are the documented ones")
    func suffixTable() {
        let expected: [APNSPushType: String?] = [
            .alert: nil, .background: nil, .mdm: nil, .voip: ".voip", .complication: ".complication",
            .fileprovider: ".pushkit.fileprovider", .liveactivity: ".push-type.liveactivity",
            .location: ".location-query", .pushtotalk: ".voip-ptt", .widgets: ".push-type.widgets",
            .controls: ".push-type.controls",
        ]
        #expect(Set(expected.keys) == Set(APNSPushType.allCases))
        for type in APNSPushType.allCases {
            #expect(type.requiredTopicSuffix == expected[type]!, "\(type)")
        }
    }

    @Test(
        "A topic that is only the suffix, or carries another type's suffix, is BadTopic",
        arguments: APNSPushType.allCases.filter { $0.requiredTopicSuffix != nil })
    func suffixAloneOrWrong(_ type: APNSPushType) {
        let suffix = type.requiredTopicSuffix!
        #expect(Self.push(type, topic: suffix).evaluate().reason == .badTopic)
        let other = type == .complication ? ".voip" : ".complication"
        #expect(Self.push(type, topic: "com.example.app" + other).evaluate().reason == .badTopic)
    }

    // MARK: apns-topic

    static let topicsRows: [RuleCase] = [
        .rejected("no apns-topic → MissingTopic", 400, .missingTopic, at: .topic) { $0.topic = nil },
        .rejected("empty apns-topic → MissingTopic", 400, .missingTopic, at: .topic) { $0.topic = "" },
        // "Sending notification requests to APNs": apns-topic is required with token
        // authentication; a single-topic certificate defaults to its subject.
        .accepted("no apns-topic on a single-topic certificate connection") {
            $0.topic = nil
            $0.authentication = RequestBuilder.singleTopicCertificate
        },
        .rejected("a single-topic certificate still checks the push type's suffix", 400, .badTopic, at: .topic) {
            $0.authentication = RequestBuilder.singleTopicCertificate
            $0.pushType = "voip"
        },
    ]

    @Test("apns-topic", arguments: topicsRows)
    func topics(_ row: RuleCase) { row.verify() }

    // MARK: apns-priority

    // "Sending notification requests to APNs": apns-priority is 10, 5 or 1; background
    // notifications ("Pushing background updates to your App") must use 5, never 10.
    static let prioritiesRows: [RuleCase] = [
        .rejected("priority 7 → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "7" },
        .rejected("priority high → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "high" },
        .rejected("priority +5 → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "+5" },
        .rejected("priority 010 → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "010" },
        .rejected("empty priority → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "" },
        .rejected("priority 0 → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "0" },
        .rejected("priority 11 → BadPriority", 400, .badPriority, at: .priority) { $0.priority = "11" },
        .rejected("priority with a trailing space → BadPriority", 400, .badPriority, at: .priority) {
            $0.priority = "10 "
        },
        .accepted("priority 10") { $0.priority = "10" },
        .accepted("priority 5") { $0.priority = "5" },
        .accepted("priority 1") { $0.priority = "1" },
        .rejected("background with priority 10 → BadPriority", 400, .badPriority, at: .priority) {
            $0.pushType = "background"
            $0.priority = "10"
        },
        .accepted("background with priority 5") {
            $0.pushType = "background"
            $0.priority = "5"
        },
        .accepted("background without priority") {
            $0.pushType = "background"
            $0.priority = nil
        },
    ]

    @Test("apns-priority", arguments: prioritiesRows)
    func priorities(_ row: RuleCase) { row.verify() }

    // MARK: apns-expiration

    // "Sending notification requests to APNs": apns-expiration is a UNIX epoch date in seconds;
    // 0 means deliver once and do not store.
    static let expirationsRows: [RuleCase] = [
        .rejected("expiration -1 → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = "-1"
        },
        .rejected("expiration abc → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = "abc"
        },
        .rejected("expiration 1.5 → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = "1.5"
        },
        .rejected("empty expiration → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = ""
        },
        .rejected("expiration +5 → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = "+5"
        },
        .rejected("expiration beyond 64 bits → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = "99999999999999999999"
        },
        .accepted("expiration 0") { $0.expiration = "0" },
        .accepted("expiration in the future (2100-01-01)") { $0.expiration = "4102444800" },
    ]

    @Test("apns-expiration", arguments: expirationsRows)
    func expirations(_ row: RuleCase) { row.verify() }

    // MARK: apns-collapse-id

    // "Sending notification requests to APNs": "The value of this key must not exceed 64 bytes."
    // Bytes, not characters: a multi-byte string is measured in UTF-8.
    static let collapseIDsRows: [RuleCase] = [
        .accepted("collapse id of 64 bytes") { $0.collapseID = String(repeating: "c", count: 64) },
        .rejected("collapse id of 65 bytes → BadCollapseId", 400, .badCollapseId, at: .collapseID) {
            $0.collapseID = String(repeating: "c", count: 65)
        },
        .accepted("collapse id of 32 × é (64 bytes)") { $0.collapseID = String(repeating: "é", count: 32) },
        .rejected(
            "collapse id of 33 × é (66 bytes, 33 characters) → BadCollapseId", 400, .badCollapseId, at: .collapseID
        ) {
            $0.collapseID = String(repeating: "é", count: 33)
        },
        .rejected("collapse id of 17 emoji (68 bytes) → BadCollapseId", 400, .badCollapseId, at: .collapseID) {
            $0.collapseID = String(repeating: "🙂", count: 17)
        },
    ]

    @Test("apns-collapse-id", arguments: collapseIDsRows)
    func collapseIDs(_ row: RuleCase) { row.verify() }

    @Test("The multi-byte collapse ids measure what the test claims")
    func collapseIDFixtures() {
        let e33 = String(repeating: "é", count: 33)
        #expect(e33.count == 33 && e33.utf8.count == 66)
        #expect(RequestRules.collapseIDLimit == 64)
    }

    // MARK: An uninstalled app's token

    // Apple (*Handling notification responses from APNs*, 410): the timestamp is "the last time
    // at which APNs confirmed that the device token was no longer valid"; until APNs notices, an
    // uninstalled app's pushes are accepted (and discarded, DeliveryModel). The mock answers 410
    // once `uninstallGrace` after `uninstalledAt` has passed.
    static func uninstalled(at: Int64, grace: Int64 = DeviceConditions.defaultUninstallGrace)
        -> @Sendable (inout RequestBuilder) -> Void
    {
        { builder in
            builder.registry.devices[RequestBuilder.validToken] = DeviceRegistration(
                token: RequestBuilder.validToken,
                conditions: DeviceConditions(installed: false, uninstalledAt: at, uninstallGrace: grace))
        }
    }

    static let uninstalledRows: [RuleCase] = [
        .accepted("uninstalled just now: accepted during the grace period", uninstalled(at: RequestBuilder.now)),
        .accepted(
            "uninstalled 4m59.999s ago with the default 5m grace: accepted",
            uninstalled(at: RequestBuilder.now - 300_000 + 1)),
        .rejected(
            "uninstalled exactly 5m ago: 410 Unregistered", 410, .unregistered, at: .deviceRegistry,
            uninstalled(at: RequestBuilder.now - 300_000)),
        .rejected(
            "uninstalled an hour ago: 410 Unregistered", 410, .unregistered, at: .deviceRegistry,
            uninstalled(at: RequestBuilder.now - 3_600_000)),
        .rejected(
            "grace 0: 410 at once", 410, .unregistered, at: .deviceRegistry,
            uninstalled(at: RequestBuilder.now, grace: 0)),
        .accepted(
            "a grace of an hour, 30 minutes in: accepted",
            uninstalled(at: RequestBuilder.now - 1_800_000, grace: 3_600_000)),
        .accepted(
            "uninstalled in the future (the clock moved back): accepted",
            uninstalled(at: RequestBuilder.now + 60_000, grace: 0)),
    ]

    @Test("An uninstalled app: accepted during its grace period, then 410", arguments: uninstalledRows)
    func uninstalled(_ row: RuleCase) { row.verify() }

    @Test("The 410 after the grace period carries the time the app was uninstalled")
    func uninstalledTimestamp() {
        let at = RequestBuilder.now - 3_600_000
        let verdict = RequestBuilder().with(Self.uninstalled(at: at)).evaluate()
        #expect(verdict.status == 410 && verdict.timestamp == at)
        #expect(verdict.detail?.contains("grace period of 5m") == true, "\(verdict.detail ?? "nil")")
        let active = RequestBuilder().with {
            $0.registry.devices[RequestBuilder.validToken] = DeviceRegistration(token: RequestBuilder.validToken)
        }.evaluate()
        #expect(active.isAccepted && active.timestamp == nil)
    }

    // MARK: Payload

    // "Sending notification requests to APNs": at most 4096 bytes, 5120 for VoIP; an empty body
    // is PayloadEmpty and a larger one 413 PayloadTooLarge ("Handling notification responses").
    static let payloadsRows: [RuleCase] = [
        .rejected("empty payload → PayloadEmpty", 400, .payloadEmpty, at: .payloadEmpty) { $0.payload = [] },
        .accepted("payload of 4096 bytes") { $0.payload = RequestBuilder.jsonPayload(size: 4096) },
        .rejected("payload of 4097 bytes → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.payload = RequestBuilder.jsonPayload(size: 4097)
        },
        .accepted("voip payload of 5120 bytes") {
            $0.pushType = "voip"
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: 5120)
        },
        .rejected("voip payload of 5121 bytes → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.pushType = "voip"
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: 5121)
        },
        .accepted("no push type, .voip topic: 5000 bytes judged against the voip limit") {
            $0.pushType = nil
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: 5000)
        },
        .rejected("no push type, .voip topic, 5121 bytes → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.pushType = nil
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: 5121)
        },
        .rejected("no push type, plain topic: 4097 bytes → 413 (alert limit)", 413, .payloadTooLarge, at: .payloadSize)
        {
            $0.pushType = nil
            $0.payload = RequestBuilder.jsonPayload(size: 4097)
        },
        .rejected("explicit alert with a .voip topic keeps the alert limit", 413, .payloadTooLarge, at: .payloadSize) {
            $0.pushType = "alert"
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: 5000)
        },
        .rejected("payloadSize beyond the bytes kept → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.payloadSize = 6000
        },
        .rejected("voip: payloadSize beyond the bytes kept → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.pushType = "voip"
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: APNSPushType.largestPayloadLimit)
            $0.payloadSize = APNSPushType.largestPayloadLimit + 1
        },
        .accepted("non-JSON payload, lenient") { $0.payload = Array("hello".utf8) },
        .accepted("JSON array payload, lenient") { $0.payload = Array("[1,2]".utf8) },
        // Apple documents no reason for malformed JSON on /3/device; the mock borrows the
        // broadcast API's BadRequestPayload under --strict-payload (APNS-REFERENCE §2).
        .rejected("non-JSON payload, strict → BadRequestPayload", 400, .badRequestPayload, at: .payloadFormat) {
            $0.payload = Array("hello".utf8)
            $0.strictPayload = true
        },
        .rejected("JSON array payload, strict → BadRequestPayload", 400, .badRequestPayload, at: .payloadFormat) {
            $0.payload = Array("[1,2]".utf8)
            $0.strictPayload = true
        },
        .rejected("JSON string payload, strict → BadRequestPayload", 400, .badRequestPayload, at: .payloadFormat) {
            $0.payload = Array(#""hi""#.utf8)
            $0.strictPayload = true
        },
        .accepted("JSON object payload, strict") { $0.strictPayload = true },
        .accepted("4096-byte JSON object payload, strict") {
            $0.strictPayload = true
            $0.payload = RequestBuilder.jsonPayload(size: 4096)
        },
        // --strict-payload: an error-level lint finding is the mock's own 400 (APNs accepts it).
        .rejected("badge as a string, strict → BadRequestPayload", 400, .badRequestPayload, at: .payloadFormat) {
            $0.payload = Array(#"{"aps":{"alert":"hi","badge":"3"}}"#.utf8)
            $0.strictPayload = true
        },
        .rejected("background push without content-available, strict", 400, .badRequestPayload, at: .payloadFormat) {
            $0.pushType = "background"
            $0.priority = "5"
            $0.payload = Array(#"{"aps":{},"id":1}"#.utf8)
            $0.strictPayload = true
        },
        .accepted("badge as a string, lenient (APNs delivers it)") {
            $0.payload = Array(#"{"aps":{"alert":"hi","badge":"3"}}"#.utf8)
        },
        .accepted("an unknown aps key is a warning only, strict") {
            $0.payload = Array(#"{"aps":{"alert":"hi","colour":"red"}}"#.utf8)
            $0.strictPayload = true
        },
        // --payload-limit emulates the binary interface's limits (APNS-REFERENCE §8).
        .rejected("2049 bytes under --payload-limit 2048 → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.payloadLimit = 2048
            $0.payload = RequestBuilder.jsonPayload(size: 2049)
        },
        .accepted("2048 bytes under --payload-limit 2048") {
            $0.payloadLimit = 2048
            $0.payload = RequestBuilder.jsonPayload(size: 2048)
        },
        .rejected("voip 4097 bytes under --payload-limit 4096 → 413", 413, .payloadTooLarge, at: .payloadSize) {
            $0.pushType = "voip"
            $0.topic = "com.example.app.voip"
            $0.payloadLimit = 4096
            $0.payload = RequestBuilder.jsonPayload(size: 4097)
        },
    ]

    @Test("Payload", arguments: payloadsRows)
    func payloads(_ row: RuleCase) { row.verify() }

    @Test("A missing push type with a .voip topic is judged as voip")
    func missingPushTypeVoipTopic() {
        let verdict = RequestBuilder().with {
            $0.pushType = nil
            $0.topic = "com.example.app.voip"
            $0.payload = RequestBuilder.jsonPayload(size: 5000)
        }.evaluate()
        #expect(verdict.isAccepted)
        #expect(verdict.pushType == .voip)
    }

    @Test("A missing push type with a .voip-ptt topic stays alert")
    func missingPushTypePushToTalkTopic() {
        let verdict = RequestBuilder().with {
            $0.pushType = nil
            $0.topic = "com.example.app.voip-ptt"
        }.evaluate()
        #expect(verdict.isAccepted)
        #expect(verdict.pushType == .alert)
    }

    @Test("The payload fixtures have the size they claim", arguments: [20, 4096, 4097, 5000, 5120, 5121])
    func payloadFixture(size: Int) {
        let payload = RequestBuilder.jsonPayload(size: size)
        #expect(payload.count == size)
        #expect(PayloadKind.classify(payload) == .object)
    }

    // MARK: Header list size

    @Test("headerListTooLarge → 431 HeaderListTooLarge")
    func headerListTooLarge() {
        RuleCase.rejected("header list too large", 431, .headerListTooLarge, at: .headerListSize) {
            $0.headerListTooLarge = true
        }.verify()
    }

    // MARK: Other verdict facts

    /// A record holds every header fact the request carried, whatever the verdict.
    @Test("verdict.pushType is the header's type even when an earlier check rejects the request")
    func pushTypeKnownBeforePushTypeCheck() {
        #expect(RequestBuilder().with { $0.messageID = "x" }.evaluate().pushType == .alert)
        #expect(
            RequestBuilder().with {
                $0.messageID = "x"
                $0.pushType = "voip"
            }.evaluate().pushType == .voip)
        #expect(
            RequestBuilder().with {
                $0.pathOverride = "/3/device/nothex"
                $0.pushType = "background"
            }.evaluate().pushType == .background)
        #expect(RequestBuilder().with { $0.pushType = "banner" }.evaluate().pushType == nil)
        #expect(RequestBuilder().with { $0.priority = "7" }.evaluate().pushType == .alert)
    }

    @Test("an early rejection still records the provider token's team and key, unverified")
    func authenticationObservedBeforeAuthenticationCheck() throws {
        let verdict = RequestBuilder().with { $0.pathOverride = "/3/device/nothex" }.evaluate()
        #expect(verdict.reason == .badDeviceToken)
        let auth = try #require(verdict.authentication)
        #expect(auth.method == .token)
        #expect(auth.teamID != nil && auth.keyID != nil)
        #expect(!auth.signatureVerified)
        #expect(verdict.rawDeviceToken == "nothex")
    }

    @Test("Without registered keys, devices or certificates the environment changes nothing")
    func environmentDoesNotMatter() {
        for environment in APNSEnvironment.allCases {
            #expect(RequestBuilder().with { $0.environment = environment }.evaluate().isAccepted)
        }
    }

    @Test("APNSRequest.header returns the first value of a repeated header")
    func requestHeaderLookup() {
        let request = RequestBuilder().with {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-topic", value: "second")]
        }.request
        #expect(request.header("apns-topic") == "com.example.app")
        #expect(request.header("x-missing") == nil)
        #expect(request.payloadSize == request.payload.count)
    }
}
