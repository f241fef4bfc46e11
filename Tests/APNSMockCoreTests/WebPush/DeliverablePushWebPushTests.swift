import Testing

@testable import APNSMockCore

/// A web push as the delivery model sees it (RFC 8030 §5.2–5.4): `TTL` is its expiration,
/// `Urgency` its priority, `Topic` its collapse id, one slot per subscription.
@Suite struct DeliverablePushWebPushTests {
    static func push(ttl: String?, urgency: String? = nil, topic: String? = nil) -> DeliverablePush {
        DeliverablePush(webPushSequence: 7, acceptedAt: 1_000, ttl: ttl, urgency: urgency, topic: topic)
    }

    @Test func ttlIsTheExpirationAndZeroMeansNowOrNever() {
        let kept = Self.push(ttl: "60")
        #expect(kept.expiresAt == 61_000 && !kept.deliverNowOrNever)
        let now = Self.push(ttl: "0")
        #expect(now.expiresAt == 1_000 && now.deliverNowOrNever)
        #expect(Self.push(ttl: String(Int64.max)).expiresAt == Int64.max, "no overflow")
    }

    @Test(arguments: [("high", 10), ("normal", 10), (nil, 10), ("low", 5), ("very-low", 5)])
    func urgencyIsThePriority(urgency: String?, priority: Int) {
        #expect(Self.push(ttl: "60", urgency: urgency).priority == priority)
    }

    @Test func topicIsTheCollapseIDInTheSubscriptionsOneSlot() {
        let push = Self.push(ttl: "60", topic: "scores")
        #expect(push.collapseID == "scores" && push.slot == DeliverablePush.webPushSlot)
        #expect(push.isUserVisible, "a web push is a notification: disabled notifications discard it")
    }

    @Test func aLowUrgencyPushWaitsForTheEndOfPowerSaving() {
        var inbox = DeliveryInbox(
            conditions: DeviceConditions(presence: .lowPower), judgedAt: 0)
        let low = DeliveryModel.accept(Self.push(ttl: "600", urgency: "low"), into: &inbox)
        #expect(low.map(\.delivery.state) == [.stored])
        let high = DeliveryModel.accept(
            DeliverablePush(webPushSequence: 8, acceptedAt: 1_000, ttl: "600", urgency: "high", topic: nil),
            into: &inbox)
        #expect(high.map(\.delivery.state) == [.delivered])
    }
}
