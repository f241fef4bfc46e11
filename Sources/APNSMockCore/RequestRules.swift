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
            newToken: facts.newToken, goAway: facts.goAway, sentMessageID: facts.apnsID, rawDeviceToken: rawDeviceToken,
            detail: facts.detail)
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
            guard request.headerListTooLarge else { return nil }
            return facts.fail(.headerListTooLarge, RejectionWords.headerListTooLarge(policy: policy))
        case .method:
            guard request.method != "POST" else { return nil }
            return facts.fail(.methodNotAllowed, "the method is \(request.method); device pushes are POST")
        case .path:
            return checkPath(request.path, facts: &facts)
        case .deviceToken:
            guard let raw = facts.rawToken, let token = DeviceToken.normalized(raw) else {
                return facts.fail(.badDeviceToken, RejectionWords.malformedToken(facts.rawToken.map(String.init) ?? ""))
            }
            facts.deviceToken = token
            return nil
        case .duplicateHeaders:
            guard facts.hasDuplicates else { return nil }
            return facts.fail(.duplicateHeaders, RejectionWords.duplicateHeaders(request))
        case .authentication:
            return ProviderAuthentication.authenticate(
                request: request, context: context, policy: policy, facts: &facts)
        case .messageID:
            if let id = facts.apnsID, !APNSMessageID.isValid(id) {
                return facts.fail(.badMessageId, RejectionWords.badMessageID(id, header: "apns-id"))
            }
            return nil
        case .pushType:
            guard let raw = facts.pushTypeHeader else {
                let voipTopic = facts.topic?.hasSuffix(".voip") ?? false
                facts.pushType = voipTopic ? .voip : .alert
                return nil
            }
            guard let type = APNSPushType(rawValue: raw) else {
                return facts.fail(
                    .invalidPushType,
                    "apns-push-type is '\(raw)'; APNs knows \(APNSPushType.allCases.map(\.rawValue).joined(separator: ", ")) (lower case)"
                )
            }
            facts.pushType = type
            return nil
        case .topic:
            return checkTopic(context: context, facts: &facts)
        case .priority:
            guard let raw = facts.priority else { return nil }
            guard Self.isPriority(raw) else { return facts.fail(.badPriority, RejectionWords.badPriority(raw)) }
            if raw == "10" && facts.pushType == .background {
                return facts.fail(
                    .badPriority, "apns-priority is 10 on a background push; background pushes must use 5 (or 1)")
            }
            return nil
        case .expiration:
            guard let raw = facts.expiration, !Self.isUnixSeconds(raw) else { return nil }
            return facts.fail(.badExpirationDate, RejectionWords.badExpiration(raw))
        case .collapseID:
            guard let id = facts.collapseID, id.utf8.count > Self.collapseIDLimit else { return nil }
            return facts.fail(
                .badCollapseId,
                "apns-collapse-id is \(id.utf8.count) bytes; at most \(Self.collapseIDLimit) are allowed")
        case .payloadEmpty:
            guard request.payloadSize == 0 else { return nil }
            return facts.fail(.payloadEmpty, "the request has no body; a push needs a JSON payload")
        case .payloadSize:
            let limit = policy.payloadAnalysis.limit(for: facts.pushType)
            guard request.payloadSize > limit else { return nil }
            return facts.fail(
                .payloadTooLarge,
                RejectionWords.payloadTooLarge(
                    size: request.payloadSize, complete: request.payloadComplete,
                    contentLength: request.headerBlock.firstValue(.contentLength), limit: limit,
                    what: "\(facts.pushType?.rawValue ?? "alert") pushes",
                    overridden: policy.payloadAnalysis.payloadLimit != nil))
        case .payloadFormat:
            guard policy.strictPayload else { return nil }
            guard PayloadKind.classify(request.payload) == .object else {
                return facts.fail(.badRequestPayload, RejectionWords.notAJSONObject)
            }
            let analysis = PayloadAnalyzer.analyze(
                payload: request.payload, payloadSize: request.payloadSize,
                context: policy.payloadAnalysis.context(
                    pushType: facts.pushType, pushTypeHeaderPresent: facts.pushTypeHeader != nil,
                    priority: facts.priority, topic: facts.effectiveTopic ?? facts.topic,
                    locale: facts.deviceToken.flatMap { context.registry.device($0)?.locale }))
            guard analysis.hasErrors else { return nil }
            return facts.fail(.badRequestPayload, RejectionWords.lintErrors(analysis))
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
            if facts.pushType == .location {
                return facts.fail(
                    .topicDisallowed, "location pushes need token authentication; this connection uses a certificate")
            }
            if topic == nil {
                // A single-topic certificate defaults to its subject; a multi-topic one must say.
                guard !identity.isMultiTopic, let fallback = identity.bundleID ?? identity.topics.first else {
                    return facts.fail(
                        .missingTopic,
                        "no apns-topic, and the certificate has several topics (\(RejectionWords.list(identity.topics))); name one"
                    )
                }
                topic = fallback
            }
            guard let topic, identity.topics.contains(topic) else {
                return facts.fail(
                    .badTopic,
                    "apns-topic is '\(topic ?? "")'; the certificate's topics are \(RejectionWords.list(identity.topics))"
                )
            }
            facts.effectiveTopic = topic
        }
        guard let topic else {
            return facts.fail(.missingTopic, "no apns-topic; token-authenticated pushes must name their topic")
        }
        facts.effectiveTopic = topic
        if let suffix = facts.pushType?.requiredTopicSuffix, !topic.hasSuffix(suffix) || topic == suffix {
            return facts.fail(
                .badTopic,
                "apns-topic is '\(topic)'; \(facts.pushType?.rawValue ?? "") pushes need a topic ending in '\(suffix)'")
        }
        return nil
    }

    // MARK: devices

    private func checkDevice(context: ConnectionContext, facts: inout RequestFacts) -> APNSReason? {
        guard let token = facts.deviceToken else { return nil }
        guard let device = context.registry.device(token) else {
            guard policy.strictRegistry else { return nil }
            return facts.fail(.badDeviceToken, "the device token is not registered, and --strict-registry is on")
        }
        if let environment = device.environment, environment != context.environment {
            return facts.fail(
                .badDeviceToken,
                "the device token is registered for \(environment.rawValue); this connection is \(context.environment.rawValue)"
            )
        }
        if !device.accepts(topic: facts.effectiveTopic ?? facts.topic) {
            return facts.fail(
                .deviceTokenNotForTopic,
                "the device token is registered for '\(device.topic ?? "")'; the push is for '\(facts.effectiveTopic ?? facts.topic ?? "")'"
            )
        }
        switch device.state {
        case .active:
            // Apple: a 410's timestamp is "the last time at which APNs confirmed that the device
            // token was no longer valid"; an uninstalled app's pushes are accepted until then.
            if let unregistersAt = device.conditions.unregistersAt, context.now >= unregistersAt {
                let at = device.conditions.uninstalledAt ?? unregistersAt
                facts.timestamp = at
                return facts.fail(
                    .unregistered,
                    "the app was uninstalled at \(at) (epoch ms) and its grace period of \(DurationText.format(seconds: Double(device.conditions.uninstallGrace) / 1000)) has passed"
                )
            }
            return nil
        case .unregistered(let at):
            facts.timestamp = at
            return facts.fail(.unregistered, "the device token was unregistered at \(at) (epoch ms)")
        case .expired(let at):
            facts.timestamp = at
            return facts.fail(.expiredToken, "the device token expired at \(at) (epoch ms)")
        }
    }

    private func checkPath(_ path: String, facts: inout RequestFacts) -> APNSReason? {
        if path == "/3/device" || path == Self.devicePathPrefix {
            return facts.fail(.missingDeviceToken, "the path \(path) has no device token after /3/device/")
        }
        let prefix = Self.devicePathPrefix.utf8
        let utf8 = path.utf8
        // Bytes, not Characters: this runs for every push.
        guard utf8.count > prefix.count, ASCIIBytes.hasPrefix(path, "/3/device/") else {
            return facts.fail(.badPath, RejectionWords.badPath(path, expected: "/3/device/<device token>"))
        }
        let token = Substring(utf8.dropFirst(prefix.count))
        if ASCIIBytes.contains(token, UInt8(ascii: "/")) {
            return facts.fail(.badPath, RejectionWords.badPath(path, expected: "/3/device/<device token>"))
        }
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
