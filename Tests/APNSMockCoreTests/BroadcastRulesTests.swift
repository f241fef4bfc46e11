import APNSMockCore
import Crypto
import Testing

/// One row of the broadcast rule table: a change to the valid baseline and what APNs answers.
struct BroadcastCase: Sendable, CustomTestStringConvertible {
    let name: String
    let status: Int
    let reason: APNSReason?
    let check: RequestCheck?
    let change: @Sendable (inout BroadcastBuilder) -> Void

    var testDescription: String { name }

    static func accepted(_ name: String, _ change: @escaping @Sendable (inout BroadcastBuilder) -> Void)
        -> BroadcastCase
    {
        BroadcastCase(name: name, status: 200, reason: nil, check: nil, change: change)
    }

    static func rejected(
        _ name: String, _ reason: APNSReason, at check: RequestCheck,
        _ change: @escaping @Sendable (inout BroadcastBuilder) -> Void
    ) -> BroadcastCase {
        BroadcastCase(name: name, status: APNSStatus.forReason(reason), reason: reason, check: check, change: change)
    }

    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        let verdict = BroadcastBuilder().with(change).evaluate()
        #expect(verdict.status == status, sourceLocation: sourceLocation)
        #expect(verdict.reason == reason, sourceLocation: sourceLocation)
        #expect(verdict.failedCheck == check, sourceLocation: sourceLocation)
        #expect(verdict.isAccepted == (status == 200), sourceLocation: sourceLocation)
        #expect(verdict.kind == .broadcast, sourceLocation: sourceLocation)
        // Every rejection says why in words (issue 20: "the mock says why"); a success says nothing.
        #expect(
            (verdict.detail != nil) == (reason != nil), "detail: \(verdict.detail ?? "nil")",
            sourceLocation: sourceLocation)
        if let detail = verdict.detail { #expect(!detail.isEmpty, sourceLocation: sourceLocation) }
    }
}

/// `BroadcastRules`: `POST /4/broadcasts/apps/<bundleId>` as "Sending broadcast push notification
/// requests to APNs" and "Handling error responses from APNs" describe it (APNS-REFERENCE §6).
@Suite("BroadcastRules: the rule table, one defect per row")
struct BroadcastRulesTests {
    @Test("The valid baseline broadcast is accepted, and the verdict carries its facts")
    func baseline() {
        let verdict = BroadcastBuilder().evaluate()
        #expect(verdict.status == 200 && verdict.reason == nil && verdict.failedCheck == nil)
        #expect(verdict.kind == .broadcast)
        #expect(verdict.topic == BroadcastBuilder.bundleID)
        #expect(verdict.channelID == BroadcastBuilder.channelID)
        #expect(verdict.pushType == .liveactivity)
        #expect(verdict.sentPushType == "LiveActivity")
        #expect(verdict.requestID == BroadcastBuilder.requestID)
        #expect(verdict.sentMessageID == RequestBuilder.validMessageID)
        #expect(verdict.storagePolicy == .mostRecentMessageStored)
        #expect(verdict.channel?.id == BroadcastBuilder.channelID)
        #expect(verdict.channel?.scope == ChannelScope(bundleID: "com.example.app", environment: .sandbox))
        #expect(verdict.channelOperation == nil)
        #expect(verdict.deviceToken == nil)
        #expect(verdict.authentication?.method == .token)
        #expect(verdict.nextAuthState?.boundTeamID == RequestBuilder.teamID)
    }

