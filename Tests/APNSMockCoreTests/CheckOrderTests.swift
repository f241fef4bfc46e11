import APNSMockCore
import HashTreeCollections
import Testing

/// An ordered pair of checks, `earlier` running before `later`.
struct CheckPair: Sendable, CustomTestStringConvertible {
    let earlier: RequestCheck
    let later: RequestCheck
    var testDescription: String { "\(earlier) before \(later)" }
}

/// APNs documents no check order; apns-mock fixes one so that a request with several defects
/// always gets the same reason (APNS-REFERENCE §2, "The mock's check order").
@Suite("RequestRules.checkOrder: the first failing check decides")
struct CheckOrderTests {
    /// The documented order. `headerListSize` is the mock's own first step (the header list was
    /// cut short, so nothing after it can be trusted); fault rules and provider authentication
    /// join between `duplicateHeaders` and `messageID` in later work.
    static let documentedOrder: [RequestCheck] = [
        .headerListSize,
        .method,
        .path,
        .deviceToken,
        .duplicateHeaders,
        .authentication,
        .messageID,
        .pushType,
        .topic,
        .priority,
        .expiration,
        .collapseID,
        .payloadEmpty,
        .payloadSize,
        .payloadFormat,
        .deviceRegistry,
    ]

    /// The steps only broadcasts and channel management run (BroadcastRulesTests,
    /// ChannelRulesTests).
    static let otherAPIsSteps: Set<RequestCheck> = [
        .capability, .channelID, .channelBody, .channelRegistry, .storagePolicy, .channelLimit,
    ]

    @Test("checkOrder holds every device-push step exactly once")
    func everyCheckOnce() {
        let order = RequestRules.checkOrder
        #expect(Set(order) == Set(RequestCheck.allCases).subtracting(Self.otherAPIsSteps))
        #expect(Set(order).count == order.count)
    }

    @Test("checkOrder matches the documented order")
    func matchesDocumentedOrder() {
        #expect(RequestRules.checkOrder == Self.documentedOrder)
    }

    @Test("The documented order, step by step")
    func documentedSteps() {
        let order = RequestRules.checkOrder
        func index(_ check: RequestCheck) -> Int { order.firstIndex(of: check)! }
        let steps: [RequestCheck] = [
            .method, .path, .deviceToken, .duplicateHeaders, .authentication, .messageID, .pushType, .topic,
            .priority, .expiration, .collapseID, .payloadEmpty, .payloadSize, .payloadFormat, .deviceRegistry,
        ]
        for (a, b) in zip(steps, steps.dropFirst()) {
            #expect(index(a) < index(b), "\(a) should run before \(b)")
        }
        #expect(index(.headerListSize) < index(.method))
    }

    // MARK: One mutation per check

    /// A change to the valid baseline that fails `check` and no other check. The mutations
    /// touch disjoint fields of the request, so any two can be applied together:
    /// - path changes only the prefix and deviceToken only the token;
    /// - duplicateHeaders repeats `apns-channel-id`, which no other mutation touches;
    /// - authentication drops `authorization` (403 MissingProviderToken);
    /// - deviceRegistry registers the baseline token for production while the connection is
    ///   sandbox, so only the registry step notices (a changed token is simply unknown);
    /// - pushType uses an unknown value, so no topic suffix is required and the payload limit
    ///   stays the alert one; topic empties the topic, which a known push type would not care
    ///   about either way (the baseline's `alert` needs no suffix);
    /// - payloadSize pads the body with JSON whitespace and payloadFormat prepends a byte, so
    ///   each keeps the other's defect.
    static func mutate(_ builder: inout RequestBuilder, for check: RequestCheck) {
        switch check {
        case .headerListSize: builder.headerListTooLarge = true
        case .method: builder.method = "GET"
        case .path: builder.pathPrefix = "/2/device/"
        case .deviceToken: builder.token = String(repeating: "zz", count: 32)
        case .duplicateHeaders:
            builder.extraHeaders.append(HTTPHeaderField(name: "apns-channel-id", value: "a"))
            builder.extraHeaders.append(HTTPHeaderField(name: "apns-channel-id", value: "b"))
        case .authentication: builder.authorization = nil
        case .deviceRegistry:
            builder.registry.devices[RequestBuilder.validToken] = DeviceRegistration(
                token: RequestBuilder.validToken, environment: .production)
        case .messageID: builder.messageID = "not-a-uuid"
        case .pushType: builder.pushType = "banner"
        case .topic: builder.topic = ""
        case .priority: builder.priority = "7"
        case .expiration: builder.expiration = "-1"
        case .collapseID: builder.collapseID = String(repeating: "c", count: 65)
        case .payloadEmpty: builder.payload = []
        case .payloadSize:
            let padding = max(0, 4097 - builder.payload.count)
            builder.payload += Array(repeating: UInt8(ascii: " "), count: padding)
        case .payloadFormat:
            builder.strictPayload = true
            builder.payload.insert(UInt8(ascii: "x"), at: 0)
        case .capability, .channelID, .channelBody, .channelRegistry, .storagePolicy, .channelLimit:
            preconditionFailure("\(check) is not a step of a device push")
        }
    }

