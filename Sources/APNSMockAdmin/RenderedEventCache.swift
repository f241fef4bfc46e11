import APNSMockCore
import APNSMockStore
import NIOConcurrencyHelpers

/// The `delivery` events of `GET /v1/events`, rendered once for every reader: the JSON of a
/// record, as it is at one moment (its outcome and answer time), is written the first time a
/// reader needs it and then copied for every other reader (the dashboard, a test's stream, a
/// CLI) instead of rendered again. Recent records only (a ring by sequence number); a record
/// whose answer came later is rendered anew, once.
final class RenderedEventCache: Sendable {
    private struct Entry {
        var sequence: UInt64
        /// The record's state when rendered: its outcome, the time of its answer, and whether it
        /// was handed out with its payload's analysis.
        var outcome: DeliveryOutcome
        var respondedAt: Int64?
        var analysed: Bool
        /// `event: delivery\ndata: {…}\n\n`.
        var bytes: [UInt8]
    }

    private let slots: NIOLockedValueBox<[Entry?]>
    private let rendered = NIOLockedValueBox<Int>(0)

    /// A cache of the `capacity` most recent records' events.
    init(capacity: Int = 8192) {
        slots = NIOLockedValueBox([Entry?](repeating: nil, count: max(1, capacity)))
    }

    /// How many events were rendered (not copied) so far (tests, the benchmark).
    var renderCount: Int { rendered.withLockedValue { $0 } }

    /// `event: delivery\ndata: <the record's JSON>\n\n`, rendered or copied.
    func event(for record: DeliveryRecord, tokens: inout DeliveryRecordJSON.TokenCache) -> [UInt8] {
        let respondedAt = record.response?.respondedAt
        let cached = slots.withLockedValue { slots -> [UInt8]? in
            guard let entry = slots[Int(record.sequence % UInt64(slots.count))], entry.sequence == record.sequence,
                entry.outcome == record.outcome, entry.respondedAt == respondedAt,
                entry.analysed == (record.analysis != nil)
            else { return nil }
            return entry.bytes
        }
        if let cached { return cached }
        var writer = JSONWriter(capacity: 1024)
        DeliveryRecordJSON.write(record, to: &writer, tokens: &tokens)
        let bytes = Array("event: delivery\ndata: ".utf8) + writer.bytes + Array("\n\n".utf8)
        rendered.withLockedValue { $0 += 1 }
        slots.withLockedValue { slots in
            slots[Int(record.sequence % UInt64(slots.count))] = Entry(
                sequence: record.sequence, outcome: record.outcome, respondedAt: respondedAt,
                analysed: record.analysis != nil, bytes: bytes)
        }
        return bytes
    }
}
