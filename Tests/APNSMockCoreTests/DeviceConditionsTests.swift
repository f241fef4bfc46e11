import APNSMockCore
import Testing

@Suite("DeviceConditions: presence over time, scheduled changes, when an uninstalled app's token goes")
struct DeviceConditionsTests {
    static let t0: Int64 = 1_700_000_000_000
    static let schedule = DeviceConditions(
        presence: .lowPower,
        periods: [
            // Given out of order: the conditions sort them.
            .init(presence: .online, from: t0 + 300, until: t0 + 400),
            .init(presence: .offline, from: t0 + 100, until: t0 + 200),
            .init(presence: .offline, from: t0 + 200, until: t0 + 250),
        ])

    /// (time after t0, presence then, next change after it).
    static let timeline: [(Int64, DevicePresence, Int64?)] = [
        (0, .lowPower, 100),
        (99, .lowPower, 100),
        (100, .offline, 200),
        (199, .offline, 200),
        (200, .offline, 250),
        (250, .lowPower, 300),
        (300, .online, 400),
        (399, .online, 400),
        (400, .lowPower, nil),
        (10_000, .lowPower, nil),
    ]

    @Test(arguments: timeline)
    func presenceAndNextChange(_ offset: Int64, _ presence: DevicePresence, _ next: Int64?) {
        #expect(Self.schedule.presence(at: Self.t0 + offset) == presence)
        #expect(Self.schedule.nextChange(after: Self.t0 + offset) == next.map { Self.t0 + $0 })
    }

    @Test func periodsAreSorted() {
        #expect(Self.schedule.periods.map(\.from) == [Self.t0 + 100, Self.t0 + 200, Self.t0 + 300])
    }

    @Test func unregistersAtIsUninstalledAtPlusGrace() {
        #expect(DeviceConditions.standard.unregistersAt == nil)
        #expect(DeviceConditions(installed: false, uninstalledAt: 1_000).unregistersAt == Int64(301_000))
        #expect(
            DeviceConditions(installed: false, uninstalledAt: 1_000, uninstallGrace: 0).unregistersAt == 1_000)
        #expect(
            DeviceConditions(installed: false, uninstalledAt: .max - 1, uninstallGrace: 10).unregistersAt == .max,
            "saturates")
        #expect(DeviceConditions(installed: true, uninstalledAt: 1_000).unregistersAt == nil)
    }

    @Test func onlyTheStandardConditionsNeedNoModel() {
        #expect(!DeviceConditions.standard.needsModel)
        #expect(DeviceConditions(presence: .offline).needsModel)
        #expect(DeviceConditions(notificationsEnabled: false).needsModel)
        #expect(DeviceConditions(installed: false).needsModel)
        #expect(DeviceConditions(backgroundPushesPerHour: 3).needsModel)
        #expect(DeviceConditions(periods: [.init(presence: .offline, from: 0, until: 1)]).needsModel)
    }
}
