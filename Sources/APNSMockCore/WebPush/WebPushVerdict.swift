/// What the Web Push listener answers to a push, and the facts its record needs.
///
/// The facts are filled as far as the checks got: a push refused for its `TTL` still names its
/// subscription and VAPID credential; one refused at the path names nothing.
public struct WebPushVerdict: Sendable, Equatable {
    /// The HTTP status: 201 when accepted.
    public var status: Int
    /// Apple's reason, the `reason` of the JSON body; `nil` when accepted.
    public var reason: APNSReason?
    /// The check that refused the push; `nil` when accepted.
    public var failedCheck: WebPushCheck?
    /// One sentence saying what is wrong, for the record; `nil` when accepted.
    public var detail: String?
    /// The subscription id the path names, when it names one (known or not).
    public var subscriptionID: String?
    /// The subscription, when the path names one the lookup knows (deleted and expired ones too).
    public var subscription: WebPushSubscription?
    /// The verified VAPID credential: `sub`, `aud`, `exp` and the key.
    public var vapid: VAPIDClaims?
    /// `TTL` in seconds, when it is a valid one.
    public var ttl: Int64?
    /// `Urgency`, when the header is there and valid; a push without one is `normal`.
    public var urgency: WebPushUrgency?
    /// `Topic`, when the header is there and valid.
    public var topic: String?
    /// `Content-Encoding` as sent, when there is one.
    public var contentEncoding: String?
    /// The body's size on the wire, in bytes (encrypted, header included).
    public var bodyLength = 0
    /// The body decrypted with the subscription's keys, or why it could not be; `nil` when the
    /// push was refused before decryption or has no body.
    public var decryption: Result<[UInt8], WebPushDecryptionProblem>?

    /// Whether the push was accepted (201).
    public var isAccepted: Bool { reason == nil }

    /// An accepted verdict with no facts yet.
    public init() {
        self.status = WebPushRequestRules.successStatus
    }

    /// The plaintext, when the body decrypted.
    public var plaintext: [UInt8]? {
        guard case .success(let plaintext)? = decryption else { return nil }
        return plaintext
    }

    /// Why the body did not decrypt, when it did not.
    public var decryptionProblem: WebPushDecryptionProblem? {
        guard case .failure(let problem)? = decryption else { return nil }
        return problem
    }
}
