import APNSMockCore

/// One page of a query.
public struct DeliveryPage: Sendable {
    public var deliveries: [DeliveryRecord]
    /// The cursor for the following page (`since` in ascending order, `before` in
    /// descending), `nil` when this page is the last.
    public var next: UInt64?
    /// How many stored records match, over all pages.
    public var total: Int
    /// How many records the store has dropped to stay within its capacity, since start.
    public var dropped: UInt64
}
