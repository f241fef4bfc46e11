import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Synchronization
import Testing

@testable import APNSMockAdmin

/// Issue 31, item 8: a `GET /v1/events` reader that falls behind gets runs of records
/// summarised in `batch` events and goes on reading, instead of a `dropped` event and the end
/// (`behind=end` keeps that).
@Suite struct DeliveryEventStreamTests {
    static let executor = AdminExecutor()

    /// Record `sequence`'s status in these tests: every fourth is a 400.
    static func status(_ sequence: Int) -> Int { sequence % 4 == 0 ? 400 : 200 }

    /// A store of `capacity` records that has been given `count` (1…count).
    static func store(capacity: Int, count: Int) -> DeliveryStore {
        let store = DeliveryStore(capacity: capacity)
        for sequence in 1...count { store.append(ExpectationVerifierTests.record(status: status(sequence))) }
        return store
    }

    static func stream(
        _ store: DeliveryStore, _ query: DeliveryQuery = DeliveryQuery(), behind: DeliveryEventStream.Behind
    )
        -> DeliveryEventStream
    {
        DeliveryEventStream(
            follower: DeliveryFollower(store: store, query: query, after: 0), behind: behind, executor: executor,
            rendered: RenderedEventCache())
    }

    /// The events of an output: (name, id, data) each.
    static func events(_ output: DeliveryEventStream.Output) -> [(name: String, id: String?, data: String)] {
        String(decoding: output.bytes, as: UTF8.self).components(separatedBy: "\n\n").compactMap { block in
            var name = "message"
            var id: String?
            var data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: true) where !line.hasPrefix(":") {
                let (field, value) =
                    line.firstIndex(of: ":").map { (line[..<$0], line[line.index($0, offsetBy: 2)...]) }
                    ?? (line[...], "")
                switch field {
                case "event": name = String(value)
                case "id": id = String(value)
                case "data": data.append(String(value))
                default: break
                }
            }
            return data.isEmpty ? nil : (name, id, data.joined(separator: "\n"))
        }
    }

    static func object(_ data: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
    }

    @Test(arguments: [
        (100_000, 10_000, 5_000),  // the default store
        (1_000_000, 10_000, 5_000),
        (100, 50, 25),  // a small store: half of it
        (1, 1, 0),
    ])
    func theThresholdIsTenThousandOrHalfTheStore(capacity: Int, threshold: UInt64, resumeAt: UInt64) {
        let pacing = EventStreamPacing(capacity: capacity)
        #expect(pacing.threshold == threshold && pacing.resumeAt == resumeAt)
    }

    @Test func pacingSummarisesFromTheThresholdDownToHalfOfIt() {
        var pacing = EventStreamPacing(capacity: 100_000)
        #expect(pacing.next(backlog: 10_000) == .deliver)
        #expect(pacing.next(backlog: 30_000) == .summarize(records: DeliveryStore.summaryLimit))
        #expect(pacing.next(backlog: 6_000) == .summarize(records: 1_000), "down to 5,000, not below")
        #expect(pacing.next(backlog: 5_000) == .deliver)
        #expect(pacing.next(backlog: 9_000) == .deliver, "under the threshold again: one by one")
    }

    /// 300 records in a store of 100, read from the start: 1…200 aged out, 201…275 are
    /// summarised in one batch, 276…300 come one by one, and so does a record stored later.
    @Test func aReaderThatFellBehindGetsABatchThenDeliveriesAgain() async throws {
        let store = Self.store(capacity: 100, count: 300)
        var stream = Self.stream(store, behind: .batch)
        #expect(stream.summarizes)

        let first = try await stream.next()
        #expect(first.then == .more)
        let batches = Self.events(first)
        try #require(batches.count == 1)
        #expect(batches[0].name == "batch")
        #expect(batches[0].id == "275", "Last-Event-ID resumes after the batch")
        let batch = try Self.object(batches[0].data)
        #expect(batch["from"] as? Int == 1)
        #expect(batch["to"] as? Int == 275)
        #expect(batch["agedOut"] as? Int == 200)
        #expect(batch["count"] as? Int == 75)
        let fours = (201...275).filter { $0 % 4 == 0 }.count
        #expect(batch["byStatus"] as? [String: Int] == ["200": 75 - fours, "400": fours])
        #expect(batch["byOutcome"] as? [String: Int] == ["answered": 75])
        #expect((batch["reason"] as? String)?.contains("GET /v1/deliveries?since=0&before=276") == true)

        let second = try await stream.next()
        #expect(second.then == .waitForRecords)
        let deliveries = Self.events(second)
        #expect(deliveries.map(\.name) == Array(repeating: "delivery", count: 25))
        #expect(deliveries.map(\.id) == (276...300).map { String($0) })

        store.append(ExpectationVerifierTests.record(status: 410))
        let later = Self.events(try await stream.next())
        #expect(later.map(\.name) == ["delivery"])
        #expect(later.first?.id == "301")
        #expect(try Self.object(later[0].data)["sequence"] as? Int == 301)
    }

    /// Only records the filter matches are counted; the range still covers every sequence number.
    @Test func aFilteredReaderCountsOnlyMatches() async throws {
        let store = Self.store(capacity: 100, count: 300)
        var stream = Self.stream(store, DeliveryQuery(matcher: DeliveryMatcher([.status(400)])), behind: .batch)
        let batch = try Self.object(try #require(Self.events(try await stream.next()).first).data)
        let fours = (201...275).filter { $0 % 4 == 0 }.count
        #expect(batch["count"] as? Int == fours)
        #expect(batch["byStatus"] as? [String: Int] == ["400": fours])
        #expect(batch["from"] as? Int == 1 && batch["to"] as? Int == 275 && batch["agedOut"] as? Int == 200)
        let rest = Self.events(try await stream.next())
        #expect(rest.map(\.id) == (276...300).filter { $0 % 4 == 0 }.map { String($0) })
    }

    /// A reader within the threshold gets every record, as before.
    @Test func aReaderWithinTheThresholdGetsEveryRecord() async throws {
        let store = Self.store(capacity: 100, count: 50)
        var stream = Self.stream(store, behind: .batch)
        let events = Self.events(try await stream.next())
        #expect(events.map(\.name) == Array(repeating: "delivery", count: 50))
    }

    /// With `behind=end`, records that age out while the reader is behind end the stream with
    /// `dropped`, as before. (Records gone before the stream began are not counted: today's
    /// behaviour, kept.)
    @Test func behindEndStillEndsWithDropped() async throws {
        let store = DeliveryStore(capacity: 100)
        var stream = Self.stream(store, behind: .end)
        #expect(!stream.summarizes)
        for sequence in 1...300 { store.append(ExpectationVerifierTests.record(status: Self.status(sequence))) }
        let output = try await stream.next()
        #expect(output.then == .end)
        let events = Self.events(output)
        #expect(events.map(\.name) == ["dropped"])
        #expect(try Self.object(events[0].data)["missed"] as? Int == 200)
    }

    /// `lint` and `preview` need the payload analysed: the columns cannot summarise them.
    @Test func aFilterThatNeedsAnalysisIsNotSummarised() throws {
        let lint = DeliveryMatcher([.lint("alertTitleTooLong")])
        #expect(lint.needsAnalysis)
        #expect(!Self.stream(DeliveryStore(), DeliveryQuery(matcher: lint), behind: .batch).summarizes)
    }

    /// Over a live connection: a reader that is idle while 300 records reach a store of 100
    /// (the admin thread is held meanwhile, so it cannot look) gets one `batch` event, then the
    /// newest records one by one, then a record stored later; with `behind=end`, a `dropped`
    /// event and the end of the stream.
    /// Set once, from another thread.
    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    @Test(arguments: [DeliveryEventStream.Behind.batch, .end])
    func aLiveStreamThatFallsBehind(behind: DeliveryEventStream.Behind) async throws {
        let store = DeliveryStore(capacity: 100)
        let executor = AdminExecutor()
        let router = AdminRouter.build(store: store, registry: Registry(keys: [], devices: []), executor: executor)
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let path = behind == .batch ? "/v1/events" : "/v1/events?behind=end"
            let connection = try EventStreamConnection(port: port, path: path)
            // The comment, then the keep-alive of the first look: the stream waits for records.
            try await connection.read(until: ": apns-mock delivery events\n\n\r\n")
            try await connection.read(until: "\r\n:\n\n")
            // The executor's thread is held (a semaphore there); the test's own task only polls,
            // never blocks a cooperative thread that the held executor's caller may need.
            let running = Flag()
            let held = DispatchSemaphore(value: 0)
            let holding = Task {
                try await executor.run(.prompt) {
                    running.value.store(true, ordering: .releasing)
                    held.wait()
                }
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while !running.value.load(ordering: .acquiring), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            let wasHeld = running.value.load(ordering: .acquiring)
            #expect(wasHeld, "the executor's thread was not held within 60 s")
            for sequence in 1...300 { store.append(ExpectationVerifierTests.record(status: Self.status(sequence))) }
            held.signal()
            try await holding.value
            switch behind {
            case .batch:
                try await connection.read(until: "id: 300\nevent: delivery")
                let text = connection.received
                #expect(
                    text.contains(
                        #"id: 275\#nevent: batch\#ndata: {"from":1,"to":275,"count":75,"byStatus":{"200":57,"400":18},"byOutcome":{"answered":75},"agedOut":200,"#
                    ), "\(text.suffix(2000))")
                #expect(!text.contains("id: 275\nevent: delivery"), "summarised records are not sent one by one")
                #expect(text.contains("id: 276\nevent: delivery"))
                #expect(!text.contains("event: dropped"))
                store.append(ExpectationVerifierTests.record(status: 410))
                try await connection.read(until: "id: 301\nevent: delivery")
            case .end:
                try await connection.read(until: "event: dropped\ndata: {\"missed\":200,")
                try await connection.read(until: "0\r\n\r\n")  // the last chunk: the stream ended
                #expect(!connection.received.contains("event: batch"))
            }
        }
        await executor.shutdown()
    }

    @Test(arguments: ["sometimes", "", "BATCH"])
    func anotherBehindValueIsRefused(value: String) async throws {
        try await ChannelRoutesTests.withRouter { client in
            let answer = try await ChannelRoutesTests.call(client, .get, "/v1/events?behind=\(value)")
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "badParameter")
            #expect(
                answer.errorMessage.hasPrefix("query parameter 'behind' must be 'batch'"), "\(answer.errorMessage)")
        }
    }
}
