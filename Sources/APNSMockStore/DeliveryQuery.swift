import APNSMockCore

/// What a reader asks the store for: the records a matcher matches, between two sequence
/// numbers, one page at a time.
public struct DeliveryQuery: Sendable {
    public var matcher: DeliveryMatcher
    /// Only records with a sequence number above this (exclusive).
    public var since: UInt64?
    /// Only records with a sequence number below this (exclusive).
    public var before: UInt64?
    /// The most records in one page.
    public var limit: Int
    public var order: DeliveryOrder

    public init(
        matcher: DeliveryMatcher = DeliveryMatcher(), since: UInt64? = nil, before: UInt64? = nil, limit: Int = 1000,
        order: DeliveryOrder = .asc
    ) {
        self.matcher = matcher
        self.since = since
        self.before = before
        self.limit = max(0, limit)
        self.order = order
    }
}

extension DeliveryQuery {
    /// A query on the common fields (each one given must match).
    public static func `where`(
        token: String? = nil, topic: String? = nil, pushType: APNSPushType? = nil, status: Int? = nil,
        apnsID: String? = nil, since: UInt64? = nil, before: UInt64? = nil, limit: Int = 1000,
        order: DeliveryOrder = .asc
    ) -> DeliveryQuery {
        var matcher = DeliveryMatcher()
        if let token { matcher.append(.token(token.lowercased())) }
        if let topic { matcher.append(.topic(topic)) }
        if let pushType { matcher.append(.pushType(pushType)) }
        if let status { matcher.append(.status(status)) }
        if let apnsID { matcher.append(.apnsID(apnsID)) }
        return DeliveryQuery(matcher: matcher, since: since, before: before, limit: limit, order: order)
    }
}
