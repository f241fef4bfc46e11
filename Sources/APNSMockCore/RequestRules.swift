/// The APNs rules for `POST /3/device/<token>`: pure, synchronous, no I/O.
///
/// `evaluate` runs the checks of `checkOrder` one after another and answers with the first
/// that fails, so a request with several defects always gets the same reason.
public struct RequestRules: Sendable {
    /// Every check, in the order they run (APNS-REFERENCE §2, "The mock's check order").
    public static let checkOrder: [RequestCheck] = [
        .headerListSize,
        .method,
        .path,
        .deviceToken,
        .duplicateHeaders,
        // fault rules and provider authentication join here in later work
        .messageID,
        .pushType,
        .topic,
        .priority,
        .expiration,
        .collapseID,
        .payloadEmpty,
        .payloadSize,
        .payloadFormat,
    ]

    /// The path prefix of a device push.
    public static let devicePathPrefix = "/3/device/"
    /// Longest `apns-collapse-id`, in bytes.
    public static let collapseIDLimit = 64

    public var policy: ValidationPolicy

    public init(policy: ValidationPolicy = ValidationPolicy()) {
        self.policy = policy
    }

    /// Decides what APNs would answer to `request` on a connection described by `context`.
    public func evaluate(_ request: APNSRequest, context: ConnectionContext) -> APNSVerdict {
        var facts = RequestFacts(request)
        for check in Self.checkOrder {
            if let reason = run(check, request: request, context: context, facts: &facts) {
                return APNSVerdict(
                    status: APNSStatus.forReason(reason), reason: reason, failedCheck: check,
                    deviceToken: facts.deviceToken, pushType: facts.pushType)
            }
        }
        return APNSVerdict(
            status: 200, reason: nil, failedCheck: nil, deviceToken: facts.deviceToken,
            pushType: facts.pushType)
    }

    private func run(
        _ check: RequestCheck, request: APNSRequest, context: ConnectionContext, facts: inout RequestFacts
    ) -> APNSReason? {
        switch check {
        case .headerListSize:
            return request.headerListTooLarge ? .headerListTooLarge : nil
        case .method:
            return request.method == "POST" ? nil : .methodNotAllowed
        case .path:
            return checkPath(request.path, facts: &facts)
        case .deviceToken:
            guard let raw = facts.rawToken, let token = DeviceToken.normalized(raw) else { return .badDeviceToken }
            facts.deviceToken = token
            return nil
        case .duplicateHeaders:
            return facts.hasDuplicates ? .duplicateHeaders : nil
        case .messageID:
            if let id = facts.apnsID, !APNSMessageID.isValid(id) { return .badMessageId }
            return nil
        case .pushType:
            guard let raw = facts.pushTypeHeader else {
                let voipTopic = facts.topic?.hasSuffix(".voip") ?? false
                facts.pushType = voipTopic ? .voip : .alert
                return nil
            }
            guard let type = APNSPushType(rawValue: raw) else { return .invalidPushType }
            facts.pushType = type
            return nil
        case .topic:
            guard let topic = facts.topic, !topic.isEmpty else {
                return context.topicRequired ? .missingTopic : nil
            }
            if let suffix = facts.pushType?.requiredTopicSuffix, !topic.hasSuffix(suffix) || topic == suffix {
                return .badTopic
            }
            return nil
        case .priority:
            guard let raw = facts.priority else { return nil }
            // Exactly the three documented values: "+5" or "05" are not priorities.
            guard raw == "10" || raw == "5" || raw == "1" else { return .badPriority }
            if raw == "10" && facts.pushType == .background { return .badPriority }
            return nil
        case .expiration:
            guard let raw = facts.expiration else { return nil }
            return Self.isUnixSeconds(raw) ? nil : .badExpirationDate
        case .collapseID:
            guard let id = facts.collapseID else { return nil }
            return id.utf8.count > Self.collapseIDLimit ? .badCollapseId : nil
        case .payloadEmpty:
            return request.payloadSize == 0 ? .payloadEmpty : nil
        case .payloadSize:
            let limit = (facts.pushType ?? .alert).payloadLimit
            return request.payloadSize > limit ? .payloadTooLarge : nil
        case .payloadFormat:
            guard policy.strictPayload else { return nil }
            return PayloadKind.classify(request.payload) == .object ? nil : .badRequestPayload
        }
    }

    private func checkPath(_ path: String, facts: inout RequestFacts) -> APNSReason? {
        if path == "/3/device" || path == Self.devicePathPrefix { return .missingDeviceToken }
        guard path.hasPrefix(Self.devicePathPrefix) else { return .badPath }
        let token = path.utf8.dropFirst(Self.devicePathPrefix.utf8.count)
        if token.contains(UInt8(ascii: "/")) { return .badPath }
        facts.rawToken = Substring(token)
        return nil
    }

    /// Whether `value` is a non-negative decimal number of seconds that fits in 64 bits.
    static func isUnixSeconds(_ value: String) -> Bool {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        return Int64(value) != nil
    }
}

/// What one pass over a request's headers found; filled in as the checks run.
struct RequestFacts {
    var rawToken: Substring?
    var deviceToken: String?
    var hasDuplicates = false
    var apnsID: String?
    var pushTypeHeader: String?
    var pushType: APNSPushType?
    var topic: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?

    init(_ request: APNSRequest) {
        var seenAuthorization = false
        var seen: [String] = []
        for field in request.headers {
            let name = field.name
            if name == "authorization" {
                if seenAuthorization { hasDuplicates = true }
                seenAuthorization = true
                continue
            }
            guard name.hasPrefix("apns-") else { continue }
            if seen.contains(name) {
                hasDuplicates = true
                continue
            }
            seen.append(name)
            switch name {
            case "apns-id": apnsID = field.value
            case "apns-push-type": pushTypeHeader = field.value
            case "apns-topic": topic = field.value
            case "apns-priority": priority = field.value
            case "apns-expiration": expiration = field.value
            case "apns-collapse-id": collapseID = field.value
            default: break
            }
        }
    }
}
