import APNSMockCore
import Foundation
import Testing

@testable import APNSMockStore

/// A broadcast's deliveries, stored as one shared part plus a token each: they read back
/// exactly as records stored one by one would, wherever a reader meets them, and the shared
/// part goes with the last of them.
@Suite struct BroadcastFanOutTests {
    static let channelID = "dGVzdC1jaGFubmVsLTE="

    static func broadcast() -> DeliveryRecord {
        var record = DeliveryRecord(
            receivedAt: 1_700_000_000_000, connectionID: 4, streamID: 9, environment: .production, method: "POST",
            path: "/4/broadcasts/apps/com.example.app", authority: "localhost",
            headerBlock: HeaderBlock([
                HTTPHeaderField(name: "apns-channel-id", value: channelID),
                HTTPHeaderField(name: "apns-push-type", value: "liveactivity"),
                HTTPHeaderField(name: "apns-expiration", value: "0"),
            ]), token: nil, topic: "com.example.app", pushType: .liveactivity,
            apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"), uniqueID: nil,
            payload: Array(#"{"aps":{"event":"update","content-state":{"score":"2-1"},"timestamp":1}}"#.utf8),
            payloadSize: 71,
            response: DeliveryResponse(status: 200, reason: nil, respondedAt: 1_700_000_000_002), kind: .broadcast)
        record.channelID = channelID
        return record
    }

    static func tokens(_ count: Int) -> Set<String> {
        Set((0..<count).map { String(format: "%08x", $0 * 7919) + String(repeating: "cd", count: 28) })
    }

    static func json(_ record: DeliveryRecord) -> String {
        String(decoding: DeliveryRecordJSON.encode(record), as: UTF8.self)
    }

    /// The same deliveries stored as a fan-out and one by one read back the same, by token,
    /// by apns-id and in a scan.
    @Test func deliveriesReadBackAsRecordsStoredOneByOne() throws {
        let fanOut = BroadcastFanOut(of: Self.broadcast(), bundleID: "com.example.app", tokens: Self.tokens(300))
        let shared = DeliveryStore()
        let separate = DeliveryStore()
        shared.record(fanOut)
        for token in fanOut.tokens.sorted() { separate.record(fanOut.record(for: token)) }
        let all = shared.query(DeliveryQuery(matcher: DeliveryMatcher(), limit: 1000)).deliveries
        let expected = separate.query(DeliveryQuery(matcher: DeliveryMatcher(), limit: 1000)).deliveries
        #expect(all.count == 300)
        #expect(all.map(Self.json) == expected.map(Self.json))
        let first = try #require(all.first)
        #expect(first.kind == .push && first.viaChannel && first.channelID == Self.channelID)
        #expect(first.topic == "com.example.app.push-type.liveactivity")
        #expect(first.path == "/4/broadcasts/apps/com.example.app" && first.payload == Self.broadcast().payload)
        #expect(first.token == fanOut.tokens.sorted().first)

        let token = try #require(fanOut.tokens.sorted().last)
        let byToken = shared.query(DeliveryQuery.where(token: token)).deliveries
        #expect(byToken.map(Self.json) == [Self.json(try #require(all.last))])
        #expect(shared.latest(apnsID: "7f4c2b9e-1d3a-4f5b-8c6d-0e1f2a3b4c5d")?.token == token)
        let byID = shared.query(DeliveryQuery.where(apnsID: "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")).total
        #expect(byID == 300)
    }

    /// A store smaller than the fan-out keeps its newest deliveries; once the last one is
    /// evicted, so is the shared part.
    @Test func evictionTakesTheSharedPartWithTheLastDelivery() throws {
        let store = DeliveryStore(capacity: 100)
        let fanOut = BroadcastFanOut(of: Self.broadcast(), bundleID: "com.example.app", tokens: Self.tokens(5000))
        store.record(fanOut)
        #expect(store.count == 100)
        let kept = store.query(DeliveryQuery(matcher: DeliveryMatcher(), limit: 100)).deliveries
        #expect(kept.map(\.token) == fanOut.tokens.sorted().suffix(100).map { $0 })
        #expect(kept.allSatisfy { $0.payload == Self.broadcast().payload })
        #expect(store.sharedPartCount == 1)
        for _ in 0..<99 { store.record(DeliveryStoreTests.draft()) }
        #expect(store.sharedPartCount == 1, "one delivery still refers to it")
        store.record(DeliveryStoreTests.draft())
        #expect(store.sharedPartCount == 0)
        #expect(store.query(DeliveryQuery.where(token: try #require(fanOut.tokens.first))).total == 0)
    }

    /// Small fan-outs are stored before `deliver` returns (before the broadcast's answer goes
    /// out); large ones in the background, counted until stored.
    @Test func largeFanOutsAreStoredInTheBackground() async throws {
        let store = DeliveryStore(capacity: 10_000)
        let small = BroadcastFanOut(
            of: Self.broadcast(), bundleID: "com.example.app", tokens: Self.tokens(DeliveryStore.inlineFanOut))
        store.deliver(small)
        #expect(store.count == DeliveryStore.inlineFanOut)
        let large = BroadcastFanOut(of: Self.broadcast(), bundleID: "com.example.app", tokens: Self.tokens(5000))
        store.deliver(large)
        await store.deliveriesStored()
        #expect(store.pendingDeliveries == 0)
        #expect(store.count == DeliveryStore.inlineFanOut + 5000)
        #expect(store.sharedPartCount == 2)
        store.removeAll()
        #expect(store.sharedPartCount == 0)
    }
}
