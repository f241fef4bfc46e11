import APNSMockCore
import Prometheus

/// One connection's answer counters (`apns_mock_requests_total`), kept by label set so that
/// counting an answer compares a few integers instead of hashing label strings in the registry:
/// a connection sees few label sets (its pushes' statuses, reasons and push types), and the one
/// used last is tried first.
///
/// Not thread-safe: one per connection, on its event loop.
public struct RequestCounters {
    private struct Entry {
        var status: Int
        var pushType: UInt8
        var kind: UInt8
        var reason: APNSReason?
        var counter: Counter

        @inline(__always)
        func matches(_ status: Int, _ pushType: UInt8, _ kind: UInt8, _ reason: APNSReason?) -> Bool {
            self.status == status && self.pushType == pushType && self.kind == kind && self.reason == reason
        }
    }

    /// Label sets kept at most; beyond them each answer asks the registry.
    static let limit = 32

    private let metrics: MockMetrics
    private var entries: [Entry] = []
    private var last = 0

    public init(metrics: MockMetrics) {
        self.metrics = metrics
    }

    /// Counts one answer.
    @inline(__always)
    public mutating func count(status: Int, reason: APNSReason?, pushType: APNSPushType?, kind: RecordKind) {
        let typeCode = pushType?.code ?? UInt8.max
        let kindCode = kind.code
        if last < entries.count, entries[last].matches(status, typeCode, kindCode, reason) {
            entries[last].counter.increment()
            return
        }
        countSlowly(status: status, reason: reason, pushType: pushType, typeCode: typeCode, kind: kind)
    }

    @inline(never)
    private mutating func countSlowly(
        status: Int, reason: APNSReason?, pushType: APNSPushType?, typeCode: UInt8, kind: RecordKind
    ) {
        if let index = entries.firstIndex(where: { $0.matches(status, typeCode, kind.code, reason) }) {
            last = index
            entries[index].counter.increment()
            return
        }
        let counter = metrics.requestCounter(status: status, reason: reason, pushType: pushType, kind: kind)
        counter.increment()
        guard entries.count < Self.limit else { return }
        entries.append(Entry(status: status, pushType: typeCode, kind: kind.code, reason: reason, counter: counter))
        last = entries.count - 1
    }
}
