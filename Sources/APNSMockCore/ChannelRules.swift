/// The APNs rules for channel management (APNS-REFERENCE §6; Apple's "Sending channel management
/// requests to APNs"): pure, synchronous, no I/O, and no change to any channel.
///
/// - `POST /1/apps/<bundleId>/channels` with `{"message-storage-policy":0|1,"push-type":"LiveActivity"}`
///   creates a channel (201);
/// - `GET` the same path with `apns-channel-id` reads its configuration (200);
/// - `DELETE` the same path with `apns-channel-id` deletes it (204);
/// - `GET /1/apps/<bundleId>/all-channels` lists the app's channels (200).
///
/// The verdict says which (`channelOperation`, `channelID`, `storagePolicy`, `sentPushType`);
/// the caller applies it. `evaluate` runs the checks of `checkOrder` and answers with the first
/// that fails. Apple documents no order; the mock's puts the path before the method (unlike a
/// device push), because which methods are allowed depends on the path: an unknown path is 404
/// BadPath whatever its method, a known one with a method it does not take is 405.
public struct ChannelRules: Sendable {
    /// Every check, in the order they run.
    public static let checkOrder: [RequestCheck] = [
        .headerListSize,
        .path,
        .method,
        .duplicateHeaders,
        .authentication,
        .topic,
        .capability,
        .channelID,
        .channelBody,
        .channelRegistry,
        .channelLimit,
    ]

    /// The path prefix of every channel-management request; the bundle ID follows.
    public static let pathPrefix = "/1/apps/"

    public var policy: ValidationPolicy

    public init(policy: ValidationPolicy = ValidationPolicy()) {
        self.policy = policy
    }

    /// Decides what APNs would answer to `request` on a connection described by `context`, with
    /// the channels and capabilities of `channels`. Changes nothing.
    public func evaluate(_ request: APNSRequest, context: ConnectionContext, channels: ChannelDirectory)
        -> APNSVerdict
    {
        var facts = ChannelFacts(base: RequestFacts(request))
        let failure = RequestCheck.firstFailure(in: Self.checkOrder) {
            run($0, request: request, context: context, channels: channels, facts: &facts)
        }
        if failure != nil {
            if facts.resource == nil { facts.resource = Self.resource(inPath: request.path) }
            ProviderAuthentication.observeCredentials(request: request, context: context, facts: &facts.base)
        }
        let base = facts.base
        let status: Int
        if let failure {
            status = APNSStatus.forReason(failure.1)
        } else {
            switch facts.operation {
            case .create?: status = 201
            case .delete?: status = 204
            default: status = 200
            }
        }
        let usesChannelID = facts.operation == .read || facts.operation == .delete
        return APNSVerdict(
            status: status, reason: failure?.1, failedCheck: failure?.0,
            pushType: facts.bodyPushType.map { _ in BroadcastRules.pushType }, topic: facts.resource?.bundleID,
            authentication: base.authentication, nextAuthState: base.nextAuthState, newToken: base.newToken,
            goAway: base.goAway, kind: .channel, channelOperation: facts.operation,
            channelID: usesChannelID ? base.channelID : nil,
            storagePolicy: facts.bodyStoragePolicy ?? facts.channel?.storagePolicy,
            sentPushType: facts.sentBodyPushType, requestID: base.requestID, channel: facts.channel,
            detail: base.detail)
    }

    private func run(
        _ check: RequestCheck, request: APNSRequest, context: ConnectionContext, channels: ChannelDirectory,
        facts: inout ChannelFacts
    ) -> APNSReason? {
        switch check {
        case .headerListSize:
            guard request.headerListTooLarge else { return nil }
            return facts.base.fail(.headerListTooLarge, RejectionWords.headerListTooLarge(policy: policy))
        case .path:
            guard let resource = Self.resource(inPath: request.path) else {
                return facts.base.fail(
                    .badPath,
                    RejectionWords.badPath(
                        request.path, expected: "/1/apps/<bundle id>/channels or /1/apps/<bundle id>/all-channels"))
            }
            facts.resource = resource
            // The topic a topic-specific key must cover: the app's.
            facts.base.topic = resource.bundleID
            return nil
        case .method:
            guard let resource = facts.resource else { return .badPath }
            guard let operation = Self.operation(method: request.method, allChannels: resource.allChannels) else {
                return facts.base.fail(
                    .methodNotAllowed,
                    "the method is \(request.method); \(resource.allChannels ? "all-channels takes GET" : "channels takes POST, GET or DELETE")"
                )
            }
            facts.operation = operation
            return nil
        case .duplicateHeaders:
            guard facts.base.hasDuplicates else { return nil }
            return facts.base.fail(.duplicateHeaders, RejectionWords.duplicateHeaders(request))
        case .authentication:
            return ProviderAuthentication.authenticate(
                request: request, context: context, policy: policy, facts: &facts.base)
        case .topic:
            guard let resource = facts.resource else { return .badPath }
            return BroadcastRules.checkBundleID(resource.bundleID, context: context, facts: &facts.base)
        case .capability:
            guard let resource = facts.resource else { return .badPath }
            return BroadcastRules.checkCapability(resource.bundleID, channels: channels, facts: &facts.base)
        case .channelID:
            guard facts.operation == .read || facts.operation == .delete else { return nil }
            return BroadcastRules.checkChannelID(facts: &facts.base)
        case .channelBody:
            guard facts.operation == .create else { return nil }
            return checkBody(request, facts: &facts)
        case .channelRegistry:
            guard facts.operation == .read || facts.operation == .delete else { return nil }
            guard let resource = facts.resource, let id = facts.base.channelID,
                let channel = channels.channel(
                    id, in: ChannelScope(bundleID: resource.bundleID, environment: context.environment))
            else {
                return BroadcastRules.channelNotRegistered(
                    facts.base.channelID, bundleID: facts.resource?.bundleID, context: context, channels: channels,
                    facts: &facts.base)
            }
            facts.channel = channel
            return nil
        case .channelLimit:
            guard facts.operation == .create, let resource = facts.resource else { return nil }
            let scope = ChannelScope(bundleID: resource.bundleID, environment: context.environment)
            guard channels.count(in: scope) >= channels.limit else { return nil }
            return facts.base.fail(
                .cannotCreateChannelConfig,
                "'\(resource.bundleID)' has \(channels.count(in: scope)) channels in \(context.environment.rawValue), the limit (--channel-limit, Apple's 10,000)"
            )
        case .deviceToken, .messageID, .pushType, .priority, .expiration, .collapseID, .payloadEmpty, .payloadSize,
            .payloadFormat, .storagePolicy, .deviceRegistry:
            return nil  // steps of other APIs: not in `checkOrder`
        }
    }

