import APNSMockCore
import APNSMockStore

/// What the request processor decided for one request: the answer it would send, and how and
/// when it goes out. The connection's state machine turns it into actions.
struct RequestDecision {
    var streamID: Int32
    /// The record's sequence number in the store.
    var sequence: UInt64
    var answer: PreparedAnswer
    /// Wait this long before `final` (a fault rule's `delay`); `nil`: at once.
    var delayMilliseconds: Int64?
    var final: Final
    /// Announce this MAX_CONCURRENT_STREAMS (a fault rule's `setMaxConcurrentStreams`); it
    /// stays until another rule changes it.
    var maxConcurrentStreams: UInt32?
    /// This push was the first to pass token authentication on the connection.
    var firstAuthenticatedPush: Bool
    /// A behavior lowers or restores the connection's stream limit.
    var streamLimit: StreamLimitChange? = nil
    /// A behavior refuses every other open stream (RST_STREAM REFUSED_STREAM).
    var refuseOpenStreams = false

    /// A behavior's change of MAX_CONCURRENT_STREAMS.
    enum StreamLimitChange: Equatable {
        case limit(UInt32)
        /// Back to the limit that applies without the behavior.
        case restore
    }

    /// What finally happens to the stream.
    enum Final: Equatable {
        /// Send `answer`.
        case answer
        /// Never answer.
        case hang
        /// RST_STREAM with this HTTP/2 error code.
        case reset(errorCode: UInt32)
        /// GOAWAY with this code, last stream id (`nil`: the last processed stream) and debug
        /// data, then answer the stream if the GOAWAY covers it. A code other than NO_ERROR
        /// ends the connection once sent.
        case goAway(errorCode: UInt32, lastStreamID: Int32?, debugData: [UInt8])
        /// GOAWAY NO_ERROR, last stream 0, the answer's body as debug data, and close: how
        /// APNs answers a certificate of the other environment.
        case goAwayInsteadOfAnswer
        /// Drop the TCP connection, after sending the answer when `respondFirst`.
        case close(respondFirst: Bool)
    }
}

/// An answer ready to be sent: everything the HTTP/2 response needs, and what the record says
/// once it has gone out.
struct PreparedAnswer {
    var status: Int
    var reason: APNSReason?
    var timestamp: Int64?
    /// The `apns-id` header.
    var apnsID: ResponseMessageID
    /// The `apns-unique-id` header (sandbox 200s).
    var uniqueID: ResponseMessageID?
    /// The JSON error body; `nil` for a 200.
    var body: [UInt8]?
    /// DATA frames the body is split over (at least 1).
    var dataFrames: Int = 1

    /// The record's response once this answer went out at `respondedAt`.
    func response(respondedAt: Int64, goAway: Bool = false) -> DeliveryResponse {
        DeliveryResponse(
            status: status, reason: reason, timestamp: timestamp, respondedAt: respondedAt, goAway: goAway)
    }
}
