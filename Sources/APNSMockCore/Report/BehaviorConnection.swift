/// What the provider-behaviour report needs of one APNs connection, from the connection log:
/// when it opened and closed, the stream limits the server announced, the streams it refused.
public struct BehaviorConnection: Sendable, Hashable {
    public var id: UInt64
    /// Epoch milliseconds.
    public var openedAt: Int64
    /// Epoch milliseconds; `nil` while open.
    public var closedAt: Int64?
    /// The largest MAX_CONCURRENT_STREAMS the server announced on it, if it announced one.
    public var maxConcurrentStreams: Int?
    /// RST_STREAM REFUSED_STREAM frames the server sent on it.
    public var refusedStreams: Int

    public init(
        id: UInt64, openedAt: Int64, closedAt: Int64? = nil, maxConcurrentStreams: Int? = nil, refusedStreams: Int = 0
    ) {
        self.id = id
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.maxConcurrentStreams = maxConcurrentStreams
        self.refusedStreams = refusedStreams
    }
}
