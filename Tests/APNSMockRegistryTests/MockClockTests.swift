import Synchronization
import Testing

@testable import APNSMockRegistry

/// The server's clock (`/v1/clock`, `--clock`), over a base clock the test moves.
@Suite struct MockClockTests {
    final class Base: Sendable {
        let value = Atomic<Int64>(1_000_000)
        @Sendable func now() -> Int64 { value.load(ordering: .relaxed) }
        func move(by milliseconds: Int64) { value.add(milliseconds, ordering: .relaxed) }
    }

    @Test func aSystemClockRunsWithItsBaseAndMovesByItsOffset() {
        let base = Base()
        let clock = MockClock(.system, base: base.now)
        #expect(clock.now() == 1_000_000 && !clock.standsStill)
        base.move(by: 5)
        #expect(clock.now() == 1_000_005)
        clock.advance(by: 61 * 60_000)
        #expect(clock.now() == 1_000_005 + 61 * 60_000 && clock.offsetMilliseconds == 61 * 60_000)
        base.move(by: 5)
        #expect(clock.now() == 1_000_010 + 61 * 60_000, "it runs on")
        clock.set(to: 2_000_000)
        #expect(clock.now() == 2_000_000)
        base.move(by: 1)
        #expect(clock.now() == 2_000_001)
        clock.reset()
        #expect(clock.now() == base.now() && clock.offsetMilliseconds == 0)
    }

    @Test func aManualClockStandsStillUntilMovedAndResetRunsItAgain() {
        let base = Base()
        let clock = MockClock(.manual(startsAt: 500), base: base.now)
        #expect(clock.now() == 500 && clock.standsStill)
        base.move(by: 1_000)
        #expect(clock.now() == 500, "time does not pass by itself")
        clock.advance(by: 10 * 60_000)
        #expect(clock.now() == 600_500)
        clock.set(to: 700_000)
        #expect(clock.now() == 700_000)
        clock.reset()
        #expect(clock.now() == base.now() && !clock.standsStill)
        let startedNow = MockClock(.manual(startsAt: nil), base: base.now)
        #expect(startedNow.now() == base.now())
    }

    @Test(arguments: [
        ("system", MockClock.Mode.system), ("manual", .manual(startsAt: nil)),
        ("manual:1767225600000", .manual(startsAt: 1_767_225_600_000)),
    ])
    func modesReadAndWriteBack(_ text: String, _ mode: MockClock.Mode) {
        #expect(MockClock.Mode(parsing: text) == mode)
        #expect(mode.description == text)
    }

    @Test(arguments: ["", "System", "manual:", "manual:-1", "manual:soon", "wall"])
    func otherModesAreNotRead(_ text: String) {
        #expect(MockClock.Mode(parsing: text) == nil)
    }
}