    /// The reason and status each check answers with.
    static func expected(_ check: RequestCheck) -> (status: Int, reason: APNSReason) {
        switch check {
        case .headerListSize: (431, .headerListTooLarge)
        case .method: (405, .methodNotAllowed)
        case .path: (404, .badPath)
        case .deviceToken: (400, .badDeviceToken)
        case .duplicateHeaders: (400, .duplicateHeaders)
        case .authentication: (403, .missingProviderToken)
        case .deviceRegistry: (400, .badDeviceToken)
        case .messageID: (400, .badMessageId)
        case .pushType: (400, .invalidPushType)
        case .topic: (400, .missingTopic)
        case .priority: (400, .badPriority)
        case .expiration: (400, .badExpirationDate)
        case .collapseID: (400, .badCollapseId)
        case .payloadEmpty: (400, .payloadEmpty)
        case .payloadSize: (413, .payloadTooLarge)
        case .payloadFormat: (400, .badRequestPayload)
        case .capability, .channelID, .channelBody, .channelRegistry, .storagePolicy, .channelLimit:
            preconditionFailure("\(check) is not a step of a device push")
        }
    }

    /// Pairs that cannot both be present: an empty body is neither too large (its size is 0)
    /// nor malformed JSON (there is no JSON to be malformed; `payloadEmpty` owns that case).
    static let incompatible: Set<[RequestCheck]> = [
        [.payloadEmpty, .payloadSize],
        [.payloadEmpty, .payloadFormat],
    ]

    static let pairs: [CheckPair] = {
        let order = RequestRules.checkOrder
        var pairs: [CheckPair] = []
        for (i, earlier) in order.enumerated() {
            for later in order[(i + 1)...] where !incompatible.contains([earlier, later]) {
                pairs.append(CheckPair(earlier: earlier, later: later))
            }
        }
        return pairs
    }()

    @Test("Each mutation alone fails exactly its own check", arguments: RequestRules.checkOrder)
    func singleMutation(_ check: RequestCheck) {
        var builder = RequestBuilder()
        Self.mutate(&builder, for: check)
        let verdict = builder.evaluate()
        #expect(verdict.failedCheck == check)
        #expect(verdict.reason == Self.expected(check).reason)
        #expect(verdict.status == Self.expected(check).status)
    }

    @Test("Every ordered pair is covered except the incompatible ones")
    func pairCount() {
        let n = RequestRules.checkOrder.count
        #expect(Self.pairs.count == n * (n - 1) / 2 - Self.incompatible.count)
    }

    @Test("Two defects: the earlier check's reason wins", arguments: pairs)
    func earlierCheckWins(_ pair: CheckPair) {
        // Apply in both orders: the mutations commute, and neither may undo the other.
        for (first, second) in [(pair.earlier, pair.later), (pair.later, pair.earlier)] {
            var builder = RequestBuilder()
            Self.mutate(&builder, for: first)
            Self.mutate(&builder, for: second)
            let verdict = builder.evaluate()
            #expect(verdict.failedCheck == pair.earlier)
            #expect(verdict.reason == Self.expected(pair.earlier).reason)
            #expect(verdict.status == Self.expected(pair.earlier).status)
        }
    }

