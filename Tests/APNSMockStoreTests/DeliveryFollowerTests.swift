import APNSMockCore
import APNSMockStore
import Testing

@Suite struct DeliveryFollowerTests {
    static func record(_ token: String) -> DeliveryRecord {
        DeliveryRecord(
            receivedAt: 1, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/" + token, authority: nil, headerBlock: HeaderBlock(), token: token, topic: "t",
            pushType: .alert, apnsID: .echoed("7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D"), uniqueID: nil, payload: [],
            payloadSize: 0, response: DeliveryResponse(status: 200, reason: nil, respondedAt: 2))
    }

    @Test func examinesOnlyNewRecords() {
        let store = DeliveryStore()
        let mine = String(repeating: "ab", count: 8)
        let other = String(repeating: "cd", count: 8)
        let follower = DeliveryFollower(
            store: store, query: DeliveryQuery(matcher: DeliveryMatcher([.token(mine)])), after: 0)
        store.append(Self.record(mine))
        store.append(Self.record(other))
        #expect(follower.advance().records.map(\.sequence) == [1])
        #expect(follower.cursor == 2)
        #expect(follower.advance().records.isEmpty)
        store.append(Self.record(mine))
        #expect(follower.advance().records.map(\.sequence) == [3])
    }

    /// Found by schemathesis: `GET /v1/deliveries/wait?since=18446744073709551615` crashed the
    /// server (`cursor + 1` overflowed).
    @Test func theLargestCursorFindsNothingAndDoesNotOverflow() {
        let store = DeliveryStore(capacity: 2)
        for _ in 0..<3 { store.append(Self.record(String(repeating: "ab", count: 8))) }
        var follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: .max)
        store.append(Self.record(String(repeating: "ab", count: 8)))  // drops one: the missed count too
        let (records, missed) = follower.advance()
        #expect(records.isEmpty && missed == 0)
        var bounded = DeliveryFollower(store: store, query: DeliveryQuery(before: 0), after: 0)
        #expect(bounded.advance().records.isEmpty)
    }

    @Test func countsRecordsThatAgedOutUnread() {
        let store = DeliveryStore(capacity: 5)
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        for _ in 0..<12 { store.append(Self.record(String(repeating: "ab", count: 8))) }
        let (records, missed) = follower.advance()
        #expect(missed == 7)
        #expect(records.map(\.sequence) == [8, 9, 10, 11, 12])
    }

    @Test func pagesThroughLargeBacklogs() {
        let store = DeliveryStore(capacity: 5000)
        for _ in 0..<2500 { store.append(Self.record(String(repeating: "ab", count: 8))) }
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        #expect(follower.advance(limit: 10_000).records.count == 2500)
        #expect(follower.cursor == 2500)
    }
}
