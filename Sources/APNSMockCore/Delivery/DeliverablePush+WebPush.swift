extension DeliverablePush {
    /// The slot of every web push to a subscription: the subscription's inbox keeps one message
    /// while its browser is offline, the newest, as APNs keeps one notification per app (a choice:
    /// Apple's Web Push page does not say how many it stores; RFC 8030 leaves it to the push
    /// service).
    public static let webPushSlot = "webPush"

    /// A web push as RFC 8030's headers describe it (the request was accepted, so each is valid):
    /// `TTL` is the expiration (seconds; `0`: delivered at once or never, §5.2), `Urgency` the
    /// priority (`high` and `normal` as 10; `low` and `very-low` as 5, held while the device
    /// saves power, §5.3), and `Topic` the collapse id (a newer message with the same topic
    /// replaces one held, §5.4). The mapping of Urgency to priority is a choice: Apple's page
    /// names the header, not what APNs does with it.
    public init(webPushSequence sequence: UInt64, acceptedAt: Int64, ttl: String?, urgency: String?, topic: String?) {
        let seconds = ttl.flatMap { Int64($0) } ?? 0
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let (expiresAt, pastEnd) = acceptedAt.addingReportingOverflow(overflow ? Int64.max : milliseconds)
        let priority: Int
        switch urgency.flatMap(WebPushUrgency.init(rawValue:)) ?? .normal {
        case .high, .normal: priority = 10
        case .low, .veryLow: priority = 5
        }
        self.init(
            sequence: sequence, slot: Self.webPushSlot, pushType: .alert, priority: priority, acceptedAt: acceptedAt,
            expiresAt: pastEnd ? Int64.max : expiresAt, deliverNowOrNever: seconds == 0, collapseID: topic)
    }
}
