import APNSMockCore
import Synchronization
import Testing

@testable import APNSMockStore

/// The store's per-device inboxes: records of pushes to a device with conditions carry what
/// `DeliveryModel` decided (`delivery`, `deliveryHistory`), queries and followers see it.
@Suite struct DeviceDeliveryStoreTests {
    static let t0: Int64 = 1_700_000_000_000
    static let minute: Int64 = 60_000
    static let offline = String(repeating: "0f", count: 32)
    static let plain = String(repeating: "ab", count: 32)
    static let thirtyDays = DeliverablePush.defaultLifetime

    /// A push to `token` answered `status` at `t0 + offset` (`nil`: still pending).
    static func push(
        _ token: String, at offset: Int64 = 0, status: Int? = 200, expiration: String? = nil,
        pushType: APNSPushType = .alert
    ) -> DeliveryRecord {
        var fields = [
            HTTPHeaderField(name: "apns-topic", value: "com.example.app"),
            HTTPHeaderField(name: "apns-push-type", value: pushType.rawValue),
        ]
        if let expiration { fields.append(HTTPHeaderField(name: "apns-expiration", value: expiration)) }
        let response = status.map {
            DeliveryResponse(status: $0, reason: $0 == 200 ? nil : .badDeviceToken, respondedAt: t0 + offset)
        }
        return DeliveryRecord(
            receivedAt: t0 + offset, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/" + token, authority: nil, headerBlock: HeaderBlock(fields), token: token,
            topic: "com.example.app", pushType: pushType, apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"),
            uniqueID: nil, payload: Array("{}".utf8), payloadSize: 2, response: response)
    }

    static func sequences(_ store: DeliveryStore, _ conditions: [DeliveryMatcher.Condition]) -> [UInt64] {
        store.query(DeliveryQuery(matcher: DeliveryMatcher(conditions))).deliveries.map(\.sequence)
    }

