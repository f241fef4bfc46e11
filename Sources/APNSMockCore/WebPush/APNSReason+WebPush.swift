/// The reasons of Apple's Web Push service, from the error table of Apple's "Sending web push
/// notifications in web apps and browsers"
/// (developer.apple.com/documentation/usernotifications/sending-web-push-notifications-in-web-apps-and-browsers).
/// Apple's status table has 400 (bad request) and 403 ("an error with your authentication"); its
/// reason table gives each reason's meaning but not its status, so the status of each is the
/// mock's reading: the Authorization reasons are 403, the header and body reasons 400
/// (`APNSStatus.forReason`).
extension APNSReason {
    /// The JWT is missing, not signed by the key `k`, or its claims are wrong: a `sub` that is not
    /// a URL or `mailto:`, an `aud` that is not the push service's origin, an `exp` more than a
    /// day ahead. Also what Apple answered to a `sub` of `mailto:…@localhost`
    /// (web-push-libs/web-push issue 947).
    public static let badJwtToken = APNSReason("BadJwtToken")
    /// The VAPID public key (`k`) is missing, not base64url, or not the right kind of key (a
    /// 65-byte uncompressed P-256 point).
    public static let badVapidPublicKey = APNSReason("BadVapidPublicKey")
    /// The VAPID public key in the request is not the one the subscription was made with (its
    /// `applicationServerKey`).
    public static let vapidPkHashMismatch = APNSReason("VapidPkHashMismatch")
    /// The `Authorization` header does not have RFC 8292 §3's form (`vapid t=<JWT>, k=<key>`).
    public static let badAuthorizationHeader = APNSReason("BadAuthorizationHeader")
    /// The `TTL` header is missing or not a number of seconds.
    public static let badTtl = APNSReason("BadTtl")
    /// The `Urgency` header is present but not `very-low`, `low`, `normal` or `high`.
    public static let badUrgency = APNSReason("BadUrgency")
    /// The `Topic` header is present but not at most 32 characters of base64url.
    public static let badWebPushTopic = APNSReason("BadWebPushTopic")
    /// The request does not follow the encryption rules (for example a `Content-Encoding` other
    /// than `aes128gcm`); the mock also gives it for any other malformed web push.
    public static let badWebPushRequest = APNSReason("BadWebPushRequest")

    /// The reasons above, in the order of Apple's reason table.
    public static let webPushReasons: [APNSReason] = [
        .badTtl, .badUrgency, .badWebPushRequest, .badWebPushTopic, .vapidPkHashMismatch, .badAuthorizationHeader,
        .badJwtToken, .badVapidPublicKey,
    ]
}
