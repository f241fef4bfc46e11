import APNSMockCore
import Foundation
import Synchronization
import Testing

@testable import APNSMockStore

@Suite struct DeliveryStoreTests {
    static func draft(
        token: String? = String(repeating: "ab", count: 32), topic: String = "com.example.app", status: Int = 200,
        apnsID: String = "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D", pushType: APNSPushType = .alert,
        payload: String = #"{"aps":{"alert":"hi"}}"#
    ) -> DeliveryRecord {
        DeliveryRecord(
            receivedAt: 1_700_000_000_000, connectionID: 3, streamID: 5,
            environment: .sandbox, method: "POST", path: "/3/device/" + (token ?? "zz"), authority: "localhost",
            headerBlock: HeaderBlock([
                HTTPHeaderField(name: "apns-topic", value: topic),
                HTTPHeaderField(name: "apns-push-type", value: pushType.rawValue),
                HTTPHeaderField(name: "authorization", value: "bearer aGVhZA.Y2xhaW1z.c2lnbmF0dXJl"),
            ]), token: token ?? "zz", topic: topic, pushType: pushType, apnsID: .echoed(apnsID),
            uniqueID: nil, payload: Array(payload.utf8), payloadSize: payload.utf8.count,
            response: DeliveryResponse(
                status: status, reason: status == 200 ? nil : .badDeviceToken, respondedAt: 1_700_000_000_001))
    }

    @Test func recordsRoundTrip() throws {
        let store = DeliveryStore()
        let sequence = store.append(Self.draft())
        #expect(sequence == 1)
        let record = try #require(store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.token == String(repeating: "ab", count: 32))
        #expect(record.path == "/3/device/" + String(repeating: "ab", count: 32))
        #expect(record.topic == "com.example.app")
        #expect(record.pushType == .alert)
        #expect(record.connectionID == 3 && record.streamID == 5)
        #expect(record.headers.count == 3)
        #expect(record.payload == Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        #expect(record.payloadKind == .object)
        #expect(record.response?.respondedAt == 1_700_000_000_001)
    }

    @Test func authorizationIsKeptWithoutItsSignature() throws {
        let store = DeliveryStore()
        store.append(Self.draft())
        let record = try #require(store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.header("authorization") == "bearer aGVhZA.Y2xhaW1z")
        #expect(!record.headers.contains { $0.value.contains("c2lnbmF0dXJl") })
    }

    /// A filtered scan reads the store in chunks (the lock is taken per chunk); pages and totals
    /// must come out as one scan would give them, across chunk borders, both ways, after eviction.
    @Test func filteredScansAcrossChunks() throws {
        let chunk = Int(DeliveryStore.scanChunk)
        let store = DeliveryStore(capacity: chunk * 3)
        let count = chunk * 3 + 500  // the first 500 are evicted
        for index in 0..<count { store.append(Self.draft(topic: index % 3 == 0 ? "com.example.a" : "com.example.b")) }
        let kept = (500..<count).filter { $0 % 3 == 0 }.map { UInt64($0 + 1) }
        let firstPage = store.query(DeliveryQuery.where(topic: "com.example.a", limit: 7))
        #expect(firstPage.total == kept.count)
        #expect(firstPage.deliveries.map(\.sequence) == Array(kept.prefix(7)))
        // Page on from a cursor in the middle of a later chunk, ascending and descending.
        let cursor = kept[kept.count / 2]
        let ascending = store.query(DeliveryQuery.where(topic: "com.example.a", since: cursor, limit: 5))
        #expect(ascending.deliveries.map(\.sequence) == Array(kept.filter { $0 > cursor }.prefix(5)))
        #expect(ascending.total == kept.filter { $0 > cursor }.count)
        let descending = store.query(
            DeliveryQuery.where(topic: "com.example.a", before: cursor, limit: 5, order: .desc))
        #expect(descending.deliveries.map(\.sequence) == Array(kept.filter { $0 < cursor }.reversed().prefix(5)))
        #expect(descending.total == kept.filter { $0 < cursor }.count)
        let all = store.query(DeliveryQuery.where(topic: "com.example.a", limit: count, order: .desc))
        #expect(all.deliveries.map(\.sequence) == kept.reversed())
        #expect(all.next == nil)
    }

