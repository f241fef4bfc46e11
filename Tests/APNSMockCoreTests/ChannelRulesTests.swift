import APNSMockCore
import Testing

/// One row of the channel-management rule table: a baseline, a change, and what APNs answers.
struct ChannelCase: Sendable, CustomTestStringConvertible {
    let name: String
    let baseline: ChannelRequestBuilder
    let status: Int
    let reason: APNSReason?
    let check: RequestCheck?
    let change: @Sendable (inout ChannelRequestBuilder) -> Void

    var testDescription: String { name }

    static func accepted(
        _ name: String, _ baseline: ChannelRequestBuilder, _ status: Int,
        _ change: @escaping @Sendable (inout ChannelRequestBuilder) -> Void = { _ in }
    ) -> ChannelCase {
        ChannelCase(name: name, baseline: baseline, status: status, reason: nil, check: nil, change: change)
    }

    static func rejected(
        _ name: String, _ baseline: ChannelRequestBuilder, _ reason: APNSReason, at check: RequestCheck,
        _ change: @escaping @Sendable (inout ChannelRequestBuilder) -> Void
    ) -> ChannelCase {
        ChannelCase(
            name: name, baseline: baseline, status: APNSStatus.forReason(reason), reason: reason, check: check,
            change: change)
    }

    func verify(sourceLocation: SourceLocation = #_sourceLocation) {
        let verdict = baseline.with(change).evaluate()
        #expect(verdict.status == status, sourceLocation: sourceLocation)
        #expect(verdict.reason == reason, sourceLocation: sourceLocation)
        #expect(verdict.failedCheck == check, sourceLocation: sourceLocation)
        #expect(verdict.isAccepted == (reason == nil), sourceLocation: sourceLocation)
        #expect(verdict.kind == .channel, sourceLocation: sourceLocation)
        // Every rejection says why in words (issue 20: "the mock says why"); a success says nothing.
        #expect(
            (verdict.detail != nil) == (reason != nil), "detail: \(verdict.detail ?? "nil")",
            sourceLocation: sourceLocation)
        if let detail = verdict.detail { #expect(!detail.isEmpty, sourceLocation: sourceLocation) }
    }
}

/// `ChannelRules`: channel management as "Sending channel management requests to APNs" and
/// "Handling error responses from APNs" describe it (APNS-REFERENCE §6).
@Suite("ChannelRules: the rule table, one defect per row")
struct ChannelRulesTests {
    @Test("Create: 201, and the verdict says what to create")
    func create() {
        let verdict = ChannelRequestBuilder.create.evaluate()
        #expect(verdict.status == 201 && verdict.reason == nil && verdict.isAccepted)
        #expect(verdict.kind == .channel)
        #expect(verdict.channelOperation == .create)
        #expect(verdict.topic == "com.example.app")
        #expect(verdict.storagePolicy == .mostRecentMessageStored)
        #expect(verdict.sentPushType == "LiveActivity")
        #expect(verdict.pushType == .liveactivity)
        #expect(verdict.channelID == nil)
        #expect(verdict.channel == nil)
        #expect(verdict.requestID == BroadcastBuilder.requestID)
        #expect(verdict.nextAuthState?.boundTeamID == RequestBuilder.teamID)
    }

    @Test("Read: 200 with the channel's configuration")
    func read() {
        let verdict = ChannelRequestBuilder.read.evaluate()
        #expect(verdict.status == 200 && verdict.isAccepted)
        #expect(verdict.channelOperation == .read)
        #expect(verdict.channelID == BroadcastBuilder.channelID)
        #expect(verdict.storagePolicy == .mostRecentMessageStored)
        #expect(verdict.channel?.pushType == "LiveActivity")
        #expect(verdict.channel?.id == BroadcastBuilder.channelID)
        #expect(verdict.sentPushType == nil)
    }

    @Test("Delete: 204, and the verdict names the channel to delete")
    func delete() {
        let verdict = ChannelRequestBuilder.delete.evaluate()
        #expect(verdict.status == 204 && verdict.isAccepted)
        #expect(verdict.channelOperation == .delete)
        #expect(verdict.channelID == BroadcastBuilder.channelID)
        #expect(verdict.channel?.id == BroadcastBuilder.channelID)
    }