    /// The create body: a JSON object (else BadRequestPayload) with `message-storage-policy` 0
    /// or 1 and `push-type` `LiveActivity` in any letter case, and no other key (else
    /// BadRequestParams: Apple's channel-management error table gives it for a request that
    /// "contained an unrecognizable attribute"). Apple names no reason for each field;
    /// BadRequestParams is the mock's choice for all of them, as "the parameters of a channel request".
    private func checkBody(_ request: APNSRequest, facts: inout ChannelFacts) -> APNSReason? {
        guard request.payloadSize > 0, request.payload.count == request.payloadSize,
            let body = JSONValue.parse(request.payload), case .object = body
        else {
            return facts.base.fail(
                .badRequestPayload,
                #"the body is not a JSON object such as {"message-storage-policy": 1, "push-type": "LiveActivity"}"#)
        }
        if case .object(let members) = body,
            let unknown = members.first(where: { !Self.bodyAttributes.contains($0.key) })?.key
        {
            return facts.base.fail(
                .badRequestParams,
                "the body has '\(unknown)', an attribute Apple's channel management does not define; "
                    + "it takes \(RejectionWords.list(Self.bodyAttributes))")
        }
        if case .string(let pushType)? = body["push-type"] { facts.sentBodyPushType = pushType }
        if case .number(_, let text)? = body["message-storage-policy"], let code = Int(text) {
            facts.bodyStoragePolicy = MessageStoragePolicy(rawValue: code)
        }
        guard facts.bodyStoragePolicy != nil else {
            return facts.base.fail(
                .badRequestParams,
                "message-storage-policy is \(body["message-storage-policy"]?.jsonText ?? "missing"); it must be 0 or 1"
            )
        }
        guard let pushType = facts.sentBodyPushType, pushType.lowercased() == BroadcastRules.pushType.rawValue else {
            return facts.base.fail(
                .badRequestParams,
                "push-type is \(facts.sentBodyPushType.map { "'\($0)'" } ?? "missing"); it must be LiveActivity")
        }
        facts.bodyPushType = pushType
        return nil
    }

    /// The attributes of a channel-create body ("Sending channel management requests to APNs").
    static let bodyAttributes = ["message-storage-policy", "push-type"]

    /// The operation `method` asks for on `channels` (or `all-channels`), `nil` for a method
    /// the path does not take.
    static func operation(method: String, allChannels: Bool) -> ChannelOperation? {
        switch (method, allChannels) {
        case ("POST", false): .create
        case ("GET", false): .read
        case ("DELETE", false): .delete
        case ("GET", true): .list
        default: nil
        }
    }

    /// The app and collection of `/1/apps/<bundleId>/channels` or `…/all-channels`, or `nil`
    /// when `path` is neither.
    static func resource(inPath path: String) -> Resource? {
        guard path.hasPrefix(pathPrefix) else { return nil }
        let rest = path.dropFirst(pathPrefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let bundleID = rest[..<slash]
        guard ChannelScope.isValidBundleID(bundleID) else { return nil }
        switch rest[rest.index(after: slash)...] {
        case "channels": return Resource(bundleID: String(bundleID), allChannels: false)
        case "all-channels": return Resource(bundleID: String(bundleID), allChannels: true)
        default: return nil
        }
    }

    /// What a channel-management path names.
    struct Resource: Equatable {
        var bundleID: String
        /// `all-channels` (list) rather than `channels` (create, read, delete).
        var allChannels: Bool
    }
}

/// What the channel checks learned, besides the headers.
private struct ChannelFacts {
    var base: RequestFacts
    var resource: ChannelRules.Resource?
    var operation: ChannelOperation?
    /// The create body's `message-storage-policy`, when 0 or 1.
    var bodyStoragePolicy: MessageStoragePolicy?
    /// The create body's `push-type` as sent, when a string.
    var sentBodyPushType: String?
    /// The create body's `push-type`, once it passed (the Live Activity type in some case).
    var bodyPushType: String?
    /// The registered channel `apns-channel-id` names (read, delete).
    var channel: BroadcastChannel?
}
