import APNSMockCore
import Testing

/// The rapid-reset limit (issue 22): a token bucket of client resets, libnghttp2's defaults.
@Suite struct StreamResetLimitTests {
    @Test func aBurstIsAllowedThenTheRateRefills() {
        var limit = StreamResetLimit(burst: 3, perSecond: 2)
        let nanoseconds: [UInt64] =
            [0, 0, 0, 0, 400_000_000, 600_000_000, 600_000_000] + Array(repeating: 100_000_000_000, count: 4)
        let allowed = nanoseconds.map { limit.allowReset(at: $0) }
        // The burst of 3; then 0.8 of a token after 0.4 s; one after 0.5 s at 2 per second; none
        // left; refilled after 100 s, but never past the burst.
        #expect(allowed == [true, true, true, false, false, true, false, true, true, true, false])
    }

    @Test func theDefaultsAreLibnghttp2s() {
        let limit = StreamResetLimit()
        #expect(limit.burst == 1000)
        #expect(limit.perSecond == 33)
    }
}
