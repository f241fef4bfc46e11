import APNSMockCore

/// What a run of records held, counted from the store's columns instead of handed out one by
/// one: the event stream's `batch` event for a reader that fell behind (`DeliveryFollower.summarize`).
///
/// It accounts for every sequence number from `from` through `to`: `count` records the query
/// matched, counted by status and by outcome, and `agedOut` records that had left the store
/// before they could be counted (whether they matched is not known). Records the query did not
/// match, and deleted ones, are in neither.
public struct DeliverySummary: Sendable, Equatable {
    /// The first sequence number summarised.
    public var from: UInt64
    /// The last sequence number summarised (what `Last-Event-ID` resumes after).
    public var to: UInt64
    /// The matching records still stored.
    public var count: Int
    /// The matching answered records by HTTP status (records without one are not in it: pending,
    /// hung, reset, cancelled, closed).
    public var byStatus: [Int: Int]
    /// The matching records by outcome.
    public var byOutcome: [DeliveryOutcome: Int]
    /// Records in the range that aged out of the store before they were summarised.
    public var agedOut: UInt64

    public init(
        from: UInt64, to: UInt64, count: Int = 0, byStatus: [Int: Int] = [:],
        byOutcome: [DeliveryOutcome: Int] = [:], agedOut: UInt64 = 0
    ) {
        self.from = from
        self.to = to
        self.count = count
        self.byStatus = byStatus
        self.byOutcome = byOutcome
        self.agedOut = agedOut
    }

    /// The counts taken under the store's lock: plain arrays, a few statuses searched in order,
    /// so a record costs a few comparisons and no hashing.
    struct Tally {
        private var count = 0
        private var statuses: [(status: UInt16, count: Int)] = []
        private var outcomes = [Int](repeating: 0, count: 8)

        /// Counts one matching stored record from its columns.
        mutating func add(_ stored: StoredDelivery) {
            count += 1
            outcomes[Int(stored.outcome & 7)] += 1
            guard stored.flags & StoredDelivery.flagPending == 0, stored.status != 0 else { return }
            if let index = statuses.firstIndex(where: { $0.status == stored.status }) {
                statuses[index].count += 1
            } else {
                statuses.append((stored.status, 1))
            }
        }

        /// The summary of `from` through `to` with these counts.
        func summary(from: UInt64, to: UInt64, agedOut: UInt64) -> DeliverySummary {
            var byOutcome: [DeliveryOutcome: Int] = [:]
            for (code, count) in outcomes.enumerated() where count > 0 {
                byOutcome[DeliveryOutcome(code: UInt8(code)), default: 0] += count
            }
            return DeliverySummary(
                from: from, to: to, count: count,
                byStatus: Dictionary(statuses.map { (Int($0.status), $0.count) }, uniquingKeysWith: +),
                byOutcome: byOutcome, agedOut: agedOut)
        }
    }
}
