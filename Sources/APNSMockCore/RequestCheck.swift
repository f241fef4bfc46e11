/// One step of the mock's check order. APNs documents no order; apns-mock fixes one so that a
/// request with several defects always gets the same reason (APNS-REFERENCE, "check order").
///
/// Each rule set lists the steps it runs, in order: `RequestRules.checkOrder` (device pushes),
/// `BroadcastRules.checkOrder` (broadcasts) and `ChannelRules.checkOrder` (channel management).
/// A step shared by several has one case; its reasons are those of the API it runs for.
public enum RequestCheck: String, Sendable, CaseIterable {
    /// Header list over `SETTINGS_MAX_HEADER_LIST_SIZE` (431, the mock's own reason).
    case headerListSize
    /// `:method` must be POST (405 MethodNotAllowed); for channel management, one the path
    /// supports.
    case method
    /// `:path` must be `/3/device/<token>` (404 BadPath, 400 MissingDeviceToken), or
    /// `/4/broadcasts/apps/<bundleId>`, or `/1/apps/<bundleId>/channels|all-channels` (404
    /// BadPath).
    case path
    /// The token must be even-length hex of 8–256 bytes (400 BadDeviceToken).
    case deviceToken
    /// No `apns-*` or `authorization` header twice (400 DuplicateHeaders).
    case duplicateHeaders
    /// Provider authentication: the token's structure, signature, age, team and key rules, or
    /// the client certificate (403 MissingProviderToken, InvalidProviderToken,
    /// ExpiredProviderToken, UnrelatedKeyIdInToken, BadEnvironmentKeyIdInToken, BadCertificate,
    /// BadCertificateEnvironment; 400 TopicDisallowed; 429 TooManyProviderTokenUpdates).
    case authentication
    /// `apns-id` must be a canonical UUID (400 BadMessageId).
    case messageID
    /// `apns-push-type` must be a known type (400 InvalidPushType); a broadcast's is required
    /// and must be `LiveActivity` in any letter case (400 MissingPushType, InvalidPushType).
    case pushType
    /// `apns-topic` present and carrying the push type's suffix (400 MissingTopic, BadTopic).
    /// Broadcast and channel management: the path's bundle ID carries no push-type suffix (400
    /// TopicDisallowed) and is one of the certificate's topics (400 TopicMismatch).
    case topic
    /// The app's broadcast capability is on (400 FeatureNotEnabled).
    case capability
    /// `apns-channel-id` present and well-formed base64 (400 MissingChannelId, BadChannelId).
    case channelID
    /// `apns-priority` 10, 5 or 1, never 10 for background (400 BadPriority); required on a
    /// broadcast.
    case priority
    /// `apns-expiration` UNIX seconds (400 BadExpirationDate); required on a broadcast.
    case expiration
    /// `apns-collapse-id` at most 64 bytes (400 BadCollapseId).
    case collapseID
    /// A payload is present (400 PayloadEmpty).
    case payloadEmpty
    /// Within the push type's limit (413 PayloadTooLarge).
    case payloadSize
    /// Under `--strict-payload`, a JSON object (400 BadRequestPayload).
    case payloadFormat
    /// A channel-create body: a JSON object (400 BadRequestPayload) whose
    /// `message-storage-policy` is 0 or 1 and `push-type` is `LiveActivity` in any letter case
    /// (400 BadRequestParams).
    case channelBody
    /// The channel `apns-channel-id` names exists for the app in this environment (400
    /// ChannelNotRegistered).
    case channelRegistry
    /// A broadcast to a channel that stores nothing (policy 0) has `apns-expiration` 0 (400
    /// BadExpirationDate).
    case storagePolicy
    /// The app has fewer channels in this environment than the limit (400
    /// CannotCreateChannelConfig).
    case channelLimit
    /// Registered devices: other environment (400 BadDeviceToken), other topic (400
    /// DeviceTokenNotForTopic), unregistered or expired (410); unknown tokens under
    /// `--strict-registry` (400 BadDeviceToken).
    case deviceRegistry
}

extension RequestCheck {
    /// Runs the checks of `order` one after another and returns the first that fails, with its
    /// reason: how every API's rules judge a request, so that a request with several defects
    /// always gets the same reason.
    @inline(__always)
    static func firstFailure(
        in order: [RequestCheck], _ run: (RequestCheck) -> APNSReason?
    ) -> (check: RequestCheck, reason: APNSReason)? {
        for check in order {
            if let reason = run(check) { return (check, reason) }
        }
        return nil
    }
}