    @Test func aPushToAnOfflineDeviceIsStored() throws {
        let store = DeliveryStore()
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline.uppercased(), now: Self.t0)
        let sequence = store.append(Self.push(Self.offline, at: 5))
        let record = try #require(store.record(sequence: sequence))
        #expect(record.delivery == .stored(at: Self.t0 + 5, until: Self.t0 + 5 + Self.thirtyDays))
        #expect(record.deliveryHistory == [record.delivery])
        #expect(store.heldPushes(of: Self.offline).map(\.held.push.sequence) == [sequence])
        #expect(store.deviceConditions(of: Self.offline).presence == .offline)
        #expect(store.nextDeliveryEvent == Self.t0 + 5 + Self.thirtyDays)
    }

    /// Issue 40: with its conditions in a source (the registry, in the server), a device that
    /// holds nothing has no inbox; a push is judged by the source's conditions, its inbox kept
    /// while it holds the push and forgotten once the push is delivered.
    @Test func anInboxIsKeptOnlyWhileItHoldsSomething() throws {
        let source = DeliveryConditionsTable()
        let store = DeliveryStore(conditions: source)
        for index in 0..<1000 {
            let token = String(repeating: "c", count: 60) + String(1000 + index)
            source.set(DeviceConditions(presence: .offline), for: token)
        }
        source.set(DeviceConditions(presence: .offline), for: Self.offline)
        #expect(store.inboxCount.load(ordering: .relaxed) == 0, "1,001 offline devices holding nothing")
        let sequence = store.append(Self.push(Self.offline, at: 5))
        #expect(
            try #require(store.record(sequence: sequence)).delivery
                == .stored(at: Self.t0 + 5, until: Self.t0 + 5 + Self.thirtyDays))
        #expect(store.inboxCount.load(ordering: .relaxed) == 1)
        #expect(store.deviceConditions(of: Self.offline).presence == .offline)
        source.set(.standard, for: Self.offline)
        store.setDeviceConditions(.standard, of: Self.offline, now: Self.t0 + Self.minute)
        #expect(try #require(store.record(sequence: sequence)).delivery == .delivered(at: Self.t0 + Self.minute))
        #expect(store.inboxCount.load(ordering: .relaxed) == 0, "delivered: nothing held, no inbox")
        #expect(store.nextDeliveryEvent == nil)
        // A push the device's conditions discard leaves no inbox either.
        let gone = String(repeating: "9a", count: 32)
        source.set(DeviceConditions(installed: false, uninstalledAt: Self.t0), for: gone)
        let discarded = store.append(Self.push(gone, at: 10))
        #expect(try #require(store.record(sequence: discarded)).delivery?.reason == .tokenInactive)
        #expect(store.inboxCount.load(ordering: .relaxed) == 0)
        // A push to a device the source does not know is delivered when answered, and judged
        // by nobody: its record has no history.
        let plain = try #require(store.record(sequence: store.append(Self.push(Self.plain, at: 20))))
        #expect(plain.delivery == .delivered(at: Self.t0 + 20) && plain.deliveryHistory.isEmpty)
        #expect(store.inboxCount.load(ordering: .relaxed) == 0)
    }

    @Test func comingOnlineDeliversItAndTheHistoryHasBoth() throws {
        let store = DeliveryStore()
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
        let sequence = store.append(Self.push(Self.offline, at: 5))
        store.setDeviceConditions(.standard, of: Self.offline, now: Self.t0 + Self.minute)
        let record = try #require(store.record(sequence: sequence))
        #expect(
            record.deliveryHistory == [
                .stored(at: Self.t0 + 5, until: Self.t0 + 5 + Self.thirtyDays), .delivered(at: Self.t0 + Self.minute),
            ])
        #expect(record.delivery == .delivered(at: Self.t0 + Self.minute))
        #expect(store.heldPushes(of: Self.offline).isEmpty)
        #expect(store.nextDeliveryEvent == nil, "standard and nothing held: no inbox")
    }

    @Test func advancingTimeEndsAScheduledPeriod() throws {
        let store = DeliveryStore()
        let period = DeviceConditions.Period(presence: .offline, from: Self.t0, until: Self.t0 + Self.minute)
        store.setDeviceConditions(DeviceConditions(periods: [period]), of: Self.offline, now: Self.t0)
        let sequence = store.append(Self.push(Self.offline, at: 5))
        #expect(store.nextDeliveryEvent == Self.t0 + Self.minute)
        #expect(store.advanceDeliveries(to: Self.t0 + 30_000) == 0)
        #expect(store.advanceDeliveries(to: Self.t0 + 2 * Self.minute) == 1)
        let record = try #require(store.record(sequence: sequence))
        #expect(record.deliveryHistory.map(\.state) == [.stored, .delivered])
        #expect(record.delivery?.at == Self.t0 + Self.minute, "at the period's end, not when time was advanced")
    }

    @Test func aSecondPushReplacesTheFirstInItsRecord() throws {
        let store = DeliveryStore()
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
        let first = store.append(Self.push(Self.offline, at: 5))
        let second = store.append(Self.push(Self.offline, at: 10))
        #expect(store.record(sequence: first)?.delivery == .discarded(.replaced, at: Self.t0 + 10))
        #expect(store.record(sequence: first)?.deliveryHistory.count == 2)
        #expect(store.record(sequence: second)?.delivery?.state == .stored)
    }

    @Test func aFollowerOnDeliveredHandsTheHeldPushOutWhenItIsDelivered() {
        let store = DeliveryStore()
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
        let follower = DeliveryFollower(
            store: store, query: DeliveryQuery(matcher: DeliveryMatcher([.delivery(.delivered)])), after: 0)
        let sequence = store.append(Self.push(Self.offline, at: 5))
        let first = follower.advance()
        #expect(first.new.isEmpty && first.completed.isEmpty, "stored: not delivered yet")
        #expect(follower.watchedCount == 1)
        store.setDeviceConditions(.standard, of: Self.offline, now: Self.t0 + Self.minute)
        let second = follower.advance()
        #expect(second.new.isEmpty)
        #expect(second.completed.map(\.sequence) == [sequence])
        #expect(second.completed.first?.delivery == .delivered(at: Self.t0 + Self.minute))
        #expect(follower.watchedCount == 0)
        #expect(follower.advance().completed.isEmpty, "handed out once")
    }

    @Test func aPushToADeviceWithoutInboxIsDeliveredWhenAnswered() throws {
        let store = DeliveryStore()
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
        let sequence = store.append(Self.push(Self.plain, at: 7))
        let record = try #require(store.record(sequence: sequence))
        #expect(record.deliveryHistory.isEmpty)
        #expect(record.delivery == .delivered(at: Self.t0 + 7))
        let rejected = try #require(store.record(sequence: store.append(Self.push(Self.plain, status: 400))))
        #expect(rejected.delivery == nil && rejected.deliveryHistory.isEmpty)
    }

    @Test func queriesFilterOnDeliveryAndItsReason() {
        let store = DeliveryStore()
        let gone = String(repeating: "cd", count: 32)
        let muted = String(repeating: "ef", count: 32)
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
        store.setDeviceConditions(DeviceConditions(installed: false, uninstalledAt: Self.t0), of: gone, now: Self.t0)
        store.setDeviceConditions(DeviceConditions(notificationsEnabled: false), of: muted, now: Self.t0)
        let stored = store.append(Self.push(Self.offline, at: 1))
        let inactive = store.append(Self.push(gone, at: 2))
        let disabled = store.append(Self.push(muted, at: 3))
        let background = store.append(Self.push(muted, at: 4, pushType: .background))
        let delivered = store.append(Self.push(Self.plain, at: 5))
        let expired = store.append(Self.push(Self.offline, at: 6, expiration: "0"))
        _ = store.append(Self.push(Self.plain, at: 7, status: 400))
        #expect(Self.sequences(store, [.delivery(.stored)]) == [stored])
        #expect(Self.sequences(store, [.delivery(.delivered)]) == [background, delivered])
        #expect(Self.sequences(store, [.delivery(.discarded)]) == [inactive, disabled, expired])
        #expect(Self.sequences(store, [.deliveryReason(.tokenInactive)]) == [inactive])
        #expect(Self.sequences(store, [.deliveryReason(.notificationsDisabled)]) == [disabled])
        #expect(Self.sequences(store, [.deliveryReason(.expired)]) == [expired])
        #expect(Self.sequences(store, [.deliveryReason(.replaced)]).isEmpty)
        #expect(Self.sequences(store, [.delivery(.stored), .token(Self.plain)]).isEmpty)
    }

    @Test func aDelayedPushIsJudgedWhenItIsAnswered() throws {
        let store = DeliveryStore()
        store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
        let sequence = store.append(Self.push(Self.offline, status: nil))
        #expect(store.record(sequence: sequence)?.delivery == nil, "pending: nothing to judge yet")
        #expect(store.heldPushes(of: Self.offline).isEmpty)
        store.complete(
            sequence: sequence, with: DeliveryResponse(status: 200, reason: nil, respondedAt: Self.t0 + Self.minute))
        let record = try #require(store.record(sequence: sequence))
        #expect(record.delivery == .stored(at: Self.t0 + Self.minute, until: Self.t0 + Self.minute + Self.thirtyDays))
        #expect(store.heldPushes(of: Self.offline).map(\.held.push.sequence) == [sequence])
        // A delayed push answered with an error is not judged.
        let refused = store.append(Self.push(Self.offline, status: nil))
        store.complete(
            sequence: refused, with: DeliveryResponse(status: 400, reason: .badDeviceToken, respondedAt: Self.t0))
        #expect(store.record(sequence: refused)?.delivery == nil)
        #expect(store.heldPushes(of: Self.offline).count == 1)
    }
}
