import APNSMockCore
import APNSMockRegistry
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import APNSMockAdmin
@testable import APNSMockStore

/// `GET /v1/delivery-log/{uniqueId}`: a sandbox push's (or a broadcast's) delivery log, as the
/// Push Notifications Console shows it, found by its `apns-unique-id`.
@Suite struct DeliveryLogRoutesTests {
    static let t0: Int64 = 1_700_000_000_000
    static let offline = String(repeating: "0f", count: 32)
    static let plain = String(repeating: "ab", count: 32)
    static let channelID = "dGVzdC1jaGFubmVsLTE="

    static func withRouter(
        _ body: @escaping @Sendable (any TestClientProtocol, DeliveryStore) async throws -> Void
    ) async throws {
        let store = DeliveryStore()
        let executor = AdminExecutor()
        let router = AdminRouter.build(store: store, registry: Registry(), executor: executor, now: { Self.t0 })
        do {
            try await Application(router: router).test(.router) { client in try await body(client, store) }
        } catch {
            await executor.shutdown()
            throw error
        }
        await executor.shutdown()
    }

    static func push(_ token: String, uniqueID: ResponseMessageID?, at offset: Int64) -> DeliveryRecord {
        DeliveryRecord(
            receivedAt: t0 + offset, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/" + token, authority: nil,
            headerBlock: HeaderBlock([HTTPHeaderField(name: "apns-topic", value: "com.example.app")]), token: token,
            topic: "com.example.app", pushType: .alert, apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"),
            uniqueID: uniqueID, payload: Array("{}".utf8), payloadSize: 2,
            response: DeliveryResponse(status: 200, reason: nil, respondedAt: t0 + offset + 1))
    }