    /// Generated ids are stored as Core decided them (no index entry: their low bits in a
    /// column); look-ups must find them in any letter case, and together with pushes that echoed
    /// the same id.
    @Test func generatedIDsAreFoundWithoutAnIndex() throws {
        let store = DeliveryStore(capacity: 100)
        var random = FastRandom()
        var generated: [String] = []
        for index in 0..<20 {
            var draft = Self.draft()
            draft.apnsID = .generate(using: &random)
            #expect(store.record(draft) == UInt64(index + 1))
            #expect(store.record(sequence: UInt64(index + 1))?.apnsID == draft.apnsID, "the id as decided")
            generated.append(draft.apnsID.text)
        }
        #expect(Set(generated).count == generated.count)
        let seventh = try #require(store.latest(apnsID: generated[6].lowercased()))
        #expect(seventh.sequence == 7 && seventh.apnsIDGenerated)
        // A client re-sends the id it got back: both records match it, oldest first.
        let resent = store.append(Self.draft(apnsID: generated[6]))
        let page = store.query(DeliveryQuery.where(apnsID: generated[6]))
        #expect(page.deliveries.map(\.sequence) == [7, resent])
        #expect(store.latest(apnsID: generated[6])?.sequence == resent)
        // An id of the right shape that was never generated, and one that points at a record
        // whose id differs.
        #expect(store.latest(apnsID: "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5E") == nil)
        #expect(store.query(DeliveryQuery.where(apnsID: "00000000-0000-4000-8000-000000000001")).total == 0)
    }

    /// A generated id is searched for chunk by chunk (`scanChunk` records per lock hold): one
    /// in the oldest record of a store several chunks long is found, one never generated is
    /// not, and `latest` prefers a client's newer re-send of the id.
    @Test func generatedIDsAreFoundAcrossChunks() throws {
        let count = Int(DeliveryStore.scanChunk) * 3 + 17
        let store = DeliveryStore(capacity: count)
        var random = FastRandom()
        var oldest = Self.draft()
        oldest.apnsID = .generate(using: &random)
        store.record(oldest)
        for _ in 1..<count {
            var draft = Self.draft()
            draft.apnsID = .generate(using: &random)
            store.record(draft)
        }
        #expect(store.latest(apnsID: oldest.apnsID.text)?.sequence == 1)
        #expect(store.query(DeliveryQuery.where(apnsID: oldest.apnsID.text)).deliveries.map(\.sequence) == [1])
        #expect(store.latest(apnsID: "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5E") == nil)
        let resent = store.append(Self.draft(apnsID: oldest.apnsID.text))
        #expect(store.latest(apnsID: oldest.apnsID.text)?.sequence == resent)
    }

    @Test func oldestRecordsGoWhenFull() {
        let store = DeliveryStore(capacity: 3)
        for index in 0..<5 { store.append(Self.draft(token: String(format: "%016x", index))) }
        #expect(store.count == 3)
        #expect(store.dropped == 2)
        let page = store.query(DeliveryQuery.where())
        #expect(page.deliveries.map(\.sequence) == [3, 4, 5])
        #expect(page.dropped == 2)
        #expect(store.query(DeliveryQuery.where(token: String(format: "%016x", 0))).total == 0)
        #expect(store.query(DeliveryQuery.where(token: String(format: "%016x", 4))).total == 1)
    }

