/// What APNs holds for one device, and what the delivery model remembers of it: the pushes it
/// stores, the conditions it last judged them under, and the background pushes delivered in
/// the last hour. A value: the store keeps one per device with state, the model changes it.
public struct DeliveryInbox: Sendable, Hashable {
    /// A push APNs holds, and why.
    public struct Held: Sendable, Hashable {
        /// Why it is held.
        public enum Cause: String, Sendable, Hashable {
            /// The device is offline: one push per slot, the newest.
            case offline
            /// The device saves power and the push's priority is 5 or 1.
            case lowPower
            /// The app's background budget for the hour is spent: one per slot, the newest.
            case backgroundBudget
        }

        public var push: DeliverablePush
        public var cause: Cause

        public init(push: DeliverablePush, cause: Cause) {
            self.push = push
            self.cause = cause
        }
    }

    /// The conditions the inbox was last judged under.
    public var conditions: DeviceConditions
    /// Held pushes, oldest first.
    public var held: [Held] = []
    /// Background pushes delivered in the last hour: (slot, when), oldest first.
    public var backgroundDeliveries: [BackgroundDelivery] = []
    /// The time the inbox was last judged at (epoch ms).
    public var judgedAt: Int64

    /// One delivered background push, counted against its slot's budget for an hour.
    public struct BackgroundDelivery: Sendable, Hashable {
        public var slot: String
        public var at: Int64
    }

    public init(conditions: DeviceConditions, judgedAt: Int64) {
        self.conditions = conditions
        self.judgedAt = judgedAt
    }

    /// Whether the inbox can be forgotten: standard conditions and nothing held or counted.
    public var isIdle: Bool { !conditions.needsModel && holdsNothing }

    /// Whether nothing is held or counted: an inbox whose conditions are kept elsewhere (a
    /// `DeliveryConditionsSource`) can be forgotten then, whatever its conditions.
    public var holdsNothing: Bool { held.isEmpty && backgroundDeliveries.isEmpty }
}