    static func events(_ answer: ChannelRoutesTests.Answer) -> [String] {
        (answer.json?["events"] as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
    }

    @Test func aPushToADeviceWithoutStateIsReceivedThenDelivered() async throws {
        try await Self.withRouter { client, store in
            let id = "A2C0A2A5-0D7C-4E3B-9D1F-6B8E2C4A1F00"
            store.append(Self.push(Self.plain, uniqueID: .echoed(id), at: 0))
            store.append(Self.push(Self.plain, uniqueID: nil, at: 5))
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/" + id.lowercased())
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(json["uniqueId"] as? String == id && json["kind"] as? String == "push")
            #expect(json["sequence"] as? Int == 1 && json["token"] as? String == Self.plain)
            #expect(json["apnsId"] as? String == "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")
            #expect(json["topic"] as? String == "com.example.app")
            let events = try #require(json["events"] as? [[String: Any]])
            #expect(events.map { $0["event"] as? String } == ["received", "delivered"])
            #expect(events.map { $0["at"] as? Int64 } == [Self.t0, Self.t0 + 1], "delivered when answered")
            #expect(json["deliveries"] == nil, "a push lists no per-device deliveries")
        }
    }

    @Test func aHeldPushShowsStoredThenDeliveredInTimeOrder() async throws {
        try await Self.withRouter { client, store in
            var random = SystemRandomNumberGenerator()
            let generated = ResponseMessageID.generate(using: &random, lowercase: true)
            store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
            store.append(Self.push(Self.offline, uniqueID: generated, at: 0))
            store.setDeviceConditions(.standard, of: Self.offline, now: Self.t0 + 60_000)
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/" + generated.text)
            #expect(answer.status == .ok)
            let events = try #require(answer.json?["events"] as? [[String: Any]])
            #expect(Self.events(answer) == ["received", "stored", "delivered"])
            #expect(events.map { $0["at"] as? Int64 } == [Self.t0, Self.t0 + 1, Self.t0 + 60_000])
            #expect(events[1]["until"] as? Int64 == Self.t0 + 1 + DeliverablePush.defaultLifetime)
            #expect(events[2]["until"] == nil && events[2]["reason"] == nil)
        }
    }

    @Test func aDiscardedPushNamesItsReason() async throws {
        try await Self.withRouter { client, store in
            let id = "0F5D1F0E-7A2B-4C3D-8E9F-112233445566"
            store.setDeviceConditions(
                DeviceConditions(installed: false, uninstalledAt: Self.t0), of: Self.offline, now: Self.t0)
            store.append(Self.push(Self.offline, uniqueID: .echoed(id), at: 0))
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/" + id)
            let events = try #require(answer.json?["events"] as? [[String: Any]])
            #expect(Self.events(answer) == ["received", "discarded"])
            #expect(events[1]["reason"] as? String == "tokenInactive")
        }
    }

    @Test func theNewestRecordWithTheIdIsShown() async throws {
        try await Self.withRouter { client, store in
            let id = "A2C0A2A5-0D7C-4E3B-9D1F-6B8E2C4A1F00"
            store.append(Self.push(Self.plain, uniqueID: .echoed(id), at: 0))
            // More than a scan chunk after it, then the same id again: the newest is found.
            for offset in 0..<Int64(DeliveryStore.scanChunk) + 10 {
                store.append(Self.push(Self.plain, uniqueID: nil, at: offset))
            }
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/" + id)
            #expect(answer.json?["sequence"] as? Int == 1, "found across chunks")
            let newest = store.append(Self.push(Self.offline, uniqueID: .echoed(id), at: 9))
            let again = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/" + id)
            #expect(again.json?["sequence"] as? UInt64 == newest && again.json?["token"] as? String == Self.offline)
        }
    }

    @Test func aBroadcastListsItsDeliveriesPerDevice() async throws {
        try await Self.withRouter { client, store in
            let id = "B1B2B3B4-C5C6-4D7D-8E8E-F9F0F1F2F3F4"
            var broadcast = DeliveryRecord(
                receivedAt: Self.t0, connectionID: 4, streamID: 9, environment: .production, method: "POST",
                path: "/4/broadcasts/apps/com.example.app", authority: nil,
                headerBlock: HeaderBlock([
                    HTTPHeaderField(name: "apns-channel-id", value: Self.channelID),
                    HTTPHeaderField(name: "apns-expiration", value: String((Self.t0 + 3_600_000) / 1000)),
                ]), token: nil, topic: "com.example.app", pushType: .liveactivity,
                apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"), uniqueID: .echoed(id),
                payload: Array("{}".utf8), payloadSize: 2,
                response: DeliveryResponse(status: 200, reason: nil, respondedAt: Self.t0 + 2), kind: .broadcast)
            broadcast.channelID = Self.channelID
            store.setDeviceConditions(DeviceConditions(presence: .offline), of: Self.offline, now: Self.t0)
            broadcast.sequence = store.append(broadcast)
            // Another push with the broadcast's apns-id is no delivery of it.
            store.append(Self.push(Self.plain, uniqueID: nil, at: 1))
            store.record(
                BroadcastFanOut(
                    of: broadcast, bundleID: "com.example.app", tokens: [Self.offline, Self.plain],
                    storagePolicy: .mostRecentMessageStored))
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/" + id)
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(json["kind"] as? String == "broadcast" && json["channelId"] as? String == Self.channelID)
            #expect(Self.events(answer) == ["received"], "a broadcast itself reaches no device")
            let deliveries = try #require(json["deliveries"] as? [[String: Any]])
            #expect(deliveries.map { $0["token"] as? String } == [Self.offline, Self.plain])
            let states = deliveries.map { ($0["delivery"] as? [String: Any])?["state"] as? String }
            #expect(states == ["stored", "delivered"])
            #expect((deliveries[0]["deliveryHistory"] as? [Any])?.count == 1)
            #expect((deliveries[1]["deliveryHistory"] as? [Any])?.isEmpty == true)
            #expect(json["moreDeliveries"] as? Bool == false)
        }
    }

    @Test func anUnknownIdIs404AndAMalformedOne400() async throws {
        try await Self.withRouter { client, store in
            store.append(Self.push(Self.plain, uniqueID: nil, at: 0))
            let missing = try await ChannelRoutesTests.call(
                client, .get, "/v1/delivery-log/00000000-0000-4000-8000-000000000000")
            #expect(missing.status == .notFound && missing.errorCode == "notFound")
            #expect(missing.errorMessage.contains("00000000-0000-4000-8000-000000000000"))
            let apnsIDIsNotAUniqueID = try await ChannelRoutesTests.call(
                client, .get, "/v1/delivery-log/7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")
            #expect(apnsIDIsNotAUniqueID.status == .notFound)
            let malformed = try await ChannelRoutesTests.call(client, .get, "/v1/delivery-log/not-a-uuid")
            #expect(malformed.status == .badRequest && malformed.errorCode == "badParameter")
            #expect(malformed.errorMessage.contains("'uniqueId' must be"), "\(malformed.errorMessage)")
            let extra = try await ChannelRoutesTests.call(
                client, .get, "/v1/delivery-log/00000000-0000-4000-8000-000000000000?token=ab")
            #expect(extra.status == .badRequest)
        }
    }
}
