/// What the rules decided for one request, plus the facts they read on the way: a device push
/// (`RequestRules`), a broadcast (`BroadcastRules`) or a channel-management request
/// (`ChannelRules`). A verdict never changes state itself: for an accepted channel request it
/// says what to do (`channelOperation` with `channelID`, `storagePolicy`, `sentPushType`), and
/// the caller applies it to its channel directory.
public struct APNSVerdict: Sendable, Equatable {
    /// HTTP status: 200 when accepted (201 for a channel create, 204 for a channel delete).
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
    /// The token the path named, well-formed (`deviceToken`) or not (`rawDeviceToken`): what a
    /// record keeps and a matcher's `token` compares.
    public var namedToken: String? { deviceToken ?? rawDeviceToken }
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
    /// What the request is: a device push, a broadcast or a channel-management request.
    public var kind: RecordKind
    /// Why the request was rejected, in words (the mock's explanation beside Apple's reason,
    /// which the wire answer never changes): the claim and the clock, the header value and the
    /// rule it broke, the size and the limit. `nil` when accepted.
    public var detail: String?
    /// What a broadcast or channel-management request carried and the rules found (`nil` for a
    /// device push): one reference, so that a device push's verdict stays as small as before.
    private var channelFacts: ChannelRequestFacts?
    /// A web push's verdict from `WebPushRequestRules` (subscription, VAPID claims, headers,
    /// decryption), behind one reference; `nil` for every other kind.
    private var webPushFacts: WebPushFacts?

    /// A web push (`kind == .webPush`): what the Web Push rules decided and found.
    public var webPush: WebPushVerdict? { webPushFacts?.verdict }
    /// A web push's decrypted body, which its record keeps as `payload`; `nil` for other kinds
    /// and for a body that did not decrypt.
    public var webPushPlaintext: [UInt8]? { webPushFacts?.verdict.plaintext }
    /// A web push's record facts (`WebPushVerdict.recordJSON`); `nil` for other kinds.
    public var webPushRecord: [UInt8]? { webPushFacts?.recordJSON }

    /// Channel management: the operation the method and path ask for (`nil` when they name
    /// none); on acceptance, what the caller applies.
    public var channelOperation: ChannelOperation? { channelFacts?.operation }
    /// Broadcast, channel read and delete: `apns-channel-id` as sent (first one), valid or not.
    public var channelID: String? { channelFacts?.channelID }
    /// Channel create: the policy the body asks for. Broadcast, channel read and delete: the
    /// registered channel's policy.
    public var storagePolicy: MessageStoragePolicy? { channelFacts?.storagePolicy }
    /// Broadcast: `apns-push-type` as sent (any letter case). Channel create: the body's
    /// `push-type` as sent. The push type APNs judged it as is `pushType`.
    public var sentPushType: String? { channelFacts?.sentPushType }
    /// Broadcast and channel management: `apns-request-id` as sent, to echo.
    public var requestID: String? { channelFacts?.requestID }
    /// Broadcast, channel read and delete: the registered channel as the rules found it (its
    /// configuration for a read, its subscribers for a broadcast's deliveries).
    public var channel: BroadcastChannel? { channelFacts?.channel }

    public init(
        status: Int, reason: APNSReason?, failedCheck: RequestCheck? = nil, deviceToken: String? = nil,
        pushType: APNSPushType? = nil, topic: String? = nil, timestamp: Int64? = nil,
        authentication: AuthenticationResult? = nil, nextAuthState: ConnectionAuthState? = nil,
        newToken: NewProviderToken? = nil, goAway: Bool = false, sentMessageID: String? = nil,
        rawDeviceToken: String? = nil, kind: RecordKind = .push, channelOperation: ChannelOperation? = nil,
        channelID: String? = nil, storagePolicy: MessageStoragePolicy? = nil, sentPushType: String? = nil,
        requestID: String? = nil, channel: BroadcastChannel? = nil, detail: String? = nil
    ) {
        self.kind = kind
        self.detail = detail
        if kind != .push {
            channelFacts = ChannelRequestFacts(
                operation: channelOperation, channelID: channelID, storagePolicy: storagePolicy,
                sentPushType: sentPushType, requestID: requestID, channel: channel)
        }
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

    /// Whether the request was accepted: 200, or 201 for a channel create and 204 for a channel
    /// delete ("Sending channel management requests to APNs").
    public var isAccepted: Bool { (200...299).contains(status) }

    /// Whether a success to this request has an effect beyond the wire (cheap: asked for every
    /// request): a channel request, a broadcast, a Live Activity push the rules accepted (a
    /// push-to-start may subscribe its activity to a channel).
    public var successMayHaveEffect: Bool {
        guard isAccepted else { return false }
        switch kind {
        case .channel, .broadcast: return true
        case .push: return pushType == .liveactivity
        case .webPush: return false
        }
    }

    /// The verdict of a web push: its status, reason and detail as `WebPushRequestRules` gave
    /// them, with the rest of what they found kept in `webPush`.
    public init(webPush verdict: WebPushVerdict) {
        // The subscription's id is what a record names, as a device push's names its token.
        self.init(
            status: verdict.status, reason: verdict.reason, rawDeviceToken: verdict.subscriptionID, kind: .webPush,
            detail: verdict.detail)
        webPushFacts = WebPushFacts(verdict)
    }
}
