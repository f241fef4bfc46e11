import APNSMockCore

/// Follows the store from a sequence number on, collecting what a query matches: each call
/// examines only the records stored since the last one, and the answers that changed since.
/// Waits, event streams and the expectation verifier use it.
///
/// A record whose stream was still open when the follower first saw it (a delayed answer, a hung
/// stream) is watched: when its answer is decided, the follower judges it again and hands out
/// its completed form if the query matches it then. So a filter on the answer (`status=200`)
/// finds a delayed push once it is answered, and an unfiltered reader sees it twice: pending,
/// then answered. A push a device holds (`delivery.state` `stored`) is watched likewise: a
/// filter on `delivery=delivered` finds it when the device gets it.
///
/// One follower serves one waiter, which awaits each `advance` before the next; it may hand the
/// follower to another thread for the call (the admin API scans on its own threads), never to
/// two at once.
public final class DeliveryFollower: @unchecked Sendable {
    // Unchecked: see above; the cursor and the watch list are only touched by the one call in
    // progress.
    public let store: DeliveryStore
    public let query: DeliveryQuery
    /// The last sequence number examined.
    public private(set) var cursor: UInt64
    private var dropped: UInt64
    /// Records at or below `cursor` seen while their stream was open or their push held, with
    /// what was last handed out (`nil`: not handed out, the query did not match it then).
    private var watched: [UInt64: Mark?] = [:]

    /// What a watched record was when handed out: its answer's outcome and its delivery.
    private struct Mark: Equatable {
        var outcome: DeliveryOutcome
        var delivery: DeviceDelivery?

        init(_ record: DeliveryRecord) {
            outcome = record.outcome
            delivery = record.delivery
        }

        /// Whether the record may still change: its stream is open or its push held.
        var isOpen: Bool { outcome.isOpen || delivery?.state == .stored }
    }
    /// `store.completionCount` when the watched records were last looked at.
    private var completions: UInt64
    /// Analyses the records for `lint` and `preview` conditions and hands them out analysed;
    /// `nil`: records as stored (those conditions match nothing).
    public let analyses: PayloadAnalyses?

    /// What one `advance` found.
    public struct Step: Sendable {
        /// Matching records stored since the last call, oldest first.
        public var new: [DeliveryRecord]
        /// Records examined before whose answer has been decided (or changed) since, and which
        /// the query matches now: their current form, oldest first.
        public var completed: [DeliveryRecord]
        /// Records that aged out of the store before they could be examined.
        public var missed: UInt64
    }

    /// Follows `query` over the records stored after sequence number `cursor`.
    public init(store: DeliveryStore, query: DeliveryQuery, after cursor: UInt64, analyses: PayloadAnalyses? = nil) {
        self.analyses = analyses
        self.store = store
        self.query = query
        self.cursor = cursor
        self.dropped = store.dropped
        self.completions = store.completionCount
    }

    /// The number of records watched for their answer.
    public var watchedCount: Int { watched.count }

    /// The matching records stored since the last call (at most `limit`), the watched records
    /// completed since, and how many records aged out before they could be examined.
    public func advance(limit: Int = 10_000) -> Step {
        var missed: UInt64 = 0
        let droppedNow = store.dropped
        if droppedNow != dropped {
            dropped = droppedNow
            let first = store.firstSequence
            if cursor < first, first - cursor > 1 { missed = first - cursor - 1 }
        }
        let completionsNow = store.completionCount
        var completed: [DeliveryRecord] = []
        if completionsNow != completions {
            completions = completionsNow
            if !watched.isEmpty { completed = recheckWatched() }
        }
        let end = min(store.nextSequence, query.before ?? UInt64.max)
        var records: [DeliveryRecord] = []
        // The next record examined is cursor + 1; written without `+` so that a cursor of
        // UInt64.max (`since=18446744073709551615`) does not overflow.
        while cursor < end, end - cursor > 1, records.count < limit {
            // Open streams are noted before the query reads them: one that completes in between
            // is then either read completed or looked at again, never lost.
            for sequence in store.unsettledSequences(in: (cursor + 1)..<end) where watched[sequence] == nil {
                watched[sequence] = .some(nil)
            }
            var page = store.query(
                DeliveryQuery(
                    matcher: query.matcher, since: cursor, before: end, limit: min(1000, limit - records.count)),
                analyses: analyses)
            for record in page.deliveries { note(handedOut: record) }
            analyses?.analyze(&page.deliveries)
            records += page.deliveries
            guard let next = page.next else {
                cursor = end - 1
                break
            }
            cursor = next
        }
        return Step(new: records, completed: completed, missed: missed)
    }

    /// How many records were stored after the cursor (matching the query or not): how far
    /// behind the follower is. Records age out of the store when this passes its capacity.
    public var backlog: UInt64 {
        let end = min(store.nextSequence, query.before ?? UInt64.max)
        return cursor < end ? end - cursor - 1 : 0
    }

    /// Moves the cursor over the next `count` records (at most `DeliveryStore.summaryLimit`, and
    /// not past the newest) without handing them out: what the query matches among them is
    /// counted from the store's columns instead (`DeliveryStore.summary`). `nil` when no record
    /// is waiting. Summarised records are not watched: an answer decided later for one of them
    /// is not handed out.
    public func summarize(next count: UInt64) -> DeliverySummary? {
        let end = min(store.nextSequence, query.before ?? UInt64.max)
        guard count > 0, cursor < end, end - cursor > 1 else { return nil }
        let last = end - 1 - cursor > count ? cursor + count : end - 1
        guard let summary = store.summary(of: query.matcher, after: cursor, through: last) else { return nil }
        cursor = summary.to
        return summary
    }

    private func note(handedOut record: DeliveryRecord) {
        let mark = Mark(record)
        if mark.isOpen {
            watched[record.sequence] = .some(mark)
        } else if !watched.isEmpty {
            watched[record.sequence] = nil
        }
    }

    /// The watched records (at or below the cursor) whose outcome changed and that the query
    /// matches now. Settled or vanished records stop being watched.
    private func recheckWatched() -> [DeliveryRecord] {
        let sequences = watched.keys.filter { $0 <= cursor }.sorted()
        guard !sequences.isEmpty else { return [] }
        let current = store.records(sequences: sequences)
        var found: Set<UInt64> = []
        var completed: [DeliveryRecord] = []
        for record in current {
            found.insert(record.sequence)
            let mark = Mark(record)
            guard let handedOut = watched[record.sequence], handedOut != mark else { continue }
            if !mark.isOpen { watched[record.sequence] = nil }
            let judged = analyses?.analyzed(record) ?? record
            guard query.matcher.matches(judged) else { continue }
            if mark.isOpen { watched[record.sequence] = .some(mark) }
            completed.append(judged)
        }
        for sequence in sequences where !found.contains(sequence) { watched[sequence] = nil }
        return completed
    }
}
