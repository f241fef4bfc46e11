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
    /// The push type the request is judged as (`alert` when the header is missing, `voip`
    /// for a missing header with a `.voip` topic), when known.
    public var pushType: APNSPushType?

    public init(
        status: Int, reason: APNSReason?, failedCheck: RequestCheck? = nil, deviceToken: String? = nil,
        pushType: APNSPushType? = nil
    ) {
        self.status = status
        self.reason = reason
        self.failedCheck = failedCheck
        self.deviceToken = deviceToken
        self.pushType = pushType
    }

    /// Whether the push was accepted.
    public var isAccepted: Bool { status == 200 }
}
