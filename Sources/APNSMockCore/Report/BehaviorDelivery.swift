/// What the provider-behaviour report needs of one recorded request: a plain summary of a
/// record (the store builds it; table tests write it by hand).
public struct BehaviorDelivery: Sendable, Hashable {
    /// The record's sequence number (the order requests arrived in).
    public var sequence: UInt64
    /// The `apns-id` of the answer (the client's, or the one the mock generated).
    public var apnsID: String
    /// The mock generated `apnsID` (the client sent none), so it says nothing about retries.
    public var apnsIDGenerated: Bool
    /// When the request's headers arrived, epoch milliseconds.
    public var receivedAt: Int64
    /// When it was answered, epoch milliseconds; `nil` while unanswered.
    public var respondedAt: Int64?
    public var connectionID: UInt64
    public var identity: ProviderIdentity
    /// The provider token's `iat` (UNIX seconds), for token authentication.
    public var tokenIssuedAt: Int64?
    /// The device token (lower-case hex); `nil` for a broadcast.
    public var deviceToken: String?
    /// `BehaviorDelivery.fingerprint(of:)` of the payload bytes.
    public var payloadFingerprint: UInt64
    public var topic: String?
    /// `apns-push-type` as sent; `nil` when the header was missing.
    public var pushTypeHeader: String?
    /// `apns-priority` as sent.
    public var priorityHeader: String?
    /// `apns-expiration` as sent.
    public var expirationHeader: String?
    /// `apns-collapse-id` as sent.
    public var collapseIDHeader: String?
    /// The answer's status (`nil`: unanswered, or only a GOAWAY).
    public var status: Int?
    public var reason: String?
    /// The payload's lint findings, one code each.
    public var lint: [LintCode]
    /// A broadcast push (to a channel), not to a device.
    public var isBroadcast: Bool
    /// What became of an accepted push after its 200 (the record's `delivery`); `nil` for
    /// others.
    public var delivery: DeviceDelivery?
    /// What a web push's report findings need; `nil` for a request on the APNs ports.
    public var webPush: WebPush?

    /// A web push's facts for the report.
    public struct WebPush: Sendable, Hashable {
        /// `TTL` as sent (seconds), when valid.
        public var ttl: Int64?
        /// Why an accepted body did not decrypt (a `WebPushDecryptionProblem` code); `nil` when it
        /// did, or when there was none.
        public var decryptionProblem: String?
        /// The `exp` of its VAPID JWT (UNIX seconds), read from the token as sent.
        public var vapidExpiresAt: Int64?

        public init(ttl: Int64? = nil, decryptionProblem: String? = nil, vapidExpiresAt: Int64? = nil) {
            self.ttl = ttl
            self.decryptionProblem = decryptionProblem
            self.vapidExpiresAt = vapidExpiresAt
        }
    }

    public init(
        sequence: UInt64, apnsID: String, apnsIDGenerated: Bool = false, receivedAt: Int64, respondedAt: Int64? = nil,
        connectionID: UInt64, identity: ProviderIdentity, tokenIssuedAt: Int64? = nil, deviceToken: String? = nil,
        payloadFingerprint: UInt64 = 0, topic: String? = nil, pushTypeHeader: String? = nil,
        priorityHeader: String? = nil, expirationHeader: String? = nil, collapseIDHeader: String? = nil,
        status: Int? = nil, reason: String? = nil, lint: [LintCode] = [], isBroadcast: Bool = false,
        delivery: DeviceDelivery? = nil, webPush: WebPush? = nil
    ) {
        self.webPush = webPush
        self.sequence = sequence
        self.apnsID = apnsID
        self.apnsIDGenerated = apnsIDGenerated
        self.receivedAt = receivedAt
        self.respondedAt = respondedAt
        self.connectionID = connectionID
        self.identity = identity
        self.tokenIssuedAt = tokenIssuedAt
        self.deviceToken = deviceToken
        self.payloadFingerprint = payloadFingerprint
        self.topic = topic
        self.pushTypeHeader = pushTypeHeader
        self.priorityHeader = priorityHeader
        self.expirationHeader = expirationHeader
        self.collapseIDHeader = collapseIDHeader
        self.status = status
        self.reason = reason
        self.lint = lint
        self.isBroadcast = isBroadcast
        self.delivery = delivery
    }

    /// A 64-bit FNV-1a hash of `bytes`: equal payloads have equal fingerprints, in every
    /// process (unlike `Hasher`).
    public static func fingerprint<Bytes: Sequence<UInt8>>(of bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The headers that decide APNs's answer besides credentials: a re-send with the same
    /// ones is unchanged.
    var answerHeaders: [String?] { [topic, pushTypeHeader, priorityHeader, expirationHeader, collapseIDHeader] }
}
