/// What an answer is counted by when it goes out (`apns_mock_requests_total`, the latency
/// histogram): its request's kind and push type, and when the request was ready (monotonic
/// nanoseconds; carried, never read by Core). It travels with the answer, so an answer sent
/// after a delay is counted as the one sent at once.
public struct AnswerLabels: Sendable, Equatable {
    public var kind: RecordKind
    public var pushType: APNSPushType?
    /// When the request was whole (monotonic nanoseconds); `nil`: not known (no latency counted).
    public var readyAt: UInt64?

    public init(kind: RecordKind = .push, pushType: APNSPushType? = nil, readyAt: UInt64? = nil) {
        self.kind = kind
        self.pushType = pushType
        self.readyAt = readyAt
    }
}
