/// The APNs rules for a broadcast, `POST /4/broadcasts/apps/<bundleId>`: pure, synchronous,
/// no I/O (APNS-REFERENCE §6; Apple's "Sending broadcast push notification requests to APNs").
///
/// `evaluate` runs the checks of `checkOrder` one after another and answers with the first that
/// fails. Apple documents no order. The mock runs the device-push steps that come first there
/// (header list, method, path, repeated headers, authentication), then what the path's bundle ID
/// and the app allow (topic, capability) and `apns-id`, then APNSwift's test-server order for
/// the rest: MissingChannelId → MissingPushType → InvalidPushType → BadExpirationDate →
/// BadPriority → ChannelNotRegistered → PayloadEmpty → PayloadTooLarge. Two steps APNSwift does
/// not have sit where they need to: the storage-policy rule after ChannelNotRegistered (it needs
/// the channel), and the strict-payload format check last, as for device pushes.
public struct BroadcastRules: Sendable {
    /// Every check, in the order they run.
    public static let checkOrder: [RequestCheck] = [
        .headerListSize,
        .method,
        .path,
        .duplicateHeaders,
        .authentication,
        .topic,
        .capability,
        .messageID,
        .channelID,
        .pushType,
        .expiration,
        .priority,
        .channelRegistry,
        .storagePolicy,
        .payloadEmpty,
        .payloadSize,
        .payloadFormat,
    ]

    /// The path prefix of a broadcast; the bundle ID follows.
    public static let pathPrefix = "/4/broadcasts/apps/"
    /// The largest broadcast payload APNs accepts, in bytes.
    public static let payloadLimit = 5120
    /// The only push type of a broadcast, compared in any letter case: Apple's pages spell it
    /// `LiveActivity`, `Liveactivity` and `liveactivity`.
    public static let pushType = APNSPushType.liveactivity

    public var policy: ValidationPolicy

    public init(policy: ValidationPolicy = ValidationPolicy()) {
        self.policy = policy
    }

