import APNSMockRegistry
import Synchronization

/// A clock that moves only when a test moves it, for ``withRunningMock(configure:now:isolation:_:)``
/// and ``RunningMock/start(configure:now:)``: a fault window, a mode with a duration, a throttle
/// window or a token's age then ends when the test says, not after a sleep.
///
/// ```swift
/// let clock = ManualClock()
/// try await withRunningMock(now: clock.now) { mock in
///     // … a mode or rule that lasts 1 s …
///     clock.advance(by: .seconds(1))
/// }
/// ```
///
/// It starts at the wall clock's time, so that provider tokens signed now are fresh to the
/// mock: by this clock a token is expired an hour after its `iat`, and invalid more than a
/// minute before it. Thread-safe: the mock reads it from its event loops while the test moves
/// it.
public final class ManualClock: Sendable {
    private let milliseconds: Atomic<Int64>

    /// A clock reading `epochMilliseconds`; the wall clock's time by default.
    public init(epochMilliseconds: Int64 = WallClock.milliseconds()) {
        milliseconds = Atomic(epochMilliseconds)
    }

    /// The time, epoch milliseconds: pass `clock.now` as a mock's `now`.
    @Sendable public func now() -> Int64 {
        milliseconds.load(ordering: .acquiring)
    }

    /// Moves the clock forward by `duration` (whole milliseconds; less is dropped).
    /// - Precondition: `duration` is not negative.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a ManualClock does not go back")
        let (seconds, attoseconds) = duration.components
        milliseconds.add(seconds * 1000 + attoseconds / 1_000_000_000_000_000, ordering: .releasing)
    }
}
