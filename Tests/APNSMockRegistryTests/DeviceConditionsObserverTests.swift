import APNSMockCore
import APNSMockRegistry
import NIOConcurrencyHelpers
import Testing

/// How the delivery store learns of a device's conditions (issue 32): the registry tells its
/// observer of every change, from whichever path made it, and the clock tells of every move.
struct DeviceConditionsObserverTests {
    final class Calls: Sendable {
        let box = NIOLockedValueBox<[(String, DeviceConditions)]>([])
        func note(_ token: String, _ conditions: DeviceConditions) {
            box.withLockedValue { $0.append((token, conditions)) }
        }
        var tokens: [String] { box.withLockedValue { $0.map(\.0) } }
        var conditions: [DeviceConditions] { box.withLockedValue { $0.map(\.1) } }
    }

    static let offline = DeviceConditions(presence: .offline)

    @Test func anObserverLearnsOfDevicesWithStateAtOnceAndOfEachChange() {
        let registry = Registry(devices: [
            DeviceRegistration(token: "AA01", conditions: Self.offline), DeviceRegistration(token: "aa02"),
        ])
        let calls = Calls()
        registry.observeDeviceConditions { calls.note($0, $1) }
        // At once: only the device whose conditions are not the standard ones.
        #expect(calls.tokens == ["aa01"])
        // A put that changes nothing of the conditions tells nothing.
        registry.putDevice(DeviceRegistration(token: "aa02", topic: "com.example.app"))
        #expect(calls.tokens == ["aa01"])
        registry.putDevice(DeviceRegistration(token: "aa02", conditions: DeviceConditions(notificationsEnabled: false)))
        #expect(calls.tokens == ["aa01", "aa02"])
        #expect(calls.conditions.last?.notificationsEnabled == false)
        // Removing a device with state tells the standard conditions; one without, nothing.
        #expect(registry.removeDevice("AA01"))
        #expect(calls.tokens.last == "aa01" && calls.conditions.last == .standard)
        let count = calls.tokens.count
        registry.putDevice(DeviceRegistration(token: "aa03"))
        #expect(registry.removeDevice("aa03"))
        #expect(calls.tokens.count == count)
    }

    @Test func aResetTellsTheDevicesItDropsAndTheSetupsDevices() {
        let registry = Registry(devices: [DeviceRegistration(token: "aa01", conditions: Self.offline)])
        let calls = Calls()
        registry.observeDeviceConditions { calls.note($0, $1) }
        registry.putDevice(DeviceRegistration(token: "aa02", conditions: DeviceConditions(installed: false)))
        let before = calls.tokens.count
        registry.reset(keys: [], devices: [DeviceRegistration(token: "aa01", conditions: Self.offline)])
        let told = Array(zip(calls.tokens, calls.conditions).dropFirst(before))
        // aa02 is gone (standard); aa01 is the setup's again (offline, after its standard).
        #expect(told.contains { $0.0 == "aa02" && $0.1 == .standard })
        #expect(told.last.map { $0.0 == "aa01" && $0.1 == Self.offline } == true)
    }

    @Test func theClockTellsItsObserverTheTimeAfterEveryMove() {
        let clock = MockClock(.manual(startsAt: 1_000))
        let moves = NIOLockedValueBox<[Int64]>([])
        clock.observeMoves { time in moves.withLockedValue { $0.append(time) } }
        clock.advance(by: 500)
        clock.set(to: 10_000)
        #expect(moves.withLockedValue { $0 } == [1_500, 10_000])
        clock.reset()
        #expect(moves.withLockedValue { $0.count } == 3)
    }
}
