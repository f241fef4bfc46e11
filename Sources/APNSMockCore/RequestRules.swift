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
        // fault rules join here in later work
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
        // throttling joins here in later work
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
        let failure = RequestCheck.firstFailure(in: Self.checkOrder) {
            run($0, request: request, context: context, facts: &facts)
        }
        if failure != nil { observeUncheckedFacts(request: request, context: context, facts: &facts) }
        var rawDeviceToken: String?
        if facts.deviceToken == nil, let raw = facts.rawToken {
            rawDeviceToken = DeviceToken.normalized(raw) ?? String(raw)
        }
        return APNSVerdict(
            status: failure.map { APNSStatus.forReason($0.1) } ?? 200, reason: failure?.1, failedCheck: failure?.0,
            deviceToken: facts.deviceToken, pushType: facts.pushType, topic: facts.effectiveTopic ?? facts.topic,
            timestamp: facts.timestamp, authentication: facts.authentication, nextAuthState: facts.nextAuthState,
            newToken: facts.newToken, goAway: facts.goAway, sentMessageID: facts.apnsID, rawDeviceToken: rawDeviceToken)
    }

    /// A rejected request's record still holds every fact its headers carried: the push type as
    /// sent, and what its credentials say (team and key of a token, the certificate's subject),
    /// even when the checks that judge them never ran. Runs only for rejections.
    private func observeUncheckedFacts(request: APNSRequest, context: ConnectionContext, facts: inout RequestFacts) {
        if facts.rawToken == nil, request.path.hasPrefix(Self.devicePathPrefix) {
            let raw = request.path.dropFirst(Self.devicePathPrefix.count)
            if !raw.isEmpty { facts.rawToken = raw }
        }
        if facts.pushType == nil {
            if let raw = facts.pushTypeHeader {
                facts.pushType = APNSPushType(rawValue: raw)
            } else {
                facts.pushType = (facts.topic?.hasSuffix(".voip") ?? false) ? .voip : .alert
            }
        }
        ProviderAuthentication.observeCredentials(request: request, context: context, facts: &facts)
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
        case .authentication:
            return ProviderAuthentication.authenticate(
                request: request, context: context, policy: policy, facts: &facts)
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
            return checkTopic(context: context, facts: &facts)
        case .priority:
            guard let raw = facts.priority else { return nil }
            guard Self.isPriority(raw) else { return .badPriority }
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
            let limit = policy.payloadAnalysis.limit(for: facts.pushType)
            return request.payloadSize > limit ? .payloadTooLarge : nil
        case .payloadFormat:
            guard policy.strictPayload else { return nil }
            guard PayloadKind.classify(request.payload) == .object else { return .badRequestPayload }
            let analysis = PayloadAnalyzer.analyze(
                payload: request.payload, payloadSize: request.payloadSize,
                context: policy.payloadAnalysis.context(
                    pushType: facts.pushType, pushTypeHeaderPresent: facts.pushTypeHeader != nil,
                    priority: facts.priority, topic: facts.effectiveTopic ?? facts.topic,
                    locale: facts.deviceToken.flatMap { context.registry.devices[$0]?.locale }))
            return analysis.hasErrors ? .badRequestPayload : nil
        case .deviceRegistry:
            return checkDevice(context: context, facts: &facts)
        case .capability, .channelID, .channelBody, .channelRegistry, .storagePolicy, .channelLimit:
            return nil  // broadcast and channel-management steps: not in `checkOrder`
        }
    }

    // MARK: topic

    private func checkTopic(context: ConnectionContext, facts: inout RequestFacts) -> APNSReason? {
        var topic = facts.topic.flatMap { $0.isEmpty ? nil : $0 }
        if case .certificate(let identity) = context.authentication {
            // "location" pushes need token authentication.
            if facts.pushType == .location { return .topicDisallowed }
            if topic == nil {
                // A single-topic certificate defaults to its subject; a multi-topic one must say.
                guard !identity.isMultiTopic, let fallback = identity.bundleID ?? identity.topics.first else {
                    return .missingTopic
                }
                topic = fallback
            }
            guard let topic, identity.topics.contains(topic) else { return .badTopic }
            facts.effectiveTopic = topic
        }
        guard let topic else { return .missingTopic }
        facts.effectiveTopic = topic
        if let suffix = facts.pushType?.requiredTopicSuffix, !topic.hasSuffix(suffix) || topic == suffix {
            return .badTopic
        }
        return nil
    }

    // MARK: devices

    private func checkDevice(context: ConnectionContext, facts: inout RequestFacts) -> APNSReason? {
        guard let token = facts.deviceToken else { return nil }
        guard let device = context.registry.devices[token] else {
            return policy.strictRegistry ? .badDeviceToken : nil
        }
        if let environment = device.environment, environment != context.environment { return .badDeviceToken }
        if !device.accepts(topic: facts.effectiveTopic ?? facts.topic) { return .deviceTokenNotForTopic }
        switch device.state {
        case .active: return nil
        case .unregistered(let at):
            facts.timestamp = at
            return .unregistered
        case .expired(let at):
            facts.timestamp = at
            return .expiredToken
        }
    }

    private func checkPath(_ path: String, facts: inout RequestFacts) -> APNSReason? {
        if path == "/3/device" || path == Self.devicePathPrefix { return .missingDeviceToken }
        let prefix = Self.devicePathPrefix.utf8
        let utf8 = path.utf8
        // Bytes, not Characters: this runs for every push.
        guard utf8.count > prefix.count, ASCIIBytes.hasPrefix(path, "/3/device/") else { return .badPath }
        let token = Substring(utf8.dropFirst(prefix.count))
        if ASCIIBytes.contains(token, UInt8(ascii: "/")) { return .badPath }
        facts.rawToken = token
        return nil
    }

    /// Whether `value` is one of the three documented priorities, exactly: "+5" or "05" are not.
    static func isPriority(_ value: String) -> Bool { value == "10" || value == "5" || value == "1" }

    /// Whether `value` is a non-negative decimal number of seconds that fits in 64 bits.
    static func isUnixSeconds(_ value: String) -> Bool {
        guard !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        return Int64(value) != nil
    }
}