    /// The token index through eviction, for each kind of key: 32-byte tokens (indexed by
    /// their bits, taken from the packed bytes when evicted), a 16-byte one and an upper-case
    /// one (by their text). A token whose records all aged out is gone from the index.
    @Test func theTokenIndexFollowsEvictionForEveryKindOfToken() {
        let store = DeliveryStore(capacity: 4)
        let first = String(repeating: "0123456789abcdef", count: 4)
        let second = String(repeating: "fedcba9876543210", count: 4)
        let short = String(repeating: "5a", count: 16)
        let upper = String(repeating: "AB", count: 32)
        let tokens = [first, second, first, short, upper, first, second, short, first]
        for token in tokens { store.append(Self.draft(token: token)) }
        // Sequences 6–9 remain: first (6, 9), second (7), short (8).
        func sequences(_ token: String) -> [UInt64] {
            store.query(DeliveryQuery.where(token: token)).deliveries.map(\.sequence)
        }
        #expect(sequences(first) == [6, 9])
        #expect(sequences(second) == [7])
        #expect(sequences(short) == [8])
        #expect(sequences(upper).isEmpty)
        #expect(sequences(upper.lowercased()).isEmpty)
    }

    @Test func aTokenKeyIsTheSameFromTextAndFromPackedBytes() {
        let text = String(repeating: "0123456789abcdef", count: 4)
        let bytes = [UInt8](repeating: 0, count: 4).flatMap { _ in
            [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF] as [UInt8]
        }
        let packed = bytes.withUnsafeBytes { TokenKey(packed: $0) { "unused" } }
        #expect(TokenKey(text) == packed)
        #expect(TokenKey(text).hashValue == packed.hashValue)
        #expect(
            packed == .bits(0x0123_4567_89AB_CDEF, 0x0123_4567_89AB_CDEF, 0x0123_4567_89AB_CDEF, 0x0123_4567_89AB_CDEF))
        // Other texts are keys as they are: no two texts share a key.
        #expect(TokenKey(text.uppercased()) == .text(text.uppercased()))
        #expect(TokenKey(String(text.dropLast(2))) == .text(String(text.dropLast(2))))
        #expect(TokenKey(String(text.dropLast()) + "g") == .text(String(text.dropLast()) + "g"))
        let eight: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF, 0, 1, 2, 3]
        #expect(eight.withUnsafeBytes { TokenKey(packed: $0) { "deadbeef00010203" } } == TokenKey("deadbeef00010203"))
    }

    @Test func resetKeepsSequenceNumbersCounting() {
        let store = DeliveryStore()
        store.append(Self.draft())
        store.append(Self.draft())
        store.removeAll()
        #expect(store.count == 0)
        #expect(store.query(DeliveryQuery.where()).total == 0)
        #expect(store.append(Self.draft()) == 3)
    }

    @Test func filtersAndPaging() {
        let store = DeliveryStore()
        let tokenA = String(repeating: "0a", count: 32)
        let tokenB = String(repeating: "0b", count: 32)
        for index in 0..<10 {
            store.append(
                Self.draft(
                    token: index.isMultiple(of: 2) ? tokenA : tokenB, topic: index < 5 ? "com.a" : "com.b",
                    status: index == 7 ? 400 : 200, pushType: index == 3 ? .background : .alert))
        }
        #expect(store.query(DeliveryQuery.where(token: tokenA.uppercased())).total == 5)
        #expect(store.query(DeliveryQuery.where(topic: "com.b")).total == 5)
        #expect(store.query(DeliveryQuery.where(topic: "com.never")).total == 0)
        #expect(store.query(DeliveryQuery.where(pushType: .background)).deliveries.map(\.sequence) == [4])
        #expect(store.query(DeliveryQuery.where(status: 400)).deliveries.map(\.sequence) == [8])
        #expect(
            store.query(DeliveryQuery.where(token: tokenB, topic: "com.b")).deliveries.map(\.sequence) == [6, 8, 10])

        let first = store.query(DeliveryQuery.where(limit: 4))
        #expect(first.deliveries.map(\.sequence) == [1, 2, 3, 4])
        #expect(first.next == 4)
        #expect(first.total == 10)
        let second = store.query(DeliveryQuery.where(since: first.next, limit: 4))
        #expect(second.deliveries.map(\.sequence) == [5, 6, 7, 8])
        let last = store.query(DeliveryQuery.where(since: second.next, limit: 4))
        #expect(last.deliveries.map(\.sequence) == [9, 10])
        #expect(last.next == nil)

        let descending = store.query(DeliveryQuery.where(token: tokenA, limit: 2, order: .desc))
        #expect(descending.deliveries.map(\.sequence) == [9, 7])
        #expect(descending.next == 7)
        let more = store.query(DeliveryQuery.where(token: tokenA, before: descending.next, limit: 2, order: .desc))
        #expect(more.deliveries.map(\.sequence) == [5, 3])
    }

    @Test func unfilteredPagesInBothOrders() {
        let store = DeliveryStore(capacity: 5)
        for _ in 0..<8 { store.append(Self.draft()) }  // holds 4...8
        #expect(store.query(DeliveryQuery.where(limit: 2)).deliveries.map(\.sequence) == [4, 5])
        #expect(store.query(DeliveryQuery.where(limit: 2)).next == 5)
        #expect(store.query(DeliveryQuery.where(limit: 2, order: .desc)).deliveries.map(\.sequence) == [8, 7])
        #expect(
            store.query(DeliveryQuery.where(before: 7, limit: 2, order: .desc)).deliveries.map(\.sequence) == [6, 5])
        #expect(store.query(DeliveryQuery.where(since: 5, before: 8)).deliveries.map(\.sequence) == [6, 7])
        #expect(store.query(DeliveryQuery.where(since: 5, before: 8)).total == 2)
        #expect(store.query(DeliveryQuery.where(before: 0)).total == 0)
        #expect(store.query(DeliveryQuery.where(since: UInt64.max)).total == 0)
        #expect(store.query(DeliveryQuery.where(since: 100)).deliveries.isEmpty)
        #expect(store.query(DeliveryQuery.where(before: 2)).total == 0)
    }

    @Test func latestByAPNSIDIgnoresLetterCase() {
        let store = DeliveryStore()
        store.append(Self.draft(status: 400))
        store.append(Self.draft(status: 200))
        store.append(Self.draft(apnsID: "00000000-0000-4000-8000-000000000000"))
        let latest = store.latest(apnsID: "7f4c2b9e-1d3a-4f5b-8c6d-0e1f2a3b4c5d")
        #expect(latest?.sequence == 2)
        #expect(store.latest(apnsID: "11111111-0000-4000-8000-000000000000") == nil)
        #expect(store.query(DeliveryQuery.where(apnsID: "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5D")).total == 2)
    }

    @Test func invalidTokensAreStillRecordedAndFilterable() {
        let store = DeliveryStore()
        store.append(Self.draft(token: nil, status: 400))
        let page = store.query(DeliveryQuery.where(token: "ZZ"))
        #expect(page.total == 1)
        #expect(page.deliveries.first?.token == "zz")
    }

    @Test func concurrentAppendsLoseNothing() async {
        let store = DeliveryStore(capacity: 100_000)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for index in 0..<2_000 {
                        store.append(Self.draft(token: String(format: "%08x%08x", worker, index)))
                    }
                }
            }
        }
        #expect(store.count == 8_000)
        let sequences = store.query(DeliveryQuery.where(limit: 10_000)).deliveries.map(\.sequence)
        #expect(sequences == Array(1...8_000))
    }
}

