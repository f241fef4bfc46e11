import APNSMockCore
import APNSMockStore

/// The pushes an in-process mock recorded, read and awaited without HTTP:
/// `try await mock.deliveries.wait(count: 1, matching: [.token(token), .status(200)])`.
///
/// Every request is recorded, accepted or rejected, oldest first; a matcher's conditions must
/// all hold (see `DeliveryMatcher.Condition`).
public struct MockDeliveries: Sendable {
    let reader: DeliveryReader
    var store: DeliveryStore { reader.store }

    /// How many records are held.
    public var count: Int { store.count }

    /// Every record `matcher` matches, oldest first.
    public func all(matching matcher: DeliveryMatcher = []) -> [DeliveryRecord] {
        var records: [DeliveryRecord] = []
        var query = DeliveryQuery(matcher: matcher, limit: 1000)
        while true {
            let page = reader.query(query)
            records += page.deliveries
            guard let next = page.next else { return records }
            query.since = next
        }
    }

    /// The newest record `matcher` matches, if any.
    public func last(matching matcher: DeliveryMatcher = []) -> DeliveryRecord? {
        reader.query(DeliveryQuery(matcher: matcher, limit: 1, order: .desc)).deliveries.first
    }

    /// Waits until at least `count` records match (those already held count too), woken as
    /// pushes are recorded.
    /// - Returns: the matching records, oldest first (at least `count`).
    /// - Throws: `DeliveryWaitTimeout` when fewer match after `timeout`, saying what was found;
    ///   `CancellationError` when the task is cancelled.
    @discardableResult
    public func wait(
        count: Int = 1, matching matcher: DeliveryMatcher = [], timeout: Duration = .seconds(10)
    ) async throws -> [DeliveryRecord] {
        let (records, satisfied) = try await store.waitForMatches(
            DeliveryQuery(matcher: matcher), count: max(1, count), timeout: timeout, analyses: reader.analyses)
        try Task.checkCancellation()
        guard satisfied else {
            throw DeliveryWaitTimeout(
                wanted: count, found: records, matcher: matcher, timeout: timeout, held: store.count)
        }
        return records
    }

    /// Removes the records `matcher` matches (every record when it is empty).
    /// - Returns: how many were removed.
    @discardableResult
    public func removeAll(matching matcher: DeliveryMatcher = []) -> Int {
        reader.remove(matching: matcher)
    }
}
