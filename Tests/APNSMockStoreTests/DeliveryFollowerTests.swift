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
        #expect(follower.advance().new.map(\.sequence) == [1])
        #expect(follower.cursor == 2)
        #expect(follower.advance().new.isEmpty)
        store.append(Self.record(mine))
        #expect(follower.advance().new.map(\.sequence) == [3])
    }

    /// Found by schemathesis: `GET /v1/deliveries/wait?since=18446744073709551615` crashed the
    /// server (`cursor + 1` overflowed).
    @Test func theLargestCursorFindsNothingAndDoesNotOverflow() {
        let store = DeliveryStore(capacity: 2)
        for _ in 0..<3 { store.append(Self.record(String(repeating: "ab", count: 8))) }
        var follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: .max)
        store.append(Self.record(String(repeating: "ab", count: 8)))  // drops one: the missed count too
        let step = follower.advance()
        #expect(step.new.isEmpty && step.missed == 0)
        var bounded = DeliveryFollower(store: store, query: DeliveryQuery(before: 0), after: 0)
        #expect(bounded.advance().new.isEmpty)
    }

    @Test func countsRecordsThatAgedOutUnread() {
        let store = DeliveryStore(capacity: 5)
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        for _ in 0..<12 { store.append(Self.record(String(repeating: "ab", count: 8))) }
        let step = follower.advance()
        #expect(step.missed == 7)
        #expect(step.new.map(\.sequence) == [8, 9, 10, 11, 12])
    }

    @Test func pagesThroughLargeBacklogs() {
        let store = DeliveryStore(capacity: 5000)
        for _ in 0..<2500 { store.append(Self.record(String(repeating: "ab", count: 8))) }
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        #expect(follower.advance(limit: 10_000).new.count == 2500)
        #expect(follower.cursor == 2500)
    }

    static func pending(_ token: String) -> DeliveryRecord {
        var record = Self.record(token)
        record.response = nil
        record.outcome = .pending
        return record
    }

    static let answered = DeliveryResponse(status: 200, reason: nil, respondedAt: 5)

    /// Issue 18: a filter on the answer judges the completed record. A delayed push is stored
    /// pending; a follower filtered on `status=200` hands it out once it is answered.
    @Test func aFilterOnTheAnswerFindsADelayedRecordWhenItIsAnswered() {
        let store = DeliveryStore()
        let token = String(repeating: "ab", count: 8)
        let follower = DeliveryFollower(
            store: store, query: DeliveryQuery(matcher: DeliveryMatcher([.status(200)])), after: 0)
        let delayed = store.append(Self.pending(token))
        let step = follower.advance()
        #expect(step.new.isEmpty && step.completed.isEmpty)
        #expect(follower.watchedCount == 1)
        store.complete(sequence: delayed, with: Self.answered)
        let after = follower.advance()
        #expect(after.new.isEmpty)
        #expect(after.completed.map(\.sequence) == [delayed])
        #expect(after.completed.first?.status == 200)
        #expect(follower.watchedCount == 0)
        #expect(follower.advance().completed.isEmpty, "handed out once")
    }

    /// An unfiltered follower hands a delayed record out twice: pending, then answered.
    @Test func anUnfilteredFollowerSeesThePendingThenTheAnsweredForm() {
        let store = DeliveryStore()
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        let delayed = store.append(Self.pending(String(repeating: "ab", count: 8)))
        let first = follower.advance()
        #expect(first.new.map(\.outcome) == [.pending])
        store.append(Self.record(String(repeating: "cd", count: 8)))
        store.complete(sequence: delayed, with: Self.answered)
        let second = follower.advance()
        #expect(second.new.map(\.sequence) == [delayed + 1])
        #expect(second.completed.map(\.sequence) == [delayed])
        #expect(second.completed.map(\.outcome) == [.answered])
    }

    /// A hung stream is handed out as hung, then again when the client gives up (cancelled).
    @Test func aHungRecordIsHandedOutAgainWhenItEnds() {
        let store = DeliveryStore()
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        var hung = Self.pending(String(repeating: "ab", count: 8))
        hung.outcome = .hung
        let sequence = store.append(hung)
        #expect(follower.advance().new.map(\.outcome) == [.hung])
        store.complete(sequence: sequence, with: nil, outcome: .cancelled)
        #expect(follower.advance().completed.map(\.outcome) == [.cancelled])
        #expect(follower.watchedCount == 0)
    }

    /// A record completed between being noted and being read is read completed, once.
    @Test func aRecordCompletedBeforeTheFirstReadIsHandedOutOnce() {
        let store = DeliveryStore()
        let follower = DeliveryFollower(
            store: store, query: DeliveryQuery(matcher: DeliveryMatcher([.status(200)])), after: 0)
        let sequence = store.append(Self.pending(String(repeating: "ab", count: 8)))
        store.complete(sequence: sequence, with: Self.answered)
        let step = follower.advance()
        #expect(step.new.map(\.sequence) == [sequence])
        #expect(step.completed.isEmpty)
        store.append(Self.record(String(repeating: "cd", count: 8)))
        let next = follower.advance()
        #expect(next.completed.isEmpty)
        #expect(next.new.count == 1)
    }

    /// An evicted or deleted watched record stops being watched.
    @Test func evictedWatchedRecordsAreForgotten() {
        let store = DeliveryStore(capacity: 2)
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        let sequence = store.append(Self.pending(String(repeating: "ab", count: 8)))
        _ = follower.advance()
        #expect(follower.watchedCount == 1)
        store.append(Self.record(String(repeating: "cd", count: 8)))
        store.append(Self.record(String(repeating: "cd", count: 8)))
        store.complete(sequence: sequence + 2, with: Self.answered)
        _ = follower.advance()
        #expect(follower.watchedCount == 0)
    }
}
