import APNSMockCore
import APNSMockStore
import Testing

/// Issue 31, item 8: a reader that fell behind gets runs of records summarised from the store's
/// columns (`DeliveryStore.summary`, `DeliveryFollower.summarize`) instead of each record.
@Suite struct DeliverySummaryTests {
    static let mine = String(repeating: "ab", count: 8)
    static let other = String(repeating: "cd", count: 8)

    /// A record for `token` answered `status` (with `BadDeviceToken` when it is 400).
    static func record(_ token: String, status: Int = 200) -> DeliveryRecord {
        var record = DeliveryFollowerTests.record(token)
        record.response = DeliveryResponse(
            status: status, reason: status == 400 ? .badDeviceToken : nil, respondedAt: 2)
        return record
    }

    /// 200, 200, 400 for `mine`; then 200 for `other`; then one pending for `mine`: 5 records.
    static func filled(capacity: Int = 100) -> DeliveryStore {
        let store = DeliveryStore(capacity: capacity)
        store.append(record(mine))
        store.append(record(mine))
        store.append(record(mine, status: 400))
        store.append(record(other))
        store.append(DeliveryFollowerTests.pending(mine))
        return store
    }

    @Test func countsEveryRecordByStatusAndOutcome() throws {
        let summary = try #require(Self.filled().summary(of: DeliveryMatcher(), after: 0, through: 5))
        #expect(
            summary
                == DeliverySummary(
                    from: 1, to: 5, count: 5, byStatus: [200: 3, 400: 1], byOutcome: [.answered: 4, .pending: 1]))
    }

    @Test(
        arguments: [
            (DeliveryMatcher([.status(400)]), 1, [400: 1]),  // a column
            (DeliveryMatcher([.reason("BadDeviceToken")]), 1, [400: 1]),  // an interned column
            (DeliveryMatcher([.token(mine)]), 4, [200: 2, 400: 1]),  // the token index
            (DeliveryMatcher([.tokenPrefix("cd")]), 1, [200: 1]),  // decoded, matched, not rendered
            (DeliveryMatcher([.topic("no.such.topic")]), 0, [:]),  // matches nothing
        ] as [(DeliveryMatcher, Int, [Int: Int])])
    func countsOnlyWhatTheFilterMatches(matcher: DeliveryMatcher, count: Int, byStatus: [Int: Int]) throws {
        let summary = try #require(Self.filled().summary(of: matcher, after: 0, through: 5))
        #expect(summary.count == count)
        #expect(summary.byStatus == byStatus)
        #expect(summary.from == 1 && summary.to == 5, "the whole range is accounted for, matched or not")
    }

    @Test func aRangeStartingInsideTheTokenIndexSkipsEarlierRecords() throws {
        let summary = try #require(
            Self.filled().summary(of: DeliveryMatcher([.token(Self.mine)]), after: 2, through: 4))
        #expect(summary.from == 3 && summary.to == 4)
        #expect(summary.count == 1 && summary.byStatus == [400: 1])
    }

    @Test func recordsThatAgedOutAreCountedApart() throws {
        let store = DeliveryStore(capacity: 3)
        for status in [200, 200, 400, 400, 200, 400, 400] { store.append(Self.record(Self.mine, status: status)) }
        // 1…4 aged out; 5, 6, 7 are stored.
        let summary = try #require(store.summary(of: DeliveryMatcher(), after: 0, through: 6))
        #expect(
            summary
                == DeliverySummary(
                    from: 1, to: 6, count: 2, byStatus: [200: 1, 400: 1], byOutcome: [.answered: 2], agedOut: 4))
        let gone = try #require(store.summary(of: DeliveryMatcher(), after: 1, through: 3))
        #expect(gone == DeliverySummary(from: 2, to: 3, agedOut: 2))
    }

    @Test func neverPastTheNewestRecordNorTheLimit() throws {
        let store = Self.filled()
        #expect(store.summary(of: DeliveryMatcher(), after: 5, through: 9) == nil)
        #expect(try #require(store.summary(of: DeliveryMatcher(), after: 3, through: 9)).to == 5)
        let large = DeliveryStore(capacity: 10_000)
        for _ in 0..<5000 { large.append(Self.record(Self.mine)) }
        let summary = try #require(large.summary(of: DeliveryMatcher(), after: 0, through: 5000))
        #expect(summary.to == DeliveryStore.summaryLimit)
        #expect(summary.count == Int(DeliveryStore.summaryLimit))
    }

    @Test func deletedRecordsAreNotCounted() throws {
        let store = Self.filled()
        store.remove(matching: DeliveryMatcher([.status(400)]))
        #expect(try #require(store.summary(of: DeliveryMatcher(), after: 0, through: 5)).count == 4)
    }

    /// The follower moves past what it summarised: its backlog shrinks, the next `advance`
    /// hands out only later records, and nothing is reported missed twice.
    @Test func theFollowerMovesPastASummary() throws {
        let store = DeliveryStore(capacity: 4)
        let follower = DeliveryFollower(store: store, query: DeliveryQuery(), after: 0)
        for _ in 0..<10 { store.append(Self.record(Self.mine)) }
        #expect(follower.backlog == 10)
        let summary = try #require(follower.summarize(next: 8))
        #expect(
            summary
                == DeliverySummary(from: 1, to: 8, count: 2, byStatus: [200: 2], byOutcome: [.answered: 2], agedOut: 6))
        #expect(follower.cursor == 8 && follower.backlog == 2)
        let step = follower.advance()
        #expect(step.missed == 0)
        #expect(step.new.map(\.sequence) == [9, 10])
        #expect(follower.summarize(next: 5) == nil, "nothing is waiting")
        #expect(follower.backlog == 0)
    }
}

extension DeliverySummaryTests {
    /// An `apnsId` filter counts the record whose id Core generated (not indexed) as well as
    /// those a client sent it on, as a query does.
    @Test func anAPNSIDFilterCountsAGeneratedID() throws {
        let store = DeliveryStore(capacity: 100)
        var random = FastRandom(seed: (1, 2, 3, 4))
        var generated = Self.record(Self.mine)
        generated.apnsID = .generate(using: &random)
        store.append(Self.record(Self.other))
        store.append(generated)
        store.append(Self.record(Self.mine))
        let matcher = DeliveryMatcher([.apnsID(generated.apnsID.text)])
        #expect(store.query(DeliveryQuery(matcher: matcher)).total == 1)
        let summary = try #require(store.summary(of: matcher, after: 0, through: 3))
        #expect(summary.count == 1 && summary.from == 1 && summary.to == 3)
    }
}
