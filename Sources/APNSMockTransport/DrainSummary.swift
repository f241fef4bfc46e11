/// What a graceful shutdown (SIGTERM) drained, for its log line.
public struct DrainSummary: Sendable, Hashable {
    /// APNs connections open when the shutdown began: each got GOAWAY and was closed.
    public var connections: Int
    /// Of those, the ones still open when the grace ran out, closed then.
    public var closedAtGraceEnd = 0
    /// Streams answered after the shutdown began (requests GOAWAY covered, finished in the grace).
    public var streamsAnswered = 0

    public init(connections: Int, closedAtGraceEnd: Int = 0, streamsAnswered: Int = 0) {
        self.connections = connections
        self.closedAtGraceEnd = closedAtGraceEnd
        self.streamsAnswered = streamsAnswered
    }
}
