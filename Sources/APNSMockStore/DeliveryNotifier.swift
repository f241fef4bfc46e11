import NIOConcurrencyHelpers
import Synchronization

/// Wakes readers waiting for new records (waits, event streams, verification) without costing
/// the push path.
///
/// A push calls `signal()`: one relaxed atomic load when nobody listens; otherwise one yield to
/// a single dispatcher task. The dispatcher runs at most once per `coalescing` interval and wakes
/// only the subscribers a change can concern: one that follows a device token is woken when that
/// token got a newer record (all such look-ups in one hold of the store's lock) or a stored
/// record's answer changed; one that follows everything is woken every time. So a hundred waiters
/// parked on tokens nobody pushes to cost a load test one short look-up pass per interval, and
/// no subscriber is woken more than 1/`coalescing` times a second.
public final class DeliveryNotifier: Sendable {
    /// The longest a subscriber waits after a record beyond its own processing: the dispatcher
    /// runs at most once per this interval.
    public static let coalescing = Duration.milliseconds(2)

    /// One subscriber, as the dispatcher sees it.
    final class Subscriber: @unchecked Sendable {
        // Unchecked: `token` and `continuation` never change; `notified` is read and written only
        // by the dispatcher task, one pass at a time.
        let token: String?
        let continuation: AsyncStream<Void>.Continuation
        var notified: UInt64 = 0
        var completions: UInt64 = 0

        init(token: String?, continuation: AsyncStream<Void>.Continuation) {
            self.token = token
            self.continuation = continuation
        }
    }

    /// The subscribers and their count, shared with the dispatcher task and with each
    /// subscription's termination handler (which holds it strongly: a weak reference to the
    /// notifier would give it a side table that LeakSanitizer reports as leaked).
    private let registry = Registry()
    private let nextID = Atomic<UInt64>(0)
    /// Counts answers completed after storing (they change records without a new sequence).
    private let completionCount = CompletionCount()
    private let wakeDispatcher: AsyncStream<Void>.Continuation
    private let dispatcher: Task<Void, Never>

    /// - Parameter latestSequences: for each token, its newest record's sequence number (the
    ///   store answers from its token index under one lock hold).
    init(latestSequences: @escaping @Sendable ([String]) -> [String: UInt64]) {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeDispatcher = continuation
        let registry = self.registry
        let completions = completionCount
        dispatcher = Task.detached {
            for await _ in stream {
                Self.dispatch(
                    registry.snapshot(), completions: completions.value,
                    latestSequences: latestSequences)
                try? await Task.sleep(for: Self.coalescing)
            }
        }
    }

    deinit {
        wakeDispatcher.finish()
        dispatcher.cancel()
    }

    /// One pass: wakes the subscribers the records stored since the last pass concern.
    private static func dispatch(
        _ subscribers: [Subscriber], completions: UInt64, latestSequences: ([String]) -> [String: UInt64]
    ) {
        let tokens = subscribers.compactMap(\.token)
        let latest = tokens.isEmpty ? [:] : latestSequences(tokens)
        for subscriber in subscribers {
            if let token = subscriber.token {
                let newest = latest[token] ?? 0
                guard newest > subscriber.notified || completions != subscriber.completions else { continue }
                subscriber.notified = newest
                subscriber.completions = completions
            }
            subscriber.continuation.yield()
        }
    }

    /// Records arrived: wakes the subscribers they concern, soon.
    public func signal() {
        guard registry.count > 0 else { return }
        wakeDispatcher.yield()
    }

    /// A stored record's answer changed: wakes every subscriber, soon.
    public func signalCompletion() {
        completionCount.increment()
        signal()
    }

    /// A subscription whose stream yields after records arrive (several arrivals may yield
    /// once); with `token` (lower case), only after records for that device token arrive, or
    /// answers change. It ends when `cancel()` is called or the consuming task ends.
    public func subscribe(token: String? = nil) -> DeliverySubscription {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // The handler runs when the subscription is cancelled or its stream is dropped, which
        // also ends the reference cycle registry → subscriber → continuation → handler.
        let registry = self.registry
        continuation.onTermination = { _ in registry.remove(id) }
        let subscriber = Subscriber(token: token, continuation: continuation)
        subscriber.completions = completionCount.value
        registry.add(subscriber, id: id)
        return DeliverySubscription(signals: stream, continuation: continuation)
    }

    /// How many subscribers are waiting.
    public var subscriberTotal: Int { registry.count }

    /// The subscribers by id, and how many there are (read without the lock by `signal()`).
    private final class Registry: Sendable {
        private let entries = NIOLockedValueBox<[UInt64: Subscriber]>([:])
        private let total = Atomic<Int>(0)

        var count: Int { total.load(ordering: .relaxed) }

        func snapshot() -> [Subscriber] { entries.withLockedValue { Array($0.values) } }

        func add(_ subscriber: Subscriber, id: UInt64) {
            entries.withLockedValue { $0[id] = subscriber }
            total.add(1, ordering: .relaxed)
        }

        func remove(_ id: UInt64) {
            let removed = entries.withLockedValue { $0.removeValue(forKey: id) != nil }
            if removed { total.subtract(1, ordering: .relaxed) }
        }
    }

    /// A counter shared with the dispatcher task (which must not hold the notifier).
    private final class CompletionCount: Sendable {
        private let count = Atomic<UInt64>(0)
        var value: UInt64 { count.load(ordering: .relaxed) }
        func increment() { count.add(1, ordering: .relaxed) }
    }
}