    static let rows: [BroadcastCase] = [
        // Method and path ("BadPath 404 means the method or path is wrong").
        .rejected("GET → MethodNotAllowed", .methodNotAllowed, at: .method) { $0.method = "GET" },
        .rejected("PUT → MethodNotAllowed", .methodNotAllowed, at: .method) { $0.method = "PUT" },
        .rejected("/4/broadcasts/apps/ without a bundle ID → BadPath", .badPath, at: .path) { $0.bundleID = "" },
        .rejected("/4/broadcasts/apps/<bundle>/ (trailing slash) → BadPath", .badPath, at: .path) {
            $0.bundleID = "com.example.app/"
        },
        .rejected("/4/broadcast/apps/<bundle> → BadPath", .badPath, at: .path) {
            $0.pathPrefix = "/4/broadcast/apps/"
        },
        .rejected("/3/broadcasts/apps/<bundle> → BadPath", .badPath, at: .path) {
            $0.pathPrefix = "/3/broadcasts/apps/"
        },
        .rejected("a bundle ID with a space → BadPath", .badPath, at: .path) { $0.bundleID = "com.example app" },
        .rejected("a query string → BadPath", .badPath, at: .path) { $0.bundleID = "com.example.app?x=1" },
        .rejected("header list too large → HeaderListTooLarge", .headerListTooLarge, at: .headerListSize) {
            $0.headerListTooLarge = true
        },
        .rejected("apns-channel-id twice → DuplicateHeaders", .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-channel-id", value: BroadcastBuilder.channelID)]
        },
        .rejected("apns-request-id twice → DuplicateHeaders", .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-request-id", value: "again")]
        },
        // Authentication, as for device pushes.
        .rejected("no authorization → MissingProviderToken", .missingProviderToken, at: .authentication) {
            $0.authorization = nil
        },
        .rejected("not a JWT → InvalidProviderToken", .invalidProviderToken, at: .authentication) {
            $0.authorization = "bearer nonsense"
        },
        .rejected("a token issued two hours ago → ExpiredProviderToken", .expiredProviderToken, at: .authentication) {
            $0.authorization = "bearer " + RequestBuilder.makeToken(issuedAt: RequestBuilder.now / 1000 - 7200)
        },
        // The bundle ID in the path.
        .rejected("a suffixed bundle ID (.push-type.liveactivity) → TopicDisallowed", .topicDisallowed, at: .topic) {
            $0.bundleID = "com.example.app.push-type.liveactivity"
        },
        .rejected("a .voip topic as bundle ID → TopicDisallowed", .topicDisallowed, at: .topic) {
            $0.bundleID = "com.example.app.voip"
        },
        .rejected("a certificate for another app → TopicMismatch", .topicMismatch, at: .topic) {
            $0.authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=com.example.other", topics: ["com.example.other"], bundleID: "com.example.other",
                    environment: .both))
        },
        .accepted("a certificate for the app") { $0.authentication = RequestBuilder.singleTopicCertificate },
        .accepted("a multi-topic certificate that lists the app") {
            $0.authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=com.example.app", topics: ["com.example.app", "com.example.app.voip"],
                    bundleID: "com.example.app", environment: .sandbox))
        },
        .rejected("the app's broadcast capability off → FeatureNotEnabled", .featureNotEnabled, at: .capability) {
            $0.capabilityOn = false
        },
        // apns-id.
        .rejected("apns-id not a UUID → BadMessageId", .badMessageId, at: .messageID) { $0.messageID = "42" },
        .accepted("no apns-id") { $0.messageID = nil },
        .accepted("apns-id in lower case") { $0.messageID = RequestBuilder.validMessageID.lowercased() },
        // apns-channel-id.
        .rejected("no apns-channel-id → MissingChannelId", .missingChannelId, at: .channelID) {
            $0.channelIDHeader = nil
        },
        .rejected("an empty apns-channel-id → MissingChannelId", .missingChannelId, at: .channelID) {
            $0.channelIDHeader = ""
        },
        .rejected("apns-channel-id not base64 → BadChannelId", .badChannelId, at: .channelID) {
            $0.channelIDHeader = "not a channel"
        },
        .rejected("apns-channel-id base64url → BadChannelId", .badChannelId, at: .channelID) {
            $0.channelIDHeader = "dGVzdC1jaGFubmVsLTAwMQ"
        },
        .rejected("apns-channel-id longer than allowed → BadChannelId", .badChannelId, at: .channelID) {
            $0.channelIDHeader = String(repeating: "QUFB", count: 40)
        },
        // apns-push-type: Apple's pages spell it three ways; any letter case is the Live Activity type.
        .accepted("apns-push-type LiveActivity") { $0.pushType = "LiveActivity" },
        .accepted("apns-push-type Liveactivity") { $0.pushType = "Liveactivity" },
        .accepted("apns-push-type liveactivity") { $0.pushType = "liveactivity" },
        .accepted("apns-push-type LIVEACTIVITY") { $0.pushType = "LIVEACTIVITY" },
        .rejected("no apns-push-type → MissingPushType", .missingPushType, at: .pushType) { $0.pushType = nil },
        .rejected("an empty apns-push-type → MissingPushType", .missingPushType, at: .pushType) { $0.pushType = "" },
        .rejected("apns-push-type alert → InvalidPushType", .invalidPushType, at: .pushType) { $0.pushType = "alert" },
        .rejected("apns-push-type live-activity → InvalidPushType", .invalidPushType, at: .pushType) {
            $0.pushType = "live-activity"
        },
        // apns-expiration: required.
        .rejected("no apns-expiration → BadExpirationDate", .badExpirationDate, at: .expiration) {
            $0.expiration = nil
        },
        .rejected("apns-expiration -1 → BadExpirationDate", .badExpirationDate, at: .expiration) {
            $0.expiration = "-1"
        },
        .rejected("apns-expiration 1.5 → BadExpirationDate", .badExpirationDate, at: .expiration) {
            $0.expiration = "1.5"
        },
        .accepted("apns-expiration 0 on a storing channel") { $0.expiration = "0" },
        .accepted("a storing channel: an expiration a week ahead (8 h is a storage maximum, not a refusal)") {
            $0.expiration = String(RequestBuilder.now / 1000 + 7 * 86_400)
        },
        // apns-priority: required, 10, 5 or 1.
        .rejected("no apns-priority → BadPriority", .badPriority, at: .priority) { $0.priority = nil },
        .rejected("apns-priority 7 → BadPriority", .badPriority, at: .priority) { $0.priority = "7" },
        .rejected("apns-priority 05 → BadPriority", .badPriority, at: .priority) { $0.priority = "05" },
        .accepted("apns-priority 5") { $0.priority = "5" },
        .accepted("apns-priority 1 (accepted; the lint says ActivityKit asks for 5 or 10)") { $0.priority = "1" },
        // The channel.
        .rejected("an unknown channel → ChannelNotRegistered", .channelNotRegistered, at: .channelRegistry) {
            $0.channelIDHeader = BroadcastBuilder.otherChannelID
        },
        .rejected(
            "a production channel on a sandbox connection → ChannelNotRegistered", .channelNotRegistered,
            at: .channelRegistry
        ) { $0.registeredEnvironment = .production },
        .rejected(
            "a sandbox channel on a production connection → ChannelNotRegistered", .channelNotRegistered,
            at: .channelRegistry
        ) { $0.environment = .production },
        .accepted("a production channel on a production connection") {
            $0.registeredEnvironment = .production
            $0.environment = .production
        },
        .rejected("another app's channel → ChannelNotRegistered", .channelNotRegistered, at: .channelRegistry) {
            $0.registeredBundleID = "com.example.other"
        },
        // The storage policy.
        .rejected(
            "a no-storage channel with a non-zero expiration → BadExpirationDate", .badExpirationDate,
            at: .storagePolicy
        ) { $0.registeredPolicy = .noMessageStored },
        .accepted("a no-storage channel with expiration 0") {
            $0.registeredPolicy = .noMessageStored
            $0.expiration = "0"
        },
        // The payload: 5120 bytes.
        .rejected("an empty payload → PayloadEmpty", .payloadEmpty, at: .payloadEmpty) { $0.payload = [] },
        .accepted("a payload of exactly 5120 bytes") { $0.payload = BroadcastBuilder.jsonPayload(size: 5120) },
        .rejected("a payload of 5121 bytes → PayloadTooLarge", .payloadTooLarge, at: .payloadSize) {
            $0.payload = BroadcastBuilder.jsonPayload(size: 5121)
        },
        // Apple's broadcast error table: 400 BadRequestPayload, "The JSON Request payload is unparseable".
        .rejected(
            "not JSON → BadRequestPayload (Apple's broadcast error table)", .badRequestPayload, at: .payloadFormat
        ) {
            $0.payload = Array("hello".utf8)
        },
        .rejected("not JSON, with --strict-payload → BadRequestPayload", .badRequestPayload, at: .payloadFormat) {
            $0.strictPayload = true
            $0.payload = Array("hello".utf8)
        },
        .rejected(
            "a JSON array → BadRequestPayload (the mock's choice: a payload is an object)", .badRequestPayload,
            at: .payloadFormat
        ) { $0.payload = Array(#"[{"aps":{}}]"#.utf8) },
        .rejected("JSON cut short → BadRequestPayload", .badRequestPayload, at: .payloadFormat) {
            $0.payload = Array(#"{"aps":{"event":"update""#.utf8)
        },
        .rejected("a start event, with --strict-payload → BadRequestPayload", .badRequestPayload, at: .payloadFormat) {
            $0.strictPayload = true
            $0.payload = Array(
                #"{"aps":{"event":"start","timestamp":1,"content-state":{},"attributes-type":"A","attributes":{}}}"#
                    .utf8)
        },
        .accepted("a start event, without --strict-payload (APNs accepts it; the lint reports it)") {
            $0.payload = Array(#"{"aps":{"event":"start","timestamp":1,"content-state":{}}}"#.utf8)
        },
        .accepted("apns-topic is ignored") {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-topic", value: "com.example.other")]
        },
    ]

    @Test("Rule table", arguments: rows)
    func rule(_ row: BroadcastCase) { row.verify() }

    @Test("The verdict keeps the push type as sent")
    func pushTypeAsSent() {
        for sent in ["LiveActivity", "Liveactivity", "liveactivity", "alert"] {
            let verdict = BroadcastBuilder().with { $0.pushType = sent }.evaluate()
            #expect(verdict.sentPushType == sent)
            #expect(verdict.pushType == (sent == "alert" ? nil : .liveactivity))
        }
    }

    @Test("A rejection still records the bundle ID, channel id, request id and credentials")
    func rejectionFacts() {
        let verdict = BroadcastBuilder().with {
            $0.method = "GET"
            $0.pushType = "liveactivity"
        }.evaluate()
        #expect(verdict.reason == .methodNotAllowed)
        #expect(verdict.topic == BroadcastBuilder.bundleID)
        #expect(verdict.channelID == BroadcastBuilder.channelID)
        #expect(verdict.requestID == BroadcastBuilder.requestID)
        #expect(verdict.pushType == .liveactivity)
        #expect(verdict.authentication?.teamID == RequestBuilder.teamID)
        #expect(verdict.channel == nil)
        #expect(verdict.nextAuthState == nil)
    }

    @Test("A topic-specific key that does not cover the app → TopicDisallowed, at authentication")
    func topicSpecificKey() {
        let verdict = BroadcastBuilder().with {
            $0.registry.keys[RequestBuilder.keyID] = RequestBuilder.registeredKey(topics: ["com.example.other"])
        }.evaluate()
        #expect(verdict.reason == .topicDisallowed)
        #expect(verdict.failedCheck == .authentication)
        let covered = BroadcastBuilder().with {
            $0.registry.keys[RequestBuilder.keyID] = RequestBuilder.registeredKey(topics: ["com.example.app"])
        }.evaluate()
        #expect(covered.isAccepted)
        #expect(covered.authentication?.signatureVerified == true)
    }

    @Test("A certificate of the other environment: BadCertificateEnvironment, by GOAWAY")
    func certificateEnvironment() {
        let verdict = BroadcastBuilder().with {
            $0.authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=com.example.app", topics: ["com.example.app"], bundleID: "com.example.app",
                    environment: .production))
        }.evaluate()
        #expect(verdict.reason == .badCertificateEnvironment)
        #expect(verdict.goAway)
    }

    @Test("--payload-limit replaces the 5120-byte limit")
    func payloadLimitOverride() {
        let builder = BroadcastBuilder().with { $0.payload = BroadcastBuilder.jsonPayload(size: 300) }
        let rules = BroadcastRules(
            policy: ValidationPolicy(payloadAnalysis: PayloadAnalysisOptions(payloadLimit: 256)))
        let verdict = rules.evaluate(builder.request, context: builder.context, channels: builder.channels)
        #expect(verdict.reason == .payloadTooLarge)
        #expect(BroadcastRules().effectivePayloadLimit == 5120)
    }

    @Test("Evaluating changes nothing: the directory passed in is left as it was")
    func pure() {
        let builder = BroadcastBuilder()
        let channels = builder.channels
        let before = channels.channel(id: BroadcastBuilder.channelID)
        _ = BroadcastRules().evaluate(builder.request, context: builder.context, channels: channels)
        #expect(channels.channel(id: BroadcastBuilder.channelID) == before)
        #expect(channels.totalCount == 1)
    }

    @Test("isBroadcastPath tells broadcasts from device pushes")
    func routing() {
        #expect(BroadcastRules.isBroadcastPath("/4/broadcasts/apps/com.example.app"))
        #expect(BroadcastRules.isBroadcastPath("/4/broadcasts/"))
        #expect(!BroadcastRules.isBroadcastPath("/3/device/abcd"))
    }
}

