import APNSMockCore

/// Reads the store as readers see records: with their payload analysis (lint, preview), which
/// `PayloadAnalyses` computes outside the store's lock. The admin API and the library read
/// through it; the store itself only stores.
public struct DeliveryReader: Sendable {
    public let store: DeliveryStore
    public let analyses: PayloadAnalyses

    public init(store: DeliveryStore, analyses: PayloadAnalyses) {
        self.store = store
        self.analyses = analyses
    }

    /// One page of the records `query` asks for, analysed.
    public func query(_ query: DeliveryQuery) -> DeliveryPage {
        var page = store.query(query, analyses: analyses)
        analyses.analyze(&page.deliveries)
        return page
    }

    /// The record with `sequence`, if still stored, analysed.
    public func record(sequence: UInt64) -> DeliveryRecord? {
        store.record(sequence: sequence).map(analyses.analyzed)
    }

    /// The most recent record with `apnsID` (any letter case), analysed.
    public func latest(apnsID: String) -> DeliveryRecord? {
        store.latest(apnsID: apnsID).map(analyses.analyzed)
    }

    /// Deletes the records `matcher` matches (every record when it is empty); returns how many.
    @discardableResult
    public func remove(matching matcher: DeliveryMatcher) -> Int {
        store.remove(matching: matcher, analyses: analyses)
    }

    /// A follower of `query` after `cursor` whose records are analysed.
    public func follower(_ query: DeliveryQuery, after cursor: UInt64) -> DeliveryFollower {
        DeliveryFollower(store: store, query: query, after: cursor, analyses: analyses)
    }

    /// Summaries for the provider-behaviour report of the records received in `window`
    /// (analysed, for their lint), read a page at a time: each page one short hold of the
    /// store's lock, the analyses outside it.
    public func behaviorDeliveries(in window: ReportWindow) -> [BehaviorDelivery] {
        var summaries: [BehaviorDelivery] = []
        var query = DeliveryQuery(limit: 1000)
        while true {
            let page = self.query(query)
            for record in page.deliveries where window.contains(record.receivedAt) {
                if let summary = record.behaviorDelivery { summaries.append(summary) }
            }
            guard let next = page.next else { return summaries }
            query.since = next
        }
    }

    /// Empties the store and forgets the analyses.
    public func removeAll() {
        store.removeAll()
        analyses.removeAll()
    }
}
