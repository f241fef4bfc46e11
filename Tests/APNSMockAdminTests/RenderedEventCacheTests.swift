import APNSMockCore
import APNSMockStore
import Testing

@testable import APNSMockAdmin

/// `GET /v1/events` renders each record's event once for all readers (issue 31, item 8), and
/// again only when the record changed (its answer came later).
@Suite struct RenderedEventCacheTests {
    static func record(sequence: UInt64, answered: Bool) -> DeliveryRecord {
        var record = ExpectationVerifierTests.record(status: 200)
        record.sequence = sequence
        if !answered {
            record.response = nil
            record.outcome = .pending
        }
        return record
    }

    @Test func readersShareOneRenderingPerRecordState() {
        let cache = RenderedEventCache()
        let records = (1...5).map { Self.record(sequence: $0, answered: false) }
        let first = AdminRouter.events(records, identified: true, cache: cache)
        let second = AdminRouter.events(records, identified: true, cache: cache)
        #expect(first == second)
        #expect(first == AdminRouter.events(records, identified: true), "the same bytes as rendered alone")
        #expect(cache.renderCount == 5, "five records, five renderings, for two readers")
        // Record 3 got its answer: rendered once more, in its new state, for both readers.
        let answered = Self.record(sequence: 3, answered: true)
        let completion = AdminRouter.events([answered], identified: false, cache: cache)
        #expect(AdminRouter.events([answered], identified: false, cache: cache) == completion)
        #expect(cache.renderCount == 6)
        #expect(String(decoding: completion, as: UTF8.self).contains(#""status":200"#))
        #expect(!String(decoding: completion, as: UTF8.self).hasPrefix("id:"), "a completion has no id")
    }

    @Test func aRecordLeavingTheRingIsRenderedAgain() {
        let cache = RenderedEventCache(capacity: 2)
        let records = (1...3).map { Self.record(sequence: $0, answered: true) }
        _ = AdminRouter.events(records, identified: true, cache: cache)
        _ = AdminRouter.events([records[0]], identified: true, cache: cache)
        #expect(cache.renderCount == 4, "record 1's slot was taken by record 3")
    }
}
