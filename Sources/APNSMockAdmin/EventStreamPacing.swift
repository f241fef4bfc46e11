import APNSMockStore

/// Decides, before each look at the store, whether a `GET /v1/events` reader gets the next
/// records one `delivery` event each or summarised in a `batch` event, from its backlog (the
/// records stored after its position).
///
/// A reader whose backlog passes `threshold` is summarised until the backlog is back to
/// `resumeAt` (half the threshold: the newest records are still sent one by one, and a reader
/// that keeps up most of the time does not flip between the two at every look).
///
/// The threshold is 10,000 records, or half the store's capacity when that is smaller. 10,000
/// records are a tenth of a second at the load the mock serves on one core (about 100,000 pushes
/// a second): a reader further behind is not following live any more. And it is a tenth of the
/// default store: the 90,000 records left are about a second of margin before anything ages out,
/// while one look at the store takes at most 1,000 records (a few tens of milliseconds to
/// render). Half the capacity keeps that margin in a small store.
struct EventStreamPacing: Equatable {
    /// What to do next.
    enum Next: Equatable {
        /// Send the next records one event each.
        case deliver
        /// Summarise this many of the next records.
        case summarize(records: UInt64)
    }

    /// The largest backlog that is still sent record by record.
    static let largestThreshold: UInt64 = 10_000

    /// Summarising starts when the backlog exceeds this.
    let threshold: UInt64
    /// And stops when it is at most this.
    let resumeAt: UInt64
    /// Whether records are being summarised.
    private(set) var summarizing = false

    /// The pacing for a store holding at most `capacity` records.
    init(capacity: Int) {
        threshold = max(1, min(Self.largestThreshold, UInt64(max(0, capacity)) / 2))
        resumeAt = threshold / 2
    }

    /// What to do with a reader `backlog` records behind.
    mutating func next(backlog: UInt64) -> Next {
        if backlog > threshold { summarizing = true }
        if backlog <= resumeAt { summarizing = false }
        guard summarizing else { return .deliver }
        return .summarize(records: min(DeliveryStore.summaryLimit, backlog - resumeAt))
    }
}
