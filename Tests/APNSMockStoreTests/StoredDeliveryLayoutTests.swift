import Testing

@testable import APNSMockStore

/// The columns every record pays for: a change here moves the memory of a full store (a
/// million records) by a million times the difference (docs/BENCHMARKS.md).
@Suite struct StoredDeliveryLayoutTests {
    @Test func aRecordsColumnsTake88Bytes() {
        #expect(MemoryLayout<StoredDelivery>.stride == 88)
    }
}
