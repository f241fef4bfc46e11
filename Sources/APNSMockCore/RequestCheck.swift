/// One step of the mock's check order. APNs documents no order; apns-mock fixes one so that a
/// request with several defects always gets the same reason (APNS-REFERENCE, "check order").
///
/// `RequestRules.checkOrder` lists every case in the order they run.
public enum RequestCheck: String, Sendable, CaseIterable {
    /// Header list over `SETTINGS_MAX_HEADER_LIST_SIZE` (431, the mock's own reason).
    case headerListSize
    /// `:method` must be POST (405 MethodNotAllowed).
    case method
    /// `:path` must be `/3/device/<token>` (404 BadPath, 400 MissingDeviceToken).
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
    /// `apns-push-type` must be a known type (400 InvalidPushType).
    case pushType
    /// `apns-topic` present and carrying the push type's suffix (400 MissingTopic, BadTopic).
    case topic
    /// `apns-priority` 10, 5 or 1, never 10 for background (400 BadPriority).
    case priority
    /// `apns-expiration` UNIX seconds (400 BadExpirationDate).
    case expiration
    /// `apns-collapse-id` at most 64 bytes (400 BadCollapseId).
    case collapseID
    /// A payload is present (400 PayloadEmpty).
    case payloadEmpty
    /// Within the push type's limit (413 PayloadTooLarge).
    case payloadSize
    /// Under `--strict-payload`, a JSON object (400 BadRequestPayload).
    case payloadFormat
    /// Registered devices: other environment (400 BadDeviceToken), other topic (400
    /// DeviceTokenNotForTopic), unregistered or expired (410); unknown tokens under
    /// `--strict-registry` (400 BadDeviceToken).
    case deviceRegistry
}