@Suite struct DeliveryStoreMatcherTests {
    static func record(token: String = String(repeating: "ab", count: 32), title: String = "Hi", status: Int? = 200)
        -> DeliveryRecord
    {
        var record = DeliveryStoreTests.draft(token: token, payload: #"{"aps":{"alert":{"title":"\#(title)"}}}"#)
        if let status {
            record.response?.status = status
            if status == 410 {
                record.response?.reason = .unregistered
                record.response?.timestamp = 1_600_000_000_000
            }
        } else {
            record.response = nil
        }
        return record
    }

    @Test func queriesDecodeForConditionsTheColumnsCannotDecide() throws {
        let store = DeliveryStore()
        store.append(Self.record(title: "Welcome"))
        store.append(Self.record(title: "Other"))
        store.append(Self.record(token: String(repeating: "cd", count: 32), title: "Welcome"))
        var matcher = DeliveryMatcher()
        try matcher.add(queryParameter: "payload.aps.alert.title", value: "Welcome")
        #expect(store.query(DeliveryQuery(matcher: matcher)).deliveries.map(\.sequence) == [1, 3])
        matcher.append(.token(String(repeating: "AB", count: 32)))
        #expect(store.query(DeliveryQuery(matcher: matcher)).deliveries.map(\.sequence) == [1])
        try matcher.add(queryParameter: "headers.apns-topic", value: "com.example.app")
        #expect(store.query(DeliveryQuery(matcher: matcher)).total == 1)
    }

    @Test func scopedRemovalLeavesTheRest() throws {
        let store = DeliveryStore(capacity: 10)
        let other = String(repeating: "cd", count: 32)
        for index in 0..<6 {
            store.append(Self.record(token: index % 2 == 0 ? other : String(repeating: "ab", count: 32)))
        }
        #expect(store.remove(matching: DeliveryMatcher([.token(other)])) == 3)
        #expect(store.count == 3)
        #expect(store.query(DeliveryQuery()).deliveries.map(\.sequence) == [2, 4, 6])
        #expect(store.query(DeliveryQuery()).total == 3)
        #expect(store.query(DeliveryQuery(matcher: DeliveryMatcher([.token(other)]))).total == 0)
        #expect(store.query(DeliveryQuery(limit: 2, order: .desc)).deliveries.map(\.sequence) == [6, 4])
        // Deleted records still age out in order; the count stays right.
        for _ in 0..<10 { store.append(Self.record()) }
        #expect(store.count == 10)
        #expect(store.remove(matching: DeliveryMatcher()) == 10)
        #expect(store.count == 0)
    }

    @Test func responsesCanBeCompletedAfterStoring() throws {
        let store = DeliveryStore()
        let sequence = store.append(Self.record(status: nil))
        let pending = try #require(store.record(sequence: sequence))
        #expect(pending.response == nil)
        #expect(store.query(DeliveryQuery.where(status: 200)).total == 0)
        let response = DeliveryResponse(
            status: 410, reason: .unregistered, timestamp: 1_600_000_000_000, respondedAt: 1_700_000_000_500)
        #expect(store.complete(sequence: sequence, with: response))
        #expect(store.record(sequence: sequence)?.response == response)
        #expect(store.query(DeliveryQuery.where(status: 410)).total == 1)
        #expect(!store.complete(sequence: 99, with: response))
    }

    @Test func jsonShowsWhatWasAnswered() throws {
        let store = DeliveryStore()
        store.append(Self.record(status: 410))
        let record = try #require(store.record(sequence: 1))
        let json = try #require(JSONValue.parse(DeliveryRecordJSON.encode(record)))
        #expect(json["respondedAt"] == .integer(1_700_000_000_001))
        #expect(json["response"]?["status"] == .integer(410))
        #expect(json["response"]?["reason"] == .string("Unregistered"))
        #expect(json["response"]?["timestamp"] == .integer(1_600_000_000_000))
        #expect(json["auth"] == .null)
        #expect(json["payload"]?["aps"]?["alert"]?["title"] == .string("Hi"))
        let pending = DeliveryRecordJSON.encode(Self.record(status: nil))
        #expect(JSONValue.parse(pending)?["response"] == .null)
    }

    /// A waiter parked on one token is not woken by pushes to others (the load of a load test).
    @Test func tokenSubscribersWakeOnlyForTheirToken() async throws {
        let store = DeliveryStore()
        let mine = String(repeating: "cd", count: 32)
        let subscription = store.notifier.subscribe(token: mine)
        var signals = subscription.signals.makeAsyncIterator()
        let count = Mutex(0)
        let woken = Task {
            while await signals.next() != nil { count.withLock { $0 += 1 } }
        }
        for _ in 0..<50 {
            store.append(Self.record())  // another token
            try await Task.sleep(for: .milliseconds(1))
        }
        try await Task.sleep(for: .milliseconds(50))
        #expect(count.withLock { $0 } == 0)
        store.append(Self.record(token: mine))
        for _ in 0..<500 where count.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        subscription.cancel()
        await woken.value
        #expect(count.withLock { $0 } == 1)
    }

    @Test func notifierWakesSubscribersAndCostsNothingWithout() async throws {
        let store = DeliveryStore()
        #expect(store.notifier.subscriberTotal == 0)
        store.append(Self.record())  // nobody listens: nothing to wake
        let subscription = store.notifier.subscribe()
        #expect(store.notifier.subscriberTotal == 1)
        var signals = subscription.signals.makeAsyncIterator()
        store.append(Self.record())
        #expect(await signals.next() != nil)
        subscription.cancel()
        #expect(await signals.next() == nil)
        #expect(store.notifier.subscriberTotal == 0)
    }

    /// A subscription whose reader goes away without `cancel()` (a client that hangs up) ends
    /// too, and nothing keeps the store alive once it has ended: the termination handler holds
    /// the subscriber list, never the notifier or the store.
    @Test func droppedSubscriptionEndsAndLeavesNothingHoldingTheStore() {
        weak var released: DeliveryStore?
        do {
            let store = DeliveryStore()
            released = store
            var subscription: DeliverySubscription? = store.notifier.subscribe(token: "ab")
            _ = store.notifier.subscribe()  // dropped at once
            #expect(subscription != nil)
            #expect(store.notifier.subscriberTotal == 1)
            subscription = nil
            #expect(store.notifier.subscriberTotal == 0)
        }
        #expect(released == nil)
    }
}

/// Lint and preview: computed on a record's first read by `PayloadAnalyses` (through a
/// `DeliveryReader`), outside the store's lock, cached, and usable as filters.
@Suite struct DeliveryAnalysisTests {
    @Test func readsCarryLintAndPreviewAndRejectedPushesNoPreview() throws {
        let store = DeliveryStore()
        let reader = DeliveryReader(store: store, analyses: PayloadAnalyses())
        store.append(DeliveryStoreTests.draft(payload: #"{"aps":{"alert":"hi","badge":"3"}}"#))
        store.append(DeliveryStoreTests.draft(status: 400, apnsID: "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5E"))
        let records = reader.query(DeliveryQuery.where()).deliveries
        let accepted = try #require(records.first?.analysis)
        #expect(accepted.findings.map(\.code) == [LintCode(rawValue: "badge-not-integer")])
        #expect(accepted.preview?.body == "hi")
        #expect(records.last?.analysis?.preview == nil)
        #expect(records.last?.analysis?.findings.isEmpty == true)
        #expect(reader.record(sequence: 1)?.analysis == accepted)
        #expect(reader.latest(apnsID: "7F4C2B9E-1D3A-4F5B-8C6D-0E1F2A3B4C5E")?.analysis?.preview == nil)
    }

    @Test func lintAndPreviewFilterQueries() throws {
        let store = DeliveryStore()
        let reader = DeliveryReader(store: store, analyses: PayloadAnalyses())
        store.append(DeliveryStoreTests.draft(payload: #"{"aps":{"alert":"hi","badge":"3"}}"#))
        store.append(DeliveryStoreTests.draft(payload: #"{"aps":{"alert":{"title":"T","body":"Bob"}}}"#))
        func total(_ name: String, _ value: String) throws -> Int {
            var matcher = DeliveryMatcher()
            try matcher.add(queryParameter: name, value: value)
            return reader.query(DeliveryQuery(matcher: matcher)).total
        }
        #expect(try total("lint", "error") == 1)
        #expect(try total("lint", "clean") == 1)
        #expect(try total("preview.body", "Bob") == 1)
        #expect(try total("preview.title", "T") == 1)
        var scope = DeliveryMatcher()
        try scope.add(queryParameter: "lint", value: "badge-not-integer")
        #expect(reader.remove(matching: scope) == 1)
        #expect(store.count == 1)
    }

    @Test func theLimitAndTheDeviceLocaleComeFromTheAnalysesOptions() throws {
        var catalog = LocalizationCatalog()
        try catalog.addStringsFile(Array(#""GREETING" = "Hello %@";"#.utf8), locale: "en", fileName: "en")
        try catalog.addStringsFile(Array(#""GREETING" = "Bonjour %@";"#.utf8), locale: "fr", fileName: "fr")
        let french = String(repeating: "cd", count: 32)
        let store = DeliveryStore()
        let reader = DeliveryReader(
            store: store,
            analyses: PayloadAnalyses(
                options: PayloadAnalysisOptions(catalog: catalog, payloadLimit: 2048),
                deviceLocale: { $0 == french ? "fr" : nil }))
        let payload = #"{"aps":{"alert":{"loc-key":"GREETING","loc-args":["Ann"]}}}"#
        store.append(DeliveryStoreTests.draft(payload: payload))
        store.append(DeliveryStoreTests.draft(token: french, payload: payload))
        let records = reader.query(DeliveryQuery.where()).deliveries
        #expect(records.map { $0.analysis?.preview?.body } == ["Hello Ann", "Bonjour Ann"])
        #expect(records.first?.analysis?.limit == 2048)
        #expect(records.first?.analysis?.bytesRemaining == 2048 - payload.utf8.count)
    }

    /// A filter on lint or preview analyses records outside the store's lock, so a push (which
    /// appends under that lock) never waits for an analysis. The device-locale look-up runs inside
    /// each analysis: there it appends a record from another thread and sees whether it had to wait.
    @Test(arguments: ["lint=error", "preview.body=hi"], [false, true])
    func analysesRunOutsideTheStoreLock(_ filter: String, byToken: Bool) throws {
        let token = String(repeating: "ab", count: 32)
        let blocked = Mutex(0)
        let storeBox = StoreBox()
        let store = DeliveryStore()
        let analyses = PayloadAnalyses(deviceLocale: { _ in
            guard let store = storeBox.store else { return nil }
            let done = DispatchSemaphore(value: 0)
            // A thread of its own (not a pool that busy tests may have used up) appends.
            let appender = Thread {
                store.append(DeliveryStoreTests.draft(token: String(repeating: "ef", count: 32)))
                done.signal()
            }
            appender.start()
            // Not waited for beyond this: under the lock the append could finish only after it.
            if done.wait(timeout: .now() + .seconds(2)) == .timedOut { blocked.withLock { $0 += 1 } }
            return nil
        })
        storeBox.store = store
        let reader = DeliveryReader(store: store, analyses: analyses)
        for _ in 0..<3 { store.append(DeliveryStoreTests.draft(token: token, payload: #"{"aps":{"alert":"hi"}}"#)) }
        var matcher = DeliveryMatcher()
        let (name, value) = (String(filter.split(separator: "=")[0]), String(filter.split(separator: "=")[1]))
        try matcher.add(queryParameter: name, value: value)
        if byToken { try matcher.add(queryParameter: "token", value: token) }
        let page = reader.query(DeliveryQuery(matcher: matcher))
        #expect(page.total == (filter == "lint=error" ? 0 : 3))
        #expect(blocked.withLock { $0 } == 0, "an append waited for an analysis")
    }

    /// Records sent with the same payload, the same way, to devices of the same locale share one
    /// analysis; any input that differs (payload, push type, topic, locale, size as sent) gets
    /// its own. Every record's analysis is what the analyzer alone says of it, also past the
    /// limit of distinct inputs remembered.
    @Test func recordsWithEqualInputsShareOneAnalysisAndOthersGetTheirOwn() throws {
        var catalog = LocalizationCatalog()
        try catalog.addStringsFile(Array(#""GREETING" = "Hello %@";"#.utf8), locale: "en", fileName: "en")
        try catalog.addStringsFile(Array(#""GREETING" = "Bonjour %@";"#.utf8), locale: "fr", fileName: "fr")
        let french = String(repeating: "cd", count: 32)
        let options = PayloadAnalysisOptions(catalog: catalog)
        let analyses = PayloadAnalyses(options: options, deviceLocale: { $0 == french ? "fr" : nil })
        let store = DeliveryStore()
        let reader = DeliveryReader(store: store, analyses: analyses)
        let greeting = #"{"aps":{"alert":{"loc-key":"GREETING","loc-args":["Ann"]}}}"#
        var drafts: [DeliveryRecord] = []
        for _ in 0..<3 { drafts.append(DeliveryStoreTests.draft(payload: greeting)) }
        drafts.append(DeliveryStoreTests.draft(token: french, payload: greeting))
        drafts.append(DeliveryStoreTests.draft(pushType: .background, payload: greeting))
        drafts.append(DeliveryStoreTests.draft(topic: "com.example.app.voip", pushType: .voip, payload: greeting))
        drafts.append(DeliveryStoreTests.draft(payload: #"{"aps":{"alert":"hi","badge":"3"}}"#))
        var cut = DeliveryStoreTests.draft(payload: greeting)
        cut.payloadSize = 9000
        drafts.append(cut)
        // More distinct payloads than are remembered, then the first ones again.
        for number in 0..<(PayloadAnalyses.distinctInputLimit + 10) {
            drafts.append(DeliveryStoreTests.draft(payload: #"{"aps":{"badge":\#(number)}}"#))
        }
        drafts += drafts.prefix(8)
        for draft in drafts { store.append(draft) }
        var query = DeliveryQuery(limit: 8)
        var records: [DeliveryRecord] = []
        records += reader.query(query).deliveries
        #expect(analyses.computedCount == 6)
        query.since = 8
        query.limit = 1000
        while true {
            let page = reader.query(query)
            records += page.deliveries
            guard let next = page.next else { break }
            query.since = next
        }
        #expect(records.count == drafts.count)
        for record in records {
            let locale = record.token == french ? "fr" : nil
            let context = try #require(
                options.context(
                    kind: record.kind, viaChannel: record.viaChannel, pushType: record.pushType,
                    pushTypeHeaderPresent: true, priority: nil, topic: record.topic, locale: locale))
            let alone = PayloadAnalyzer.analyze(
                payload: record.payload, payloadSize: record.payloadSize, context: context)
            #expect(record.analysis == alone, "record \(record.sequence)")
        }
        #expect(
            records.prefix(4).map { $0.analysis?.preview?.body } == [
                "Hello Ann", "Hello Ann", "Hello Ann", "Bonjour Ann",
            ])
        #expect(Set(records.prefix(8).map(\.analysis)).count == 6)
    }

    /// The store a device-locale closure made before the store itself reads (set once, then read).
    final class StoreBox: @unchecked Sendable {
        var store: DeliveryStore?
    }

    @Test func theJSONShowsTheAnalysis() throws {
        let store = DeliveryStore()
        let reader = DeliveryReader(store: store, analyses: PayloadAnalyses())
        store.append(DeliveryStoreTests.draft(payload: #"{"aps":{"alert":"hi","badge":"3"}}"#))
        let record = try #require(reader.record(sequence: 1))
        let json = try #require(JSONValue.parse(DeliveryRecordJSON.encode(record)))
        #expect(json["payloadLimit"] == .integer(4096))
        #expect(json["lint"]?.jsonText.contains(#""code":"badge-not-integer""#) == true)
        #expect(json["preview"]?["body"] == .string("hi"))
    }
}
