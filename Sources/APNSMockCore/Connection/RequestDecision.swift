/// How one request is answered: the answer, and how and when it goes out. The rules' verdict
/// makes it, the fault policy may change it, the connection's state machine carries it out.
public struct RequestDecision: Sendable, Equatable {
    public var streamID: Int32
    public var answer: APNSAnswer
    /// Wait this long before `fate` (a fault rule's `delay`); `nil`: at once.
    public var delayMilliseconds: Int64?
    public var fate: Fate
    /// Announce this MAX_CONCURRENT_STREAMS (a fault rule's `setMaxConcurrentStreams`); it
    /// stays until another rule changes it.
    public var maxConcurrentStreams: UInt32?
    /// A behavior lowers or restores the connection's stream limit.
    public var streamLimit: StreamLimitChange?
    /// A behavior refuses every other open stream (RST_STREAM REFUSED_STREAM).
    public var refuseOpenStreams: Bool
    /// The fault rule that acted, if one did.
    public var faultID: String?
    /// Why a mode, a behavior, the throttle or a fault rule changed the answer, in words; `nil`
    /// when none did (the rules' own reasons are the verdict's `detail`).
    public var detail: String?
    /// What the answer is counted by when it goes out.
    public var labels: AnswerLabels
    /// The request, when a success to it has an effect (`APNSVerdict.successMayHaveEffect`):
    /// the effect runs before the success is answered.
    public var held: HeldRequest?

    public init(
        streamID: Int32, answer: APNSAnswer, delayMilliseconds: Int64? = nil, fate: Fate = .answer,
        maxConcurrentStreams: UInt32? = nil, streamLimit: StreamLimitChange? = nil, refuseOpenStreams: Bool = false,
        faultID: String? = nil, labels: AnswerLabels = AnswerLabels()
    ) {
        self.streamID = streamID
        self.answer = answer
        self.delayMilliseconds = delayMilliseconds
        self.fate = fate
        self.maxConcurrentStreams = maxConcurrentStreams
        self.streamLimit = streamLimit
        self.refuseOpenStreams = refuseOpenStreams
        self.faultID = faultID
        self.labels = labels
    }

    /// A behavior's change of MAX_CONCURRENT_STREAMS.
    public enum StreamLimitChange: Sendable, Equatable {
        case limit(UInt32)
        /// Back to the limit that applies without the behavior.
        case restore
    }

    /// What finally happens to the stream.
    public enum Fate: Sendable, Equatable {
        /// Send `answer`.
        case answer
        /// Never answer.
        case hang
        /// RST_STREAM with this HTTP/2 error code.
        case reset(errorCode: UInt32)
        /// GOAWAY with this code, last stream id (`nil`: the last processed stream; never
        /// below a stream already answered) and debug data; the stream is answered if the GOAWAY
        /// covers it, before or after the GOAWAY as `order` says, else refused. A code other than
        /// NO_ERROR ends the connection once sent.
        case goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8], order: GoAwayOrder = .default)
        /// GOAWAY NO_ERROR, the answer's body as debug data, and close: how APNs answers a
        /// certificate of the other environment. The stream gets no HTTP status.
        case goAwayInsteadOfAnswer
        /// Drop the TCP connection, after sending the answer when `respondFirst`.
        case close(respondFirst: Bool)
    }
}
