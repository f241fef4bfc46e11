/// How many streams a client may reset (RST_STREAM) before the connection counts it as rapid
/// reset: a token bucket, `burst` tokens at first, `perSecond` more each second, one per reset.
/// The defaults are libnghttp2's own (1.57, and Debian's 1.52 with the CVE-2023-44487 fix),
/// which answers with GOAWAY INTERNAL_ERROR; the connection applies this one first and answers
/// ENHANCE_YOUR_CALM, the code RFC 9113 names for excessive load.
public struct StreamResetLimit: Sendable, Equatable {
    public let burst: Double
    public let perSecond: Double
    private var tokens: Double
    private var lastRefill: UInt64?

    public init(burst: Int = 1000, perSecond: Int = 33) {
        self.burst = Double(burst)
        self.perSecond = Double(perSecond)
        tokens = Double(burst)
    }

    /// Takes a token for a reset at `nanoseconds` (a monotonic clock); `false` when none is left.
    public mutating func allowReset(at nanoseconds: UInt64) -> Bool {
        if let lastRefill, nanoseconds > lastRefill {
            tokens = min(burst, tokens + Double(nanoseconds - lastRefill) / 1e9 * perSecond)
        }
        lastRefill = nanoseconds
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
