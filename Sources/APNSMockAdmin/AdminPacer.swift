import APNSMockCore
import APNSMockStore
import Synchronization

/// Keeps the admin API from taking the push path's CPU while pushes are being answered.
///
/// The APNs connections and the admin API share the machine's cores; a client paging through
/// deliveries as fast as it can would otherwise take half a core from a load test. While the
/// store is receiving pushes, each paced request waits, after its work and before its answer,
/// long enough that its work stays near `share` of one core (3 % by default: the HTTP handling
/// around it, not timed here, adds about as much again). With no pushes arriving, nothing
/// waits: a test suite asserting after its load gets full speed.
public final class AdminPacer: Sendable {
    /// The admin API's share of one core while pushes arrive.
    public let share: Double
    private let store: DeliveryStore
    private let clock = ContinuousClock()
    private let lastSeen: Mutex<(sequence: UInt64, at: ContinuousClock.Instant)>
    /// Pushes count as arriving when the store grew within this long.
    static let activityWindow = Duration.seconds(1)

    public init(store: DeliveryStore, share: Double = 0.03) {
        self.store = store
        self.share = min(1, max(0.001, share))
        // Nothing counts as arriving until the store grows.
        lastSeen = Mutex((store.nextSequence, clock.now - Self.activityWindow))
    }

    /// Whether pushes arrived recently (the store's sequence moved within `activityWindow`).
    var pushesArriving: Bool {
        let sequence = store.nextSequence
        let now = clock.now
        return lastSeen.withLock { seen in
            if sequence != seen.sequence {
                seen = (sequence, now)
                return true
            }
            return now - seen.at < Self.activityWindow
        }
    }

    /// Runs `work`, then, while pushes arrive, waits `(1 − share) / share` times as long as the
    /// work took.
    public func pace<Result>(_ work: () throws -> Result) async rethrows -> Result {
        let start = clock.now
        let result = try work()
        let spent = clock.now - start
        if pushesArriving { try? await Task.sleep(for: spent * ((1 - share) / share)) }
        return result
    }
}
