import APNSMockCore
import Testing

/// Epoch milliseconds as ISO 8601 UTC, as `explain` and the MCP tools print them (values checked
/// against Python's datetime).
@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_795_786_201_108, "2026-11-27T13:30:01Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
        (4_102_444_799_999, "2099-12-31T23:59:59Z"),
        (-1, "1969-12-31T23:59:59Z"),
    ])
    func formatsEpochMilliseconds(_ milliseconds: Int64, _ text: String) {
        #expect(UTCTimestamp.iso8601(milliseconds: milliseconds) == text)
    }
}
