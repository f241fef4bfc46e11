/// What the fault policy reads for one request besides the request itself: the server-wide
/// controls as they are now, and what a rule's matcher needs from the connection.
public struct FaultInputs {
    /// The modes, behaviors, throttle limit and rules.
    public var snapshot: FaultSnapshot
    /// The connection the request came on (a rule's `connection` condition).
    public var connectionID: UInt64
    /// The connection's analysis cache, for `lint` and `preview` conditions.
    public var analysisCache: LiveRequestFacts.AnalysisCache

    public init(
        snapshot: FaultSnapshot, connectionID: UInt64 = 0, analysisCache: LiveRequestFacts.AnalysisCache = .init()
    ) {
        self.snapshot = snapshot
        self.connectionID = connectionID
        self.analysisCache = analysisCache
    }
}
