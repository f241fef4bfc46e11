/// What the rules decided for one request, plus the facts they read on the way.
public struct APNSVerdict: Sendable, Equatable {
    /// HTTP status: 200 when accepted.
    public var status: Int
    /// The reason for a rejection, `nil` when accepted.
    public var reason: APNSReason?
    /// The check that rejected the request, `nil` when accepted.
    public var failedCheck: RequestCheck?
    /// The lower-case device token, when the path held a well-formed one.
    public var deviceToken: String?
    /// The token the path carried when `deviceToken` is nil (malformed, or the request was
    /// rejected before the token was checked): lower case when well-formed, else as sent.
    public var rawDeviceToken: String?
    /// The push type the request is judged as (`alert` when the header is missing, `voip`
    /// for a missing header with a `.voip` topic), when known.
    public var pushType: APNSPushType?
    /// The topic the push is for: `apns-topic`, or a single-topic certificate's bundle ID.
    public var topic: String?
    /// For 410: when the token stopped being valid (epoch ms), sent as `timestamp`.
    public var timestamp: Int64?
    /// What authentication learned (nil when the request failed before that step).
    public var authentication: AuthenticationResult?
    /// The connection's next authentication state, when this push passed authentication and
    /// changed it (`nil` when the state stays as it was).
    public var nextAuthState: ConnectionAuthState?
    /// A token seen for the first time, to remember (its signature is never checked again).
    public var newToken: NewProviderToken?
    /// End the connection with GOAWAY instead of answering (BadCertificateEnvironment).
    public var goAway: Bool
    /// The request's `apns-id` header as sent (first one), valid or not.
    public var sentMessageID: String?

    public init(
        status: Int, reason: APNSReason?, failedCheck: RequestCheck? = nil, deviceToken: String? = nil,
        pushType: APNSPushType? = nil, topic: String? = nil, timestamp: Int64? = nil,
        authentication: AuthenticationResult? = nil, nextAuthState: ConnectionAuthState? = nil,
        newToken: NewProviderToken? = nil, goAway: Bool = false, sentMessageID: String? = nil,
        rawDeviceToken: String? = nil
    ) {
        self.rawDeviceToken = rawDeviceToken
        self.sentMessageID = sentMessageID
        self.status = status
        self.reason = reason
        self.failedCheck = failedCheck
        self.deviceToken = deviceToken
        self.pushType = pushType
        self.topic = topic
        self.timestamp = timestamp
        self.authentication = authentication
        self.nextAuthState = nextAuthState
        self.newToken = newToken
        self.goAway = goAway
    }

    /// Whether the push was accepted.
    public var isAccepted: Bool { status == 200 }
}
