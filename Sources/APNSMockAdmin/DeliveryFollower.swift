import APNSMockCore
import APNSMockStore

/// Follows the store from a sequence number on, collecting what a query matches: each call
/// examines only the records stored since the last one. Waits and event streams use it.
struct DeliveryFollower {
    let store: DeliveryStore
    let query: DeliveryQuery
    /// The last sequence number examined.
    private(set) var cursor: UInt64
    private var dropped: UInt64

    init(store: DeliveryStore, query: DeliveryQuery, after cursor: UInt64) {
        self.store = store
        self.query = query
        self.cursor = cursor
        self.dropped = store.dropped
    }

    /// The matching records stored since the last call (at most `limit`), and how many records
    /// aged out of the store before they could be examined.
    mutating func advance(limit: Int = 10_000) -> (records: [DeliveryRecord], missed: UInt64) {
        var missed: UInt64 = 0
        let droppedNow = store.dropped
        if droppedNow != dropped {
            dropped = droppedNow
            let first = store.firstSequence
            if cursor < first, first - cursor > 1 { missed = first - cursor - 1 }
        }
        let end = min(store.nextSequence, query.before ?? UInt64.max)
        var records: [DeliveryRecord] = []
        // The next record examined is cursor + 1; written without `+` so that a cursor of
        // UInt64.max (`since=18446744073709551615`) does not overflow.
        while cursor < end, end - cursor > 1, records.count < limit {
            let page = store.query(
                DeliveryQuery(
                    matcher: query.matcher, since: cursor, before: end, limit: min(1000, limit - records.count)))
            records += page.deliveries
            guard let next = page.next else {
                cursor = end - 1
                break
            }
            cursor = next
        }
        return (records, missed)
    }
}
