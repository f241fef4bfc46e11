/// A reason string from an APNs error response body, such as `BadDeviceToken`.
///
/// The type is open (any string is a valid reason) so that fault injection can answer with
/// reasons Apple adds later; the static members carry Apple's exact spelling.
public struct APNSReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    // 400
    public static let badCollapseId = APNSReason("BadCollapseId")
    public static let badDeviceToken = APNSReason("BadDeviceToken")
    public static let badExpirationDate = APNSReason("BadExpirationDate")
    public static let badMessageId = APNSReason("BadMessageId")
    public static let badPriority = APNSReason("BadPriority")
    public static let badTopic = APNSReason("BadTopic")
    public static let deviceTokenNotForTopic = APNSReason("DeviceTokenNotForTopic")
    public static let duplicateHeaders = APNSReason("DuplicateHeaders")
    public static let idleTimeout = APNSReason("IdleTimeout")
    public static let invalidPushType = APNSReason("InvalidPushType")
    public static let missingDeviceToken = APNSReason("MissingDeviceToken")
    public static let missingTopic = APNSReason("MissingTopic")
    public static let payloadEmpty = APNSReason("PayloadEmpty")
    public static let topicDisallowed = APNSReason("TopicDisallowed")
    /// Not documented by Apple for `/3/device`: the broadcast API's name for a malformed JSON
    /// body, used by apns-mock's `--strict-payload` mode.
    public static let badRequestPayload = APNSReason("BadRequestPayload")
    // 400, broadcast push and channel management (APNS-REFERENCE §6; Apple's "Handling error
    // responses from APNs", "Sending broadcast push notification requests to APNs", "Sending
    // channel management requests to APNs")
    /// The app's broadcast capability is off ("The feature isn't enabled for this topic").
    public static let featureNotEnabled = APNSReason("FeatureNotEnabled")
    /// `apns-channel-id` is missing.
    public static let missingChannelId = APNSReason("MissingChannelId")
    /// `apns-channel-id` is not properly encoded (base64), or longer than allowed.
    public static let badChannelId = APNSReason("BadChannelId")
    /// No channel with that `apns-channel-id` exists for the app in this environment.
    public static let channelNotRegistered = APNSReason("ChannelNotRegistered")
    /// A channel-management request's parameters (the create body's fields) are wrong.
    public static let badRequestParams = APNSReason("BadRequestParams")
    /// A broadcast has no `apns-push-type`.
    public static let missingPushType = APNSReason("MissingPushType")
    /// The app has as many channels in this environment as it may have.
    public static let cannotCreateChannelConfig = APNSReason("CannotCreateChannelConfig")
    /// The certificate is not for the bundle ID the path names.
    public static let topicMismatch = APNSReason("TopicMismatch")
    // 403
    public static let badCertificate = APNSReason("BadCertificate")
    public static let badCertificateEnvironment = APNSReason("BadCertificateEnvironment")
    public static let expiredProviderToken = APNSReason("ExpiredProviderToken")
    public static let forbidden = APNSReason("Forbidden")
    public static let invalidProviderToken = APNSReason("InvalidProviderToken")
    public static let missingProviderToken = APNSReason("MissingProviderToken")
    public static let unrelatedKeyIdInToken = APNSReason("UnrelatedKeyIdInToken")
    public static let badEnvironmentKeyIdInToken = APNSReason("BadEnvironmentKeyIdInToken")
    /// The other spelling of `badEnvironmentKeyIdInToken`, also seen from APNs.
    public static let badEnvironmentKeyInToken = APNSReason("BadEnvironmentKeyInToken")
    // 404, 405
    public static let badPath = APNSReason("BadPath")
    public static let methodNotAllowed = APNSReason("MethodNotAllowed")
    // 410
    public static let unregistered = APNSReason("Unregistered")
    public static let expiredToken = APNSReason("ExpiredToken")
    // 413
    public static let payloadTooLarge = APNSReason("PayloadTooLarge")
    // 429
    public static let tooManyProviderTokenUpdates = APNSReason("TooManyProviderTokenUpdates")
    public static let tooManyRequests = APNSReason("TooManyRequests")
    // 500, 503
    public static let internalServerError = APNSReason("InternalServerError")
    public static let serviceUnavailable = APNSReason("ServiceUnavailable")
    /// 503 as Apple spells it for the broadcast and channel APIs, with a space (APNS-REFERENCE
    /// §6, "Handling error responses from APNs").
    public static let serviceUnavailableWithSpace = APNSReason("Service Unavailable")
    public static let shutdown = APNSReason("Shutdown")
    /// apns-mock's own reason (status 431) for a request whose header list exceeds the
    /// advertised `SETTINGS_MAX_HEADER_LIST_SIZE`; APNs documents no reason for it.
    public static let headerListTooLarge = APNSReason("HeaderListTooLarge")
}
