/// What the delivery model needs of an accepted push: where it may be stored (its app's slot),
/// how urgent it is, how long it may wait, and what it replaces.
public struct DeliverablePush: Sendable, Hashable {
    /// The record's sequence number.
    public var sequence: UInt64
    /// The storage slot: the push's topic (APNs keeps one notification per app per device;
    /// each topic of an app, `.voip` or `.push-type.liveactivity`, is a slot of its own), or,
    /// for a broadcast's delivery, the channel.
    public var slot: String
    public var pushType: APNSPushType
    /// `apns-priority`: 10 (the default), 5 or 1.
    public var priority: Int
    /// When APNs accepted it (answered 200), epoch ms.
    public var acceptedAt: Int64
    /// Until when APNs may hold it, epoch ms (`apns-expiration`; 30 days when absent; at most
    /// 8 hours for a channel that stores its newest message).
    public var expiresAt: Int64
    /// `apns-expiration: 0`, or a broadcast to a channel that stores nothing: delivered at once
    /// or never.
    public var deliverNowOrNever: Bool
    /// `apns-collapse-id`.
    public var collapseID: String?

    /// How long APNs keeps a push whose `apns-expiration` is absent: 30 days.
    public static let defaultLifetime: Int64 = 30 * 24 * 3_600_000
    /// The longest a channel with storage policy 1 keeps its newest message: 8 hours.
    public static let channelLifetime: Int64 = 8 * 3_600_000

    public init(
        sequence: UInt64, slot: String, pushType: APNSPushType, priority: Int = 10, acceptedAt: Int64,
        expiresAt: Int64, deliverNowOrNever: Bool = false, collapseID: String? = nil
    ) {
        self.sequence = sequence
        self.slot = slot
        self.pushType = pushType
        self.priority = priority
        self.acceptedAt = acceptedAt
        self.expiresAt = expiresAt
        self.deliverNowOrNever = deliverNowOrNever
        self.collapseID = collapseID
    }

    /// A push as its headers describe it: `apns-priority` (absent: 10), `apns-expiration`
    /// (epoch seconds; absent: 30 days; `0`: now or never) and `apns-collapse-id`. For a
    /// broadcast's delivery, `storagePolicy` is the channel's: policy 0 is now or never, policy
    /// 1 keeps the newest message at most 8 hours.
    public init(
        sequence: UInt64, slot: String, pushType: APNSPushType, acceptedAt: Int64, priority: String?,
        expiration: String?, collapseID: String?, storagePolicy: MessageStoragePolicy? = nil
    ) {
        let priority = priority.flatMap { Int($0) } ?? 10
        var expiresAt = acceptedAt &+ Self.defaultLifetime
        var nowOrNever = false
        if let expiration, let seconds = Int64(expiration) {
            if seconds == 0 {
                nowOrNever = true
                expiresAt = acceptedAt
            } else {
                let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
                expiresAt = overflow ? Int64.max : milliseconds
            }
        }
        switch storagePolicy {
        case .noMessageStored?:
            nowOrNever = true
            expiresAt = acceptedAt
        case .mostRecentMessageStored?:
            expiresAt = min(expiresAt, acceptedAt &+ Self.channelLifetime)
        case nil: break
        }
        self.init(
            sequence: sequence, slot: slot, pushType: pushType, priority: priority, acceptedAt: acceptedAt,
            expiresAt: expiresAt, deliverNowOrNever: nowOrNever, collapseID: collapseID)
    }

    /// Whether the user would see it (an alert): what disabled notifications discard.
    public var isUserVisible: Bool { pushType == .alert }
    /// Whether it is a background update: what a background budget counts.
    public var isBackground: Bool { pushType == .background }
}
