/// One push a device's view is built from: a record the store holds for the device, reduced to
/// what its user could see of it.
public struct DeviceViewPush: Sendable, Hashable {
    /// The record's sequence number.
    public var sequence: UInt64
    /// The record's `apns-id`.
    public var apnsID: String
    /// `apns-topic`; for a broadcast's delivery, the app's Live Activity topic when known.
    public var topic: String?
    public var pushType: APNSPushType
    /// `apns-collapse-id`.
    public var collapseID: String?
    /// For a broadcast's delivery to the device (`viaChannel`), the channel it came by; `nil`
    /// for a push sent to the device itself.
    public var channelID: String?
    /// What became of it after its 200 (the record's `delivery`); `nil` for a rejected push.
    public var delivery: DeviceDelivery?
    /// The payload analysis's preview; `nil` when the payload is no JSON object.
    public var preview: NotificationPreview?
    /// The payload's `aps` dictionary; needed for Live Activity pushes only (`event`,
    /// `content-state`, `stale-date`, `dismissal-date`), `nil` is fine for the others.
    public var aps: JSONValue?

    public init(
        sequence: UInt64, apnsID: String, topic: String?, pushType: APNSPushType, collapseID: String? = nil,
        channelID: String? = nil, delivery: DeviceDelivery?, preview: NotificationPreview? = nil,
        aps: JSONValue? = nil
    ) {
        self.sequence = sequence
        self.apnsID = apnsID
        self.topic = topic
        self.pushType = pushType
        self.collapseID = collapseID
        self.channelID = channelID
        self.delivery = delivery
        self.preview = preview
        self.aps = aps
    }

    /// When it reached the device, if it did.
    public var deliveredAt: Int64? {
        guard let delivery, delivery.state == .delivered else { return nil }
        return delivery.at
    }
}
