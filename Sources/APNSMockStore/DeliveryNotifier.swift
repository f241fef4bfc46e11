import NIOConcurrencyHelpers
import Synchronization

/// Wakes readers waiting for new records (waits, event streams) without costing the push path.
///
/// A push calls `signal()`: one relaxed atomic load when nobody listens; otherwise one yield to
/// a single dispatcher task, which wakes every subscriber at most once per `coalescing`
/// interval. So a hundred parked waiters cost a push what one does, and no subscriber is woken
/// more than 1/`coalescing` times a second, however fast records arrive.
public final class DeliveryNotifier: Sendable {
    /// The longest a subscriber waits after a record beyond its own processing: the dispatcher
    /// wakes subscribers at most once per this interval.
    public static let coalescing = Duration.milliseconds(2)

    private let subscriberCount = Atomic<Int>(0)
    private let subscribers = NIOLockedValueBox<[UInt64: AsyncStream<Void>.Continuation]>([:])
    private let nextID = Atomic<UInt64>(0)
    private let wakeDispatcher: AsyncStream<Void>.Continuation
    private let dispatcher: Task<Void, Never>

    public init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeDispatcher = continuation
        let subscribers = self.subscribers
        dispatcher = Task.detached {
            for await _ in stream {
                let continuations = subscribers.withLockedValue { Array($0.values) }
                for continuation in continuations { continuation.yield() }
                try? await Task.sleep(for: Self.coalescing)
            }
        }
    }

    deinit {
        wakeDispatcher.finish()
        dispatcher.cancel()
    }

    /// Records arrived (or changed): wakes the subscribers, soon.
    public func signal() {
        guard subscriberCount.load(ordering: .relaxed) > 0 else { return }
        wakeDispatcher.yield()
    }

    /// A subscription whose stream yields after records arrive (several arrivals may yield
    /// once). It ends when `cancel()` is called or the consuming task ends.
    public func subscribe() -> DeliverySubscription {
        let id = nextID.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        subscribers.withLockedValue { $0[id] = continuation }
        subscriberCount.add(1, ordering: .relaxed)
        return DeliverySubscription(signals: stream, continuation: continuation)
    }

    private func unsubscribe(_ id: UInt64) {
        let removed = subscribers.withLockedValue { $0.removeValue(forKey: id) != nil }
        if removed { subscriberCount.subtract(1, ordering: .relaxed) }
    }

    /// How many subscribers are waiting.
    public var subscriberTotal: Int { subscriberCount.load(ordering: .relaxed) }
}
