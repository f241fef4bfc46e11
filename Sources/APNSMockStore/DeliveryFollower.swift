import APNSMockCore

/// Follows the store from a sequence number on, collecting what a query matches: each call
/// examines only the records stored since the last one. Waits and event streams use it.
///
/// One follower serves one waiter, which awaits each `advance` before the next; it may hand the
/// follower to another thread for the call (the admin API scans on its own threads), never to
/// two at once.
public final class DeliveryFollower: @unchecked Sendable {
    // Unchecked: see above; the cursor is only touched by the one call in progress.
    public let store: DeliveryStore
    public let query: DeliveryQuery
    /// The last sequence number examined.
    public private(set) var cursor: UInt64
    private var dropped: UInt64

    /// Follows `query` over the records stored after sequence number `cursor`.
    public init(store: DeliveryStore, query: DeliveryQuery, after cursor: UInt64) {
        self.store = store
        self.query = query
        self.cursor = cursor
        self.dropped = store.dropped
    }

    /// The matching records stored since the last call (at most `limit`), and how many records
    /// aged out of the store before they could be examined.
    public func advance(limit: Int = 10_000) -> (records: [DeliveryRecord], missed: UInt64) {
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