/// The broadcast check order: the device-push steps first, then APNSwift's test-server order
/// (MissingChannelId → MissingPushType → InvalidPushType → BadExpirationDate → BadPriority →
/// ChannelNotRegistered → PayloadEmpty → PayloadTooLarge), where Apple documents none.
@Suite("BroadcastRules.checkOrder: the first failing check decides")
struct BroadcastCheckOrderTests {
    static let documentedOrder: [RequestCheck] = [
        .headerListSize, .method, .path, .duplicateHeaders, .authentication, .topic, .capability, .messageID,
        .channelID, .pushType, .expiration, .priority, .channelRegistry, .storagePolicy, .payloadEmpty,
        .payloadSize, .payloadFormat,
    ]

    @Test("checkOrder matches the documented order, each step once")
    func matchesDocumentedOrder() {
        #expect(BroadcastRules.checkOrder == Self.documentedOrder)
        #expect(Set(BroadcastRules.checkOrder).count == BroadcastRules.checkOrder.count)
    }

    @Test("APNSwift's order is kept where Apple is silent")
    func apnswiftOrder() {
        let order = BroadcastRules.checkOrder
        func index(_ check: RequestCheck) -> Int { order.firstIndex(of: check)! }
        let apnswift: [RequestCheck] = [
            .channelID, .pushType, .expiration, .priority, .channelRegistry, .payloadEmpty, .payloadSize,
        ]
        for (a, b) in zip(apnswift, apnswift.dropFirst()) { #expect(index(a) < index(b), "\(a) before \(b)") }
        for first in [RequestCheck.method, .path, .duplicateHeaders, .authentication] {
            #expect(index(first) < index(.channelID))
        }
    }

    /// A change to the valid baseline that fails `check` and no earlier check. The mutations
    /// touch disjoint fields, so any two can be applied together:
    /// - duplicateHeaders repeats `apns-collapse-id`, which a broadcast otherwise ignores;
    /// - topic suffixes the path's bundle ID, path only changes the prefix;
    /// - capability, channelRegistry and storagePolicy change the channel state (capability
    ///   off, the channel registered in production, policy 0), which the builder rebuilds for
    ///   each evaluation, so they commute;
    /// - expiration makes the header malformed; storagePolicy keeps the baseline's non-zero one;
    /// - payloadSize pads the body with JSON whitespace, payloadFormat prepends a byte.
    static func mutate(_ builder: inout BroadcastBuilder, for check: RequestCheck) {
        switch check {
        case .headerListSize: builder.headerListTooLarge = true
        case .method: builder.method = "PUT"
        case .path: builder.pathPrefix = "/4/broadcasts/app/"
        case .duplicateHeaders:
            builder.extraHeaders.append(HTTPHeaderField(name: "apns-collapse-id", value: "a"))
            builder.extraHeaders.append(HTTPHeaderField(name: "apns-collapse-id", value: "b"))
        case .authentication: builder.authorization = nil
        case .topic: builder.bundleID += ".push-type.liveactivity"
        case .capability: builder.capabilityOn = false
        case .messageID: builder.messageID = "not-a-uuid"
        case .channelID: builder.channelIDHeader = "%%%%"
        case .pushType: builder.pushType = "alert"
        case .expiration: builder.expiration = "-1"
        case .priority: builder.priority = "7"
        case .channelRegistry: builder.registeredEnvironment = .production
        case .storagePolicy: builder.registeredPolicy = .noMessageStored
        case .payloadEmpty: builder.payload = []
        case .payloadSize:
            let padding = max(0, 5121 - builder.payload.count)
            builder.payload += Array(repeating: UInt8(ascii: " "), count: padding)
        case .payloadFormat:
            builder.strictPayload = true
            builder.payload.insert(UInt8(ascii: "x"), at: 0)
        case .deviceToken, .collapseID, .deviceRegistry, .channelBody, .channelLimit:
            preconditionFailure("\(check) is not a step of a broadcast")
        }
    }

    static func expected(_ check: RequestCheck) -> APNSReason {
        switch check {
        case .headerListSize: .headerListTooLarge
        case .method: .methodNotAllowed
        case .path: .badPath
        case .duplicateHeaders: .duplicateHeaders
        case .authentication: .missingProviderToken
        case .topic: .topicDisallowed
        case .capability: .featureNotEnabled
        case .messageID: .badMessageId
        case .channelID: .badChannelId
        case .pushType: .invalidPushType
        case .expiration: .badExpirationDate
        case .priority: .badPriority
        case .channelRegistry: .channelNotRegistered
        case .storagePolicy: .badExpirationDate
        case .payloadEmpty: .payloadEmpty
        case .payloadSize: .payloadTooLarge
        case .payloadFormat: .badRequestPayload
        case .deviceToken, .collapseID, .deviceRegistry, .channelBody, .channelLimit:
            preconditionFailure("\(check) is not a step of a broadcast")
        }
    }

    /// An empty body is neither too large nor malformed JSON (`payloadEmpty` owns that case).
    static let incompatible: Set<[RequestCheck]> = [[.payloadEmpty, .payloadSize], [.payloadEmpty, .payloadFormat]]

    static let pairs: [CheckPair] = {
        let order = BroadcastRules.checkOrder
        var pairs: [CheckPair] = []
        for (i, earlier) in order.enumerated() {
            for later in order[(i + 1)...] where !incompatible.contains([earlier, later]) {
                pairs.append(CheckPair(earlier: earlier, later: later))
            }
        }
        return pairs
    }()

    @Test("Each mutation alone fails exactly its own check", arguments: BroadcastRules.checkOrder)
    func singleMutation(_ check: RequestCheck) {
        var builder = BroadcastBuilder()
        Self.mutate(&builder, for: check)
        let verdict = builder.evaluate()
        #expect(verdict.failedCheck == check)
        #expect(verdict.reason == Self.expected(check))
        #expect(verdict.status == APNSStatus.forReason(Self.expected(check)))
    }

    @Test("Two defects: the earlier check's reason wins", arguments: pairs)
    func earlierCheckWins(_ pair: CheckPair) {
        for (first, second) in [(pair.earlier, pair.later), (pair.later, pair.earlier)] {
            var builder = BroadcastBuilder()
            Self.mutate(&builder, for: first)
            Self.mutate(&builder, for: second)
            let verdict = builder.evaluate()
            #expect(verdict.failedCheck == pair.earlier)
            #expect(verdict.reason == Self.expected(pair.earlier))
        }
    }

    static let namedPairs: [BroadcastCase] = [
        .rejected("no channel id + no push type → MissingChannelId", .missingChannelId, at: .channelID) {
            $0.channelIDHeader = nil
            $0.pushType = nil
        },
        .rejected("no push type + no expiration → MissingPushType", .missingPushType, at: .pushType) {
            $0.pushType = nil
            $0.expiration = nil
        },
        .rejected("bad push type + no expiration → InvalidPushType", .invalidPushType, at: .pushType) {
            $0.pushType = "background"
            $0.expiration = nil
        },
        .rejected("no expiration + no priority → BadExpirationDate", .badExpirationDate, at: .expiration) {
            $0.expiration = nil
            $0.priority = nil
        },
        .rejected("no priority + unknown channel → BadPriority", .badPriority, at: .priority) {
            $0.priority = nil
            $0.channelIDHeader = BroadcastBuilder.otherChannelID
        },
        .rejected(
            "unknown channel + empty payload → ChannelNotRegistered", .channelNotRegistered,
            at: .channelRegistry
        ) {
            $0.channelIDHeader = BroadcastBuilder.otherChannelID
            $0.payload = []
        },
        .rejected("capability off + no channel id → FeatureNotEnabled", .featureNotEnabled, at: .capability) {
            $0.capabilityOn = false
            $0.channelIDHeader = nil
        },
        .rejected("suffixed bundle + capability off → TopicDisallowed", .topicDisallowed, at: .topic) {
            $0.bundleID = "com.example.app.push-type.liveactivity"
            $0.capabilityOn = false
        },
    ]

    @Test("Named pairs of defects", arguments: namedPairs)
    func namedPair(_ row: BroadcastCase) { row.verify() }

    @Test("A broadcast with every defect at once gets the first check's reason, and so on")
    func everyDefect() {
        let steps = BroadcastRules.checkOrder.filter { $0 != .payloadEmpty }
        for (index, check) in steps.enumerated() {
            var builder = BroadcastBuilder()
            for later in steps[index...] { Self.mutate(&builder, for: later) }
            #expect(builder.evaluate().failedCheck == check)
        }
    }
}
