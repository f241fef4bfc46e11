/// The HTTP status APNs answers with for a reason.
public enum APNSStatus {
    /// The documented status for `reason`, or 400 for a reason APNs does not list.
    public static func forReason(_ reason: APNSReason) -> Int {
        switch reason {
        case .badCertificate, .badCertificateEnvironment, .expiredProviderToken, .forbidden,
            .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken,
            .badEnvironmentKeyInToken:
            return 403
        case .badPath: return 404
        case .methodNotAllowed: return 405
        case .unregistered, .expiredToken: return 410
        case .payloadTooLarge: return 413
        case .headerListTooLarge: return 431
        case .tooManyProviderTokenUpdates, .tooManyRequests: return 429
        case .internalServerError: return 500
        case .serviceUnavailable, .shutdown: return 503
        default:
            return 400
        }
    }
}
