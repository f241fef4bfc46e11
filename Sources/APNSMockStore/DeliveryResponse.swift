import APNSMockCore

/// What a recorded request was answered, once it was.
public struct DeliveryResponse: Sendable, Hashable {
    /// HTTP status (200 when accepted); `nil` when the answer was only a GOAWAY (its reason
    /// went out as the GOAWAY's debug data, no status did).
    public var status: Int?
    /// The reason of a rejection.
    public var reason: APNSReason?
    /// The `timestamp` of a 410 body: when the token stopped being valid, epoch milliseconds.
    public var timestamp: Int64?
    /// When the answer was sent, epoch milliseconds.
    public var respondedAt: Int64
    /// The answer was a GOAWAY (BadCertificateEnvironment), not a response on the stream.
    public var goAway: Bool

    public init(status: Int?, reason: APNSReason?, timestamp: Int64? = nil, respondedAt: Int64, goAway: Bool = false) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.respondedAt = respondedAt
        self.goAway = goAway
    }
}
