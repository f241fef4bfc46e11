/// The HTTP status APNs answers with for a reason.
public enum APNSStatus {
    /// The statuses an answer can have, APNs's or a fault rule's `respond`: a final HTTP
    /// status (a 1xx is never one), so also what a matcher's `status` takes.
    public static let answerRange = 200...599

    /// The documented status for `reason`, or 400 for a reason APNs does not list.
    public static func forReason(_ reason: APNSReason) -> Int {
        switch reason {
        // TopicMismatch (a certificate or token for another app, on the broadcast and channel
        // management endpoints) is 403 in the table of Apple's "Handling error responses from
        // Apple Push Notification service" (developer.apple.com/documentation/usernotifications/
        // handling-error-responses-from-apns): an error of the credentials, like BadCertificate.
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden,
            .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken,
            .badEnvironmentKeyInToken, .topicMismatch:
            return 403
        // Web Push's Authorization reasons: 403, Apple's "error with your authentication" in the
        // status table of "Sending web push notifications in web apps and browsers"
        // (APNSReason+WebPush.swift).
        case .badJwtToken, .badVapidPublicKey, .vapidPkHashMismatch, .badAuthorizationHeader:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .unregistered, .expiredToken: return 410
        case .payloadTooLarge: return 413
        case .headerListTooLarge: return 431
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .serviceUnavailableWithSpace, .shutdown: return 503
        // Broadcast and channel reasons (APNS-REFERENCE §6). The status list of Apple's
        // "Handling error responses from APNs" has 400, 403, 404, 405, 413, 429, 500 and 503;
        // these reasons describe a defect of the request, not of its credentials, path or
        // method, so they are 400.
        case .featureNotEnabled, .missingChannelId, .badChannelId, .channelNotRegistered, .badRequestParams,
            .missingPushType, .cannotCreateChannelConfig:
            return 400
        default:
            return 400
        }
    }
}
