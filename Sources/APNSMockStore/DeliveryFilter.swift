import APNSMockCore

/// Which records a query wants. Every field that is set must match.
public struct DeliveryFilter: Sendable {
    public var token: String?
    public var topic: String?
    public var pushType: APNSPushType?
    public var status: Int?
    public var apnsID: String?
    /// Only records with a sequence number above this (exclusive).
    public var since: UInt64?
    /// Only records with a sequence number below this (exclusive).
    public var before: UInt64?

    public init(
        token: String? = nil, topic: String? = nil, pushType: APNSPushType? = nil, status: Int? = nil,
        apnsID: String? = nil, since: UInt64? = nil, before: UInt64? = nil
    ) {
        self.token = token
        self.topic = topic
        self.pushType = pushType
        self.status = status
        self.apnsID = apnsID
        self.since = since
        self.before = before
    }
}

/// Ascending (oldest first) or descending.
public enum DeliveryOrder: String, Sendable {
    case asc, desc
}

/// One page of a query.
public struct DeliveryPage: Sendable {
    public var deliveries: [Delivery]
    /// The cursor for the following page (`since` in ascending order, `before` in
    /// descending), `nil` when this page is the last.
    public var next: UInt64?
    /// How many stored records match the filter, over all pages.
    public var total: Int
    /// How many records the store has dropped to stay within its capacity, since start.
    public var dropped: UInt64
}
