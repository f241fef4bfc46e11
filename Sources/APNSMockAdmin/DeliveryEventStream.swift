import APNSMockCore
import APNSMockStore

/// One reader of `GET /v1/events`: what its stream writes next, look after look at the store.
///
/// Each `next()` either hands out the records stored since the last look (one `delivery` event
/// each, rendered once for every reader by `RenderedEventCache`) or, for a reader that fell
/// behind (`EventStreamPacing`), counts the next run of records from the store's columns and
/// sends one `batch` event for it, until the reader is close enough to follow record by record
/// again. With `behind=end`, a reader so far behind that records aged out of the store first
/// gets a `dropped` event instead, and the stream ends.
///
/// A filter with `lint` or `preview` conditions needs each payload analysed, which the store's
/// columns cannot summarise: such a stream behaves as `behind=end`.
///
/// Not `Sendable`: the route's body task owns it and awaits each `next()` before the next.
struct DeliveryEventStream {
    /// What a reader that falls behind gets (`behind=`).
    enum Behind: String, Sendable, CaseIterable {
        /// Runs of records summarised in `batch` events; the stream goes on.
        case batch
        /// A final `dropped` event when records aged out before it read them.
        case end
    }

    /// What to write, and what to do after.
    struct Output: Equatable {
        /// Events (or a keep-alive comment) to write.
        var bytes: [UInt8]
        var then: Then
    }

    /// What the body does after writing an output.
    enum Then: Equatable {
        /// Call `next()` again at once: more records are waiting.
        case more
        /// Wait until the store signals new records (or the keep-alive pokes).
        case waitForRecords
        /// End the stream.
        case end
    }

    /// The most records one look hands out as `delivery` events.
    static let deliveryLimit = 1000

    let follower: DeliveryFollower
    let executor: AdminExecutor
    let rendered: RenderedEventCache
    /// `nil`: the reader is never summarised (`behind=end`, or a filter that needs analyses).
    private var pacing: EventStreamPacing?

    init(follower: DeliveryFollower, behind: Behind, executor: AdminExecutor, rendered: RenderedEventCache) {
        self.follower = follower
        self.executor = executor
        self.rendered = rendered
        pacing =
            behind == .batch && !follower.query.matcher.needsAnalysis
            ? EventStreamPacing(capacity: follower.store.capacity) : nil
    }

    /// Whether this stream summarises a reader that falls behind.
    var summarizes: Bool { pacing != nil }

    /// The next output: a `batch` event, the `delivery` events of the records stored since the
    /// last look (and of records whose answer was decided since), a keep-alive comment when
    /// there are none, or a final `dropped` event. One job on the admin thread: the backlog is
    /// judged, and the records read and rendered, at the same moment.
    mutating func next() async throws -> Output {
        let (follower, rendered, pacing) = (self.follower, self.rendered, self.pacing)
        let (output, paced) = try await executor.run(.prompt) {
            var pacing = pacing
            let output = Self.look(follower: follower, pacing: &pacing, rendered: rendered)
            return (output, pacing)
        }
        self.pacing = paced
        return output
    }

    /// One look at the store (on the admin thread).
    private static func look(
        follower: DeliveryFollower, pacing: inout EventStreamPacing?, rendered: RenderedEventCache
    ) -> Output {
        if case .summarize(let count) = pacing?.next(backlog: follower.backlog),
            let summary = follower.summarize(next: count)
        {
            return Output(bytes: batchEvent(summary), then: .more)
        }
        let before = follower.cursor
        let step = follower.advance(limit: deliveryLimit)
        var bytes: [UInt8] = []
        if step.missed > 0 {
            guard pacing != nil else { return Output(bytes: droppedEvent(missed: step.missed), then: .end) }
            // Aged out since the backlog was judged (a tiny store): said in a batch all the same.
            bytes += batchEvent(DeliverySummary(from: before + 1, to: before + step.missed, agedOut: step.missed))
        }
        let then: Then = step.new.count == deliveryLimit ? .more : .waitForRecords
        if step.new.isEmpty && step.completed.isEmpty {
            return Output(bytes: bytes.isEmpty ? Array(":\n\n".utf8) : bytes, then: then)
        }
        bytes += AdminRouter.events(step.completed, identified: false, cache: rendered)
        bytes += AdminRouter.events(step.new, identified: true, cache: rendered)
        return Output(bytes: bytes, then: then)
    }

    /// `id: <to>`, `event: batch` and the summary as JSON:
    /// `{"from":…,"to":…,"count":…,"byStatus":{"200":…},"byOutcome":{"answered":…},"agedOut":…,"reason":"…"}`.
    static func batchEvent(_ summary: DeliverySummary) -> [UInt8] {
        var json = JSONWriter(capacity: 384)
        json.beginObject()
        json.key("from")
        json.number(summary.from)
        json.key("to")
        json.number(summary.to)
        json.key("count")
        json.number(summary.count)
        json.key("byStatus")
        json.beginObject()
        for status in summary.byStatus.keys.sorted() {
            json.key(escaping: String(status))
            json.number(summary.byStatus[status])
        }
        json.endObject()
        json.key("byOutcome")
        json.beginObject()
        for outcome in DeliveryOutcome.allCases {
            guard let count = summary.byOutcome[outcome] else { continue }
            json.key(escaping: outcome.rawValue)
            json.number(count)
        }
        json.endObject()
        json.key("agedOut")
        json.number(summary.agedOut)
        json.key("reason")
        json.string(
            "this reader fell behind: records \(summary.from) to \(summary.to) are summarised, not sent one by one; "
                + "GET /v1/deliveries?since=\(summary.from - 1)&before=\(summary.to + 1) reads those still stored")
        json.endObject()
        return Array("id: \(summary.to)\nevent: batch\ndata: ".utf8) + json.bytes + Array("\n\n".utf8)
    }

    /// `event: dropped` with `{"missed":N,"reason":"…"}` (`behind=end`).
    static func droppedEvent(missed: UInt64) -> [UInt8] {
        Array(
            "event: dropped\ndata: {\"missed\":\(missed),\"reason\":\"records aged out of the store before this reader read them\"}\n\n"
                .utf8)
    }
}
