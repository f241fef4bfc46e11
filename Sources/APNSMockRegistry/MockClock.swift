import Synchronization

import struct NIOConcurrencyHelpers.NIOLockedValueBox

/// The clock the server judges time by (`GET`, `POST` and `DELETE /v1/clock`): the wall clock,
/// or one that stands still (`--clock manual`), either moved by what a test asks. Everything
/// the server dates or ages reads it: record times, provider-token ages, fault windows and
/// modes with a duration, the throttle's window, the registry's dates.
///
/// Thread-safe: every event loop reads it while the admin API moves it.
public final class MockClock: Sendable {
    /// How the clock starts (`--clock`, `clock:` in a configuration file).
    public enum Mode: Sendable, Equatable, CustomStringConvertible {
        /// The wall clock.
        case system
        /// Stands still at `startsAt` (epoch milliseconds; `nil`: the wall clock's time when
        /// the server starts) until moved.
        case manual(startsAt: Int64?)

        /// Reads `system`, `manual` or `manual:<epoch milliseconds>`; `nil` for anything else.
        public init?(parsing text: String) {
            if text == "system" {
                self = .system
            } else if text == "manual" {
                self = .manual(startsAt: nil)
            } else if text.hasPrefix("manual:"), let start = Int64(text.dropFirst("manual:".count)), start >= 0 {
                self = .manual(startsAt: start)
            } else {
                return nil
            }
        }

        public var description: String {
            switch self {
            case .system: "system"
            case .manual(nil): "manual"
            case .manual(let start?): "manual:\(start)"
            }
        }
    }

    /// The clock under this one: the wall clock, or a test's.
    private let base: @Sendable () -> Int64
    /// The epoch millisecond the clock stands at; `Int64.min`: it runs with `base`.
    private let standing: Atomic<Int64>
    /// Milliseconds added to `base` (running) or to `standing` (standing).
    private let offset = Atomic<Int64>(0)
    /// Told of the time after each move (`observeMoves`).
    private let moveObserver = NIOLockedValueBox<(@Sendable (Int64) -> Void)?>(nil)

    /// Calls `observer` with the new time after every `advance`, `set` and `reset`: what lets
    /// held pushes expire or be delivered as soon as a test moves the clock.
    public func observeMoves(_ observer: @escaping @Sendable (Int64) -> Void) {
        moveObserver.withLockedValue { $0 = observer }
    }

    private func moved() {
        guard let observer = moveObserver.withLockedValue({ $0 }) else { return }
        observer(now())
    }

    /// - Parameter base: the clock under this one, epoch milliseconds.
    public init(_ mode: Mode = .system, base: @escaping @Sendable () -> Int64 = WallClock.milliseconds) {
        self.base = base
        switch mode {
        case .system: standing = Atomic(Int64.min)
        case .manual(let start): standing = Atomic(start ?? base())
        }
    }

    /// Now, epoch milliseconds.
    @Sendable public func now() -> Int64 {
        let stands = standing.load(ordering: .relaxed)
        return (stands == Int64.min ? base() : stands) &+ offset.load(ordering: .relaxed)
    }

    /// Whether the clock stands still until moved (`--clock manual`).
    public var standsStill: Bool { standing.load(ordering: .relaxed) != Int64.min }

    /// How far this clock is from the one under it (the wall clock), milliseconds.
    public var offsetMilliseconds: Int64 { now() &- base() }

    /// Moves the clock forward by `milliseconds`.
    public func advance(by milliseconds: Int64) {
        offset.add(milliseconds, ordering: .relaxed)
        moved()
    }

    /// Sets the clock to `epochMilliseconds`; a running clock runs on from there.
    public func set(to epochMilliseconds: Int64) {
        let stands = standing.load(ordering: .relaxed)
        offset.store(epochMilliseconds &- (stands == Int64.min ? base() : stands), ordering: .relaxed)
        moved()
    }

    /// The wall clock's time again, running (`DELETE /v1/clock`), whatever the clock started as.
    public func reset() {
        standing.store(Int64.min, ordering: .relaxed)
        offset.store(0, ordering: .relaxed)
        moved()
    }
}