    @Test("Two defects: the later defect is still there once the earlier one is repaired", arguments: pairs)
    func laterDefectSurvives(_ pair: CheckPair) {
        // Applying only the later mutation must fail at the later check; this guards the pair
        // test against a later mutation that would silently do nothing.
        var builder = RequestBuilder()
        Self.mutate(&builder, for: pair.later)
        #expect(builder.evaluate().failedCheck == pair.later)
    }

    // MARK: Hand-written pairs, for reading

    static let namedPairs: [RuleCase] = [
        .rejected("GET + bad token → MethodNotAllowed", 405, .methodNotAllowed, at: .method) {
            $0.method = "GET"
            $0.token = "nothex"
        },
        .rejected("header list too large + GET → HeaderListTooLarge", 431, .headerListTooLarge, at: .headerListSize) {
            $0.headerListTooLarge = true
            $0.method = "GET"
        },
        .rejected("bad path + bad token → BadPath", 404, .badPath, at: .path) {
            $0.pathOverride = "/3/devices/nothex"
        },
        .rejected("bad token + duplicate headers → BadDeviceToken", 400, .badDeviceToken, at: .deviceToken) {
            $0.token = RequestBuilder.hexToken(digits: 14)
            $0.extraHeaders = [HTTPHeaderField(name: "apns-topic", value: "com.example.app")]
        },
        .rejected("duplicate headers + bad apns-id → DuplicateHeaders", 400, .duplicateHeaders, at: .duplicateHeaders) {
            $0.messageID = "bad"
            $0.extraHeaders = [HTTPHeaderField(name: "apns-id", value: "also-bad")]
        },
        .rejected("bad apns-id + bad push type → BadMessageId", 400, .badMessageId, at: .messageID) {
            $0.messageID = "123E4567E89B42D3A456426614174000"
            $0.pushType = "Alert"
        },
        .rejected("bad push type + missing topic → InvalidPushType", 400, .invalidPushType, at: .pushType) {
            $0.pushType = "banner"
            $0.topic = nil
        },
        .rejected("bad topic suffix + bad priority → BadTopic", 400, .badTopic, at: .topic) {
            $0.pushType = "voip"
            $0.priority = "high"
        },
        .rejected("bad priority + bad expiration → BadPriority", 400, .badPriority, at: .priority) {
            $0.priority = "7"
            $0.expiration = "abc"
        },
        .rejected("bad expiration + long collapse id → BadExpirationDate", 400, .badExpirationDate, at: .expiration) {
            $0.expiration = "1.5"
            $0.collapseID = String(repeating: "c", count: 100)
        },
        .rejected("long collapse id + empty payload → BadCollapseId", 400, .badCollapseId, at: .collapseID) {
            $0.collapseID = String(repeating: "c", count: 65)
            $0.payload = []
        },
        .rejected("bad priority + empty payload → BadPriority", 400, .badPriority, at: .priority) {
            $0.priority = "7"
            $0.payload = []
        },
        .rejected("empty topic + too large payload → MissingTopic", 400, .missingTopic, at: .topic) {
            $0.topic = ""
            $0.payload = RequestBuilder.jsonPayload(size: 5000)
        },
        .rejected("too large + not JSON (strict) → PayloadTooLarge", 413, .payloadTooLarge, at: .payloadSize) {
            $0.strictPayload = true
            $0.payload = Array(repeating: UInt8(ascii: "h"), count: 4097)
        },
        .rejected("empty payload, strict → PayloadEmpty, not BadRequestPayload", 400, .payloadEmpty, at: .payloadEmpty)
        {
            $0.strictPayload = true
            $0.payload = []
        },
    ]

    @Test("Named pairs of defects", arguments: namedPairs)
    func namedPair(_ row: RuleCase) { row.verify() }

    @Test("A request with every defect at once gets the first check's reason")
    func everyDefect() {
        var builder = RequestBuilder()
        for check in RequestRules.checkOrder where check != .payloadEmpty {
            Self.mutate(&builder, for: check)
        }
        #expect(builder.evaluate().failedCheck == RequestRules.checkOrder.first)
        // Repair the checks one at a time, front to back: each time the next one answers.
        let remaining = RequestRules.checkOrder.filter { $0 != .payloadEmpty }
        for (index, check) in remaining.enumerated() {
            var partial = RequestBuilder()
            for later in remaining[index...] { Self.mutate(&partial, for: later) }
            #expect(partial.evaluate().failedCheck == check)
        }
    }
}
