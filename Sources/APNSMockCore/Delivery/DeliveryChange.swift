/// A push's new `delivery`, as the delivery model decided it: what the store writes into the
/// record (and its history) and announces to followers.
public struct DeliveryChange: Sendable, Hashable {
    /// The record's sequence number.
    public var sequence: UInt64
    public var delivery: DeviceDelivery

    public init(sequence: UInt64, delivery: DeviceDelivery) {
        self.sequence = sequence
        self.delivery = delivery
    }
}