    /// Whether `path` is a broadcast's (`/4/broadcasts/…`), well-formed or not: the transport
    /// routes it here rather than to `RequestRules`.
    public static func isBroadcastPath(_ path: String) -> Bool {
        // Every device push asks this: its path starts "/3/", so the second byte settles it.
        var bytes = path.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "4") else { return false }
        return path.hasPrefix("/4/broadcasts/")
    }

    /// Decides what APNs would answer to `request` on a connection described by `context`, with
    /// the channels and capabilities of `channels`. Changes nothing.
    public func evaluate(_ request: APNSRequest, context: ConnectionContext, channels: ChannelDirectory)
        -> APNSVerdict
    {
        var facts = BroadcastFacts(base: RequestFacts(request))
        let failure = RequestCheck.firstFailure(in: Self.checkOrder) {
            run($0, request: request, context: context, channels: channels, facts: &facts)
        }
        if failure != nil {
            if facts.bundleID == nil { facts.bundleID = Self.bundleID(inPath: request.path) }
            if facts.base.pushTypeHeader?.lowercased() == Self.pushType.rawValue { facts.pushTypeAccepted = true }
            ProviderAuthentication.observeCredentials(request: request, context: context, facts: &facts.base)
        }
        let base = facts.base
        return APNSVerdict(
            status: failure.map { APNSStatus.forReason($0.1) } ?? 200, reason: failure?.1, failedCheck: failure?.0,
            pushType: facts.pushTypeAccepted ? Self.pushType : nil, topic: facts.bundleID,
            authentication: base.authentication, nextAuthState: base.nextAuthState, newToken: base.newToken,
            goAway: base.goAway, sentMessageID: base.apnsID, kind: .broadcast, channelID: base.channelID,
            storagePolicy: facts.channel?.storagePolicy, sentPushType: base.pushTypeHeader, requestID: base.requestID,
            channel: facts.channel, detail: base.detail)
    }

    /// The largest payload accepted: `--payload-limit` when set, else 5120.
    public var effectivePayloadLimit: Int { policy.payloadAnalysis.payloadLimit ?? Self.payloadLimit }

    private func run(
        _ check: RequestCheck, request: APNSRequest, context: ConnectionContext, channels: ChannelDirectory,
        facts: inout BroadcastFacts
    ) -> APNSReason? {
        switch check {
        case .headerListSize:
            guard request.headerListTooLarge else { return nil }
            return facts.base.fail(.headerListTooLarge, RejectionWords.headerListTooLarge(policy: policy))
        case .method:
            guard request.method != "POST" else { return nil }
            return facts.base.fail(.methodNotAllowed, "the method is \(request.method); broadcasts are POST")
        case .path:
            guard let bundleID = Self.bundleID(inPath: request.path) else {
                return facts.base.fail(
                    .badPath, RejectionWords.badPath(request.path, expected: "/4/broadcasts/apps/<bundle id>"))
            }
            facts.bundleID = bundleID
            // The topic a topic-specific key must cover: the app's (no apns-topic here).
            facts.base.topic = bundleID
            return nil
        case .duplicateHeaders:
            guard facts.base.hasDuplicates else { return nil }
            return facts.base.fail(.duplicateHeaders, RejectionWords.duplicateHeaders(request))
        case .authentication:
            return ProviderAuthentication.authenticate(
                request: request, context: context, policy: policy, facts: &facts.base)
        case .topic:
            guard let bundleID = facts.bundleID else { return .badPath }
            return Self.checkBundleID(bundleID, context: context, facts: &facts.base)
        case .capability:
            guard let bundleID = facts.bundleID else { return .badPath }
            return Self.checkCapability(bundleID, channels: channels, facts: &facts.base)
        case .messageID:
            if let id = facts.base.apnsID, !APNSMessageID.isValid(id) {
                return facts.base.fail(.badMessageId, RejectionWords.badMessageID(id, header: "apns-id"))
            }
            return nil
        case .channelID:
            return Self.checkChannelID(facts: &facts.base)
        case .pushType:
            guard let raw = facts.base.pushTypeHeader, !raw.isEmpty else {
                return facts.base.fail(.missingPushType, "no apns-push-type; a broadcast must send LiveActivity")
            }
            guard raw.lowercased() == Self.pushType.rawValue else {
                return facts.base.fail(
                    .invalidPushType, "apns-push-type is \(RejectionWords.quoted(raw)); a broadcast sends LiveActivity")
            }
            facts.pushTypeAccepted = true
            return nil
        case .expiration:
            guard let raw = facts.base.expiration else {
                return facts.base.fail(
                    .badExpirationDate, "no apns-expiration; a broadcast must send one (0: deliver now)")
            }
            guard RequestRules.isUnixSeconds(raw) else {
                return facts.base.fail(.badExpirationDate, RejectionWords.badExpiration(raw))
            }
            return nil
        case .priority:
            // Required, and exactly one of the three documented values.
            guard let raw = facts.base.priority else {
                return facts.base.fail(.badPriority, "no apns-priority; a broadcast must send 10, 5 or 1")
            }
            guard RequestRules.isPriority(raw) else {
                return facts.base.fail(.badPriority, RejectionWords.badPriority(raw))
            }
            return nil
        case .channelRegistry:
            guard let bundleID = facts.bundleID, let id = facts.base.channelID,
                let channel = channels.channel(
                    id, in: ChannelScope(bundleID: bundleID, environment: context.environment))
            else {
                return Self.channelNotRegistered(
                    facts.base.channelID, bundleID: facts.bundleID, context: context, channels: channels,
                    facts: &facts.base)
            }
            facts.channel = channel
            return nil
        case .storagePolicy:
            // "No Message Stored": the message is never kept, so it must not ask to be. A storing
            // channel keeps the most recent message at most 8 hours, a maximum and no refusal.
            guard facts.channel?.storagePolicy == .noMessageStored,
                facts.base.expiration.flatMap({ Int64($0) }) != 0
            else { return nil }
            return facts.base.fail(
                .badExpirationDate,
                "apns-expiration is \(facts.base.expiration ?? ""), but the channel stores no message (message-storage-policy 0): only 0 is accepted"
            )
        case .payloadEmpty:
            guard request.payloadSize == 0 else { return nil }
            return facts.base.fail(.payloadEmpty, "the request has no body; a broadcast needs a JSON payload")
        case .payloadSize:
            guard request.payloadSize > effectivePayloadLimit else { return nil }
            return facts.base.fail(
                .payloadTooLarge,
                RejectionWords.payloadTooLarge(
                    size: request.payloadSize, complete: request.payloadComplete,
                    contentLength: request.headerBlock.firstValue(.contentLength), limit: effectivePayloadLimit,
                    what: "broadcasts",
                    overridden: policy.payloadAnalysis.payloadLimit != nil))
        case .payloadFormat:
            // Apple's broadcast error table: 400 BadRequestPayload, "The JSON Request payload is
            // unparseable" ("Sending broadcast push notification requests to APNs"). APNs reads a
            // broadcast's body whatever the mode, unlike a device push's; JSON that is not an object
            // (an array, a string) is refused with it too, as the mock's choice.
            guard PayloadKind.classify(request.payload) == .object else {
                return facts.base.fail(.badRequestPayload, RejectionWords.broadcastNotAJSONObject)
            }
            guard policy.strictPayload else { return nil }
            let analysis = PayloadAnalyzer.analyze(
                payload: request.payload, payloadSize: request.payloadSize,
                context: policy.payloadAnalysis.broadcastContext(priority: facts.base.priority))
            guard analysis.hasErrors else { return nil }
            return facts.base.fail(.badRequestPayload, RejectionWords.lintErrors(analysis))
        case .deviceToken, .collapseID, .deviceRegistry, .channelBody, .channelLimit:
            return nil  // steps of other APIs: not in `checkOrder`
        }
    }

    /// The bundle ID of `/4/broadcasts/apps/<bundleId>`, or `nil` when `path` is not that.
    static func bundleID(inPath path: String) -> String? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        let bundleID = path.dropFirst(pathPrefix.count)
        guard ChannelScope.isValidBundleID(bundleID) else { return nil }
        return String(bundleID)
    }

    /// The bundle ID a broadcast or channel request names, against the credentials: a topic
    /// (a push-type suffix) is not a bundle ID (TopicDisallowed), and a certificate must be for
    /// the app (TopicMismatch). A token's key was held against the bundle ID by authentication.
    static func checkBundleID(_ bundleID: String, context: ConnectionContext, facts: inout RequestFacts)
        -> APNSReason?
    {
        if let suffix = ChannelScope.pushTypeSuffix(of: bundleID) {
            return facts.fail(
                .topicDisallowed, "the path names '\(bundleID)', a topic (suffix '\(suffix)'); name the bundle id")
        }
        if case .certificate(let identity) = context.authentication {
            guard identity.topics.contains(bundleID) || identity.bundleID == bundleID else {
                return facts.fail(
                    .topicMismatch,
                    "the path names '\(bundleID)'; the certificate's topics are \(RejectionWords.list(identity.topics))"
                )
            }
        }
        return nil
    }

    /// The app's broadcast capability is on (FeatureNotEnabled).
    static func checkCapability(_ bundleID: String, channels: ChannelDirectory, facts: inout RequestFacts)
        -> APNSReason?
    {
        guard !channels.isBroadcastEnabled(bundleID: bundleID) else { return nil }
        return facts.fail(
            .featureNotEnabled,
            "broadcast is switched off for '\(bundleID)' (PUT /v1/apps/\(bundleID)/broadcast {\"enabled\":true} turns it on)"
        )
    }

    /// `apns-channel-id` present (MissingChannelId) and well-formed (BadChannelId).
    static func checkChannelID(facts: inout RequestFacts) -> APNSReason? {
        guard let id = facts.channelID, !id.isEmpty else {
            return facts.fail(.missingChannelId, "no apns-channel-id header")
        }
        guard ChannelID.isValid(id) else {
            return facts.fail(
                .badChannelId,
                "apns-channel-id \(RejectionWords.quoted(id)) is not base64 (A–Z a–z 0–9 + /, padded with =) of 1–\(ChannelID.maximumBytes) bytes"
            )
        }
        return nil
    }

    /// ChannelNotRegistered, saying where the id is known, if anywhere: another app, the other
    /// environment, or nowhere (never created, or deleted).
    static func channelNotRegistered(
        _ id: String?, bundleID: String?, context: ConnectionContext, channels: ChannelDirectory,
        facts: inout RequestFacts
    ) -> APNSReason {
        let elsewhere = id.flatMap { channels.channel(id: $0) }
        let detail: String
        if let elsewhere, elsewhere.environment != context.environment {
            detail =
                "channel \(id ?? "") is a \(elsewhere.environment.rawValue) channel; this connection is \(context.environment.rawValue)"
        } else if let elsewhere {
            detail = "channel \(id ?? "") belongs to '\(elsewhere.bundleID)', not '\(bundleID ?? "")'"
        } else {
            detail = "no channel \(id ?? "") exists (never created, or deleted)"
        }
        return facts.fail(.channelNotRegistered, detail)
    }
}

/// What the broadcast checks learned, besides the headers.
private struct BroadcastFacts {
    var base: RequestFacts
    /// The bundle ID in the path, once the path check passed (or, for a rejection, when the
    /// path had a well-formed one).
    var bundleID: String?
    /// `apns-push-type` was the Live Activity type.
    var pushTypeAccepted = false
    /// The registered channel `apns-channel-id` names.
    var channel: BroadcastChannel?
}