    @Test("List: 200")
    func list() {
        let verdict = ChannelRequestBuilder.list.evaluate()
        #expect(verdict.status == 200 && verdict.isAccepted)
        #expect(verdict.channelOperation == .list)
        #expect(verdict.topic == "com.example.app")
        #expect(verdict.channelID == nil)
    }

    @Test("Evaluating changes nothing: a create or delete is the caller's to apply")
    func pure() {
        for builder in [ChannelRequestBuilder.create, .delete] {
            let channels = builder.channels
            _ = ChannelRules().evaluate(builder.request, context: builder.context, channels: channels)
            #expect(channels.totalCount == 1)
        }
    }

    static let rows: [ChannelCase] = [
        // Paths and methods: an unknown path is 404 whatever the method, a known one with a
        // method it does not take 405.
        .rejected("create: /1/apps/<bundle>/channel → BadPath", .create, .badPath, at: .path) {
            $0.collection = "channel"
        },
        .rejected("read: the channel id in the path (/channels/<id>) → BadPath", .read, .badPath, at: .path) {
            $0.collection = "channels/" + BroadcastBuilder.channelID
        },
        .rejected("/1/apps/<bundle> → BadPath", .list, .badPath, at: .path) {
            $0.pathOverride = "/1/apps/com.example.app"
        },
        .rejected("/2/apps/<bundle>/channels → BadPath", .create, .badPath, at: .path) { $0.pathPrefix = "/2/apps/" },
        .rejected("/1/apps//channels → BadPath", .create, .badPath, at: .path) { $0.bundleID = "" },
        .rejected("a broadcast path on the management port → BadPath", .create, .badPath, at: .path) {
            $0.pathOverride = "/4/broadcasts/apps/com.example.app"
        },
        .rejected("an unknown path with PUT → BadPath (path before method)", .create, .badPath, at: .path) {
            $0.method = "PUT"
            $0.collection = "channel"
        },
        .rejected("PUT …/channels → MethodNotAllowed", .create, .methodNotAllowed, at: .method) { $0.method = "PUT" },
        .rejected("PATCH …/channels → MethodNotAllowed", .read, .methodNotAllowed, at: .method) {
            $0.method = "PATCH"
        },
        .rejected("POST …/all-channels → MethodNotAllowed", .list, .methodNotAllowed, at: .method) {
            $0.method = "POST"
        },
        .rejected("DELETE …/all-channels → MethodNotAllowed", .list, .methodNotAllowed, at: .method) {
            $0.method = "DELETE"
        },
        .rejected("header list too large → HeaderListTooLarge", .read, .headerListTooLarge, at: .headerListSize) {
            $0.headerListTooLarge = true
        },
        .rejected("apns-channel-id twice → DuplicateHeaders", .read, .duplicateHeaders, at: .duplicateHeaders) {
            $0.extraHeaders = [HTTPHeaderField(name: "apns-channel-id", value: BroadcastBuilder.otherChannelID)]
        },
        // Authentication, as for device pushes.
        .rejected(
            "create without authorization → MissingProviderToken", .create, .missingProviderToken,
            at: .authentication
        ) { $0.authorization = nil },
        .rejected(
            "list without authorization → MissingProviderToken", .list, .missingProviderToken,
            at: .authentication
        ) { $0.authorization = nil },
        .rejected(
            "read with a malformed token → InvalidProviderToken", .read, .invalidProviderToken,
            at: .authentication
        ) { $0.authorization = "bearer a.b.c" },
        .rejected(
            "a topic-specific key for another app → TopicDisallowed", .create, .topicDisallowed,
            at: .authentication
        ) {
            $0.registry.keys[RequestBuilder.keyID] = RequestBuilder.registeredKey(topics: ["com.example.other"])
        },
        .accepted("a certificate for the app", .create, 201) {
            $0.authentication = RequestBuilder.singleTopicCertificate
        },
        .rejected("a certificate for another app → TopicMismatch", .create, .topicMismatch, at: .topic) {
            $0.authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=com.example.other", topics: ["com.example.other"], bundleID: "com.example.other",
                    environment: .both))
        },
        .rejected("an untrusted certificate → BadCertificate", .list, .badCertificate, at: .authentication) {
            $0.authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=com.example.app", topics: ["com.example.app"], bundleID: "com.example.app",
                    environment: .both, verificationError: "self-signed"))
        },
        .rejected("a suffixed bundle ID → TopicDisallowed", .list, .topicDisallowed, at: .topic) {
            $0.bundleID = "com.example.app.push-type.liveactivity"
        },
        // The capability.
        .rejected("create with the capability off → FeatureNotEnabled", .create, .featureNotEnabled, at: .capability) {
            $0.capabilityOn = false
        },
        .rejected("list with the capability off → FeatureNotEnabled", .list, .featureNotEnabled, at: .capability) {
            $0.capabilityOn = false
        },
        // The create body.
        .accepted("create, policy 0", .create, 201) {
            $0.body = Array(#"{"message-storage-policy":0,"push-type":"LiveActivity"}"#.utf8)
        },
        .accepted("create, push-type liveactivity (any letter case)", .create, 201) {
            $0.body = Array(#"{"message-storage-policy":1,"push-type":"liveactivity"}"#.utf8)
        },
        .accepted("create, keys in another order and whitespace", .create, 201) {
            $0.body = Array(#" { "push-type" : "Liveactivity", "message-storage-policy" : 1 } "#.utf8)
        },
        .rejected("create, no body → BadRequestPayload", .create, .badRequestPayload, at: .channelBody) {
            $0.body = []
        },
        .rejected("create, not JSON → BadRequestPayload", .create, .badRequestPayload, at: .channelBody) {
            $0.body = Array("message-storage-policy=1".utf8)
        },
        .rejected("create, a JSON array → BadRequestPayload", .create, .badRequestPayload, at: .channelBody) {
            $0.body = Array("[1]".utf8)
        },
        .rejected("create, policy 2 → BadRequestParams", .create, .badRequestParams, at: .channelBody) {
            $0.body = Array(#"{"message-storage-policy":2,"push-type":"LiveActivity"}"#.utf8)
        },
        .rejected("create, policy \"1\" (a string) → BadRequestParams", .create, .badRequestParams, at: .channelBody) {
            $0.body = Array(#"{"message-storage-policy":"1","push-type":"LiveActivity"}"#.utf8)
        },
        .rejected("create, policy 1.0 → BadRequestParams", .create, .badRequestParams, at: .channelBody) {
            $0.body = Array(#"{"message-storage-policy":1.0,"push-type":"LiveActivity"}"#.utf8)
        },
        .rejected("create, no policy → BadRequestParams", .create, .badRequestParams, at: .channelBody) {
            $0.body = Array(#"{"push-type":"LiveActivity"}"#.utf8)
        },
        .rejected("create, no push-type → BadRequestParams", .create, .badRequestParams, at: .channelBody) {
            $0.body = Array(#"{"message-storage-policy":1}"#.utf8)
        },
        .rejected("create, push-type alert → BadRequestParams", .create, .badRequestParams, at: .channelBody) {
            $0.body = Array(#"{"message-storage-policy":1,"push-type":"alert"}"#.utf8)
        },
        // Apple's channel-management error table: BadRequestParams for a request that "contained an
        // unrecognizable attribute".
        .rejected(
            "create, an attribute Apple does not define → BadRequestParams", .create, .badRequestParams,
            at: .channelBody
        ) {
            $0.body = Array(#"{"message-storage-policy":1,"push-type":"LiveActivity","colour":"red"}"#.utf8)
        },
        .rejected(
            "create, an attribute in another letter case → BadRequestParams", .create, .badRequestParams,
            at: .channelBody
        ) {
            $0.body = Array(#"{"Message-Storage-Policy":1,"push-type":"LiveActivity"}"#.utf8)
        },
        .accepted("read ignores a body", .read, 200) { $0.body = Array("junk".utf8) },
        // The limit: per app and environment.
        .rejected(
            "create at the limit → CannotCreateChannelConfig", .create, .cannotCreateChannelConfig,
            at: .channelLimit
        ) { $0.limit = 1 },
        .accepted("create at the limit in the other environment", .create, 201) {
            $0.limit = 1
            $0.environment = .production
        },
        .accepted("create at another app's limit", .create, 201) {
            $0.limit = 1
            $0.registeredBundleID = "com.example.other"
        },
        // apns-channel-id (read, delete).
        .rejected("read without apns-channel-id → MissingChannelId", .read, .missingChannelId, at: .channelID) {
            $0.channelIDHeader = nil
        },
        .rejected("delete without apns-channel-id → MissingChannelId", .delete, .missingChannelId, at: .channelID) {
            $0.channelIDHeader = nil
        },
        .rejected("read, apns-channel-id not base64 → BadChannelId", .read, .badChannelId, at: .channelID) {
            $0.channelIDHeader = "channel one"
        },
        .rejected(
            "delete, an unknown channel → ChannelNotRegistered", .delete, .channelNotRegistered,
            at: .channelRegistry
        ) { $0.channelIDHeader = BroadcastBuilder.otherChannelID },
        .rejected(
            "read, a production channel from sandbox → ChannelNotRegistered", .read, .channelNotRegistered,
            at: .channelRegistry
        ) { $0.registeredEnvironment = .production },
        .rejected(
            "read, a sandbox channel from production → ChannelNotRegistered", .read, .channelNotRegistered,
            at: .channelRegistry
        ) { $0.environment = .production },
        .rejected(
            "read, another app's channel → ChannelNotRegistered", .read, .channelNotRegistered,
            at: .channelRegistry
        ) { $0.registeredBundleID = "com.example.other" },
        .accepted("create ignores apns-channel-id", .create, 201) { $0.channelIDHeader = "not base64" },
        .accepted("list ignores apns-channel-id", .list, 200) { $0.channelIDHeader = "not base64" },
    ]

    @Test("Rule table", arguments: rows)
    func rule(_ row: ChannelCase) { row.verify() }

    @Test("A rejected create still records the body's policy and push type as sent")
    func rejectedCreateFacts() {
        let verdict = ChannelRequestBuilder.create.with {
            $0.body = Array(#"{"message-storage-policy":0,"push-type":"Alert"}"#.utf8)
        }.evaluate()
        #expect(verdict.reason == .badRequestParams)
        #expect(verdict.channelOperation == .create)
        #expect(verdict.storagePolicy == .noMessageStored)
        #expect(verdict.sentPushType == "Alert")
        #expect(verdict.pushType == nil)
    }

    @Test("A rejection before the method check names no operation, and keeps the app and credentials")
    func rejectionFacts() {
        let verdict = ChannelRequestBuilder.read.with { $0.method = "PUT" }.evaluate()
        #expect(verdict.reason == .methodNotAllowed)
        #expect(verdict.channelOperation == nil)
        #expect(verdict.topic == "com.example.app")
        #expect(verdict.authentication?.teamID == RequestBuilder.teamID)
        #expect(verdict.requestID == BroadcastBuilder.requestID)
    }
}

/// The channel-management check order: one table for every operation; a step that does not
/// concern the operation passes (a create has no channel id, a read no body).
@Suite("ChannelRules.checkOrder: the first failing check decides")
struct ChannelCheckOrderTests {
    static let documentedOrder: [RequestCheck] = [
        .headerListSize, .path, .method, .duplicateHeaders, .authentication, .topic, .capability, .channelID,
        .channelBody, .channelRegistry, .channelLimit,
    ]

    /// The steps that can fail for each baseline.
    static let createSteps: [RequestCheck] = documentedOrder.filter { $0 != .channelID && $0 != .channelRegistry }
    static let readSteps: [RequestCheck] = documentedOrder.filter { $0 != .channelBody && $0 != .channelLimit }

    @Test("checkOrder matches the documented order, each step once")
    func matchesDocumentedOrder() {
        #expect(ChannelRules.checkOrder == Self.documentedOrder)
        #expect(Set(ChannelRules.checkOrder).count == ChannelRules.checkOrder.count)
    }

    /// A change that fails `check` and no earlier step; the changes touch disjoint fields (the
    /// channel state is rebuilt for each evaluation, so capability, registry and limit changes
    /// commute).
    static func mutate(_ builder: inout ChannelRequestBuilder, for check: RequestCheck) {
        switch check {
        case .headerListSize: builder.headerListTooLarge = true
        case .path: builder.pathPrefix = "/1/app/"
        case .method: builder.method = "PUT"
        case .duplicateHeaders:
            builder.extraHeaders.append(HTTPHeaderField(name: "apns-collapse-id", value: "a"))
            builder.extraHeaders.append(HTTPHeaderField(name: "apns-collapse-id", value: "b"))
        case .authentication: builder.authorization = nil
        case .topic: builder.bundleID += ".push-type.liveactivity"
        case .capability: builder.capabilityOn = false
        case .channelID: builder.channelIDHeader = "%%%%"
        case .channelBody: builder.body = Array(#"{"message-storage-policy":2,"push-type":"LiveActivity"}"#.utf8)
        case .channelRegistry: builder.registeredEnvironment = .production
        case .channelLimit: builder.limit = 1
        default: preconditionFailure("\(check) is not a step of channel management")
        }
    }

    static func expected(_ check: RequestCheck) -> APNSReason {
        switch check {
        case .headerListSize: .headerListTooLarge
        case .path: .badPath
        case .method: .methodNotAllowed
        case .duplicateHeaders: .duplicateHeaders
        case .authentication: .missingProviderToken
        case .topic: .topicDisallowed
        case .capability: .featureNotEnabled
        case .channelID: .badChannelId
        case .channelBody: .badRequestParams
        case .channelRegistry: .channelNotRegistered
        case .channelLimit: .cannotCreateChannelConfig
        default: preconditionFailure("\(check) is not a step of channel management")
        }
    }

    struct Step: Sendable, CustomTestStringConvertible {
        let operation: String
        let check: RequestCheck
        var baseline: ChannelRequestBuilder { operation == "create" ? .create : .read }
        var testDescription: String { "\(operation): \(check)" }
    }

    struct Pair: Sendable, CustomTestStringConvertible {
        let operation: String
        let earlier: RequestCheck
        let later: RequestCheck
        var baseline: ChannelRequestBuilder { operation == "create" ? .create : .read }
        var testDescription: String { "\(operation): \(earlier) before \(later)" }
    }

    static let steps: [Step] =
        createSteps.map { Step(operation: "create", check: $0) } + readSteps.map { Step(operation: "read", check: $0) }

    static let pairs: [Pair] = {
        var pairs: [Pair] = []
        for (operation, steps) in [("create", createSteps), ("read", readSteps)] {
            for (i, earlier) in steps.enumerated() {
                for later in steps[(i + 1)...] {
                    pairs.append(Pair(operation: operation, earlier: earlier, later: later))
                }
            }
        }
        return pairs
    }()

    @Test("Each mutation alone fails exactly its own check", arguments: steps)
    func singleMutation(_ step: Step) {
        var builder = step.baseline
        Self.mutate(&builder, for: step.check)
        let verdict = builder.evaluate()
        #expect(verdict.failedCheck == step.check)
        #expect(verdict.reason == Self.expected(step.check))
    }

    @Test("Two defects: the earlier check's reason wins", arguments: pairs)
    func earlierCheckWins(_ pair: Pair) {
        for (first, second) in [(pair.earlier, pair.later), (pair.later, pair.earlier)] {
            var builder = pair.baseline
            Self.mutate(&builder, for: first)
            Self.mutate(&builder, for: second)
            let verdict = builder.evaluate()
            #expect(verdict.failedCheck == pair.earlier)
            #expect(verdict.reason == Self.expected(pair.earlier))
        }
    }

    @Test("Every defect at once: the first step's reason, and so on down the order")
    func everyDefect() {
        for (baseline, steps) in [(ChannelRequestBuilder.create, Self.createSteps), (.read, Self.readSteps)] {
            for (index, check) in steps.enumerated() {
                var builder = baseline
                for later in steps[index...] { Self.mutate(&builder, for: later) }
                #expect(builder.evaluate().failedCheck == check)
            }
        }
    }
}
