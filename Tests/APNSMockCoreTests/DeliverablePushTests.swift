import APNSMockCore
import Testing

/// A push as its headers describe it (Apple, *Sending notification requests to APNs*: the
/// `apns-priority`, `apns-expiration` and `apns-collapse-id` rows; a channel's storage policy,
/// *Sending broadcast push notification requests to APNs*).
@Suite("DeliverablePush: read from header strings")
struct DeliverablePushTests {
    static let acceptedAt: Int64 = 1_700_000_000_123

    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var priority: String?
        var expiration: String?
        var policy: MessageStoragePolicy?
        var expectPriority: Int
        var expectExpiresAt: Int64
        var expectNowOrNever: Bool
        var testDescription: String { name }
    }

    static let day: Int64 = 86_400_000
    static let rows: [Row] = [
        Row(
            name: "no headers: priority 10, kept 30 days", expectPriority: 10,
            expectExpiresAt: acceptedAt + 30 * day, expectNowOrNever: false),
        Row(
            name: "priority 5, expiration in epoch seconds", priority: "5", expiration: "1700003600",
            expectPriority: 5, expectExpiresAt: 1_700_003_600_000, expectNowOrNever: false),
        Row(
            name: "priority 1", priority: "1", expectPriority: 1, expectExpiresAt: acceptedAt + 30 * day,
            expectNowOrNever: false),
        Row(
            name: "expiration 0: now or never", expiration: "0", expectPriority: 10, expectExpiresAt: acceptedAt,
            expectNowOrNever: true),
        Row(
            name: "unreadable priority and expiration: the defaults", priority: "high", expiration: "soon",
            expectPriority: 10, expectExpiresAt: acceptedAt + 30 * day, expectNowOrNever: false),
        Row(
            name: "huge expiration saturates", expiration: String(Int64.max), expectPriority: 10,
            expectExpiresAt: .max, expectNowOrNever: false),
        Row(
            name: "channel policy 0: now or never whatever the expiration", expiration: "1800000000",
            policy: .noMessageStored, expectPriority: 10, expectExpiresAt: acceptedAt, expectNowOrNever: true),
        Row(
            name: "channel policy 1: at most 8 hours", expiration: "1800000000", policy: .mostRecentMessageStored,
            expectPriority: 10, expectExpiresAt: acceptedAt + 8 * 3_600_000, expectNowOrNever: false),
        Row(
            name: "channel policy 1, an earlier expiration is kept", expiration: "1700000060",
            policy: .mostRecentMessageStored, expectPriority: 10, expectExpiresAt: 1_700_000_060_000,
            expectNowOrNever: false),
        Row(
            name: "channel policy 1, expiration 0: now or never", expiration: "0", policy: .mostRecentMessageStored,
            expectPriority: 10, expectExpiresAt: acceptedAt, expectNowOrNever: true),
    ]

    @Test(arguments: rows)
    func fromHeaders(_ row: Row) {
        let push = DeliverablePush(
            sequence: 7, slot: "com.example.app", pushType: .alert, acceptedAt: Self.acceptedAt,
            priority: row.priority, expiration: row.expiration, collapseID: "c", storagePolicy: row.policy)
        #expect(push.priority == row.expectPriority)
        #expect(push.expiresAt == row.expectExpiresAt)
        #expect(push.deliverNowOrNever == row.expectNowOrNever)
        #expect(push.collapseID == "c" && push.sequence == 7 && push.acceptedAt == Self.acceptedAt)
    }

    @Test(arguments: APNSPushType.allCases)
    func onlyAlertsAreUserVisibleAndOnlyBackgroundIsBudgeted(_ type: APNSPushType) {
        let push = DeliverablePush(sequence: 1, slot: "s", pushType: type, acceptedAt: 0, expiresAt: 1)
        #expect(push.isUserVisible == (type == .alert))
        #expect(push.isBackground == (type == .background))
    }
}
