import Testing

@testable import APNSMockServer

@Suite struct AdminPacerTests {
    /// Holds the thread for `duration` (the pacer measures wall time spent in the work).
    static func busy(_ duration: Duration) {
        let clock = ContinuousClock()
        let end = clock.now + duration
        while clock.now < end {}
    }

    @Test func pacesOnlyWhilePushesArrive() async {
        let store = DeliveryStore(capacity: 10)
        let pacer = AdminPacer(store: store, share: 0.1)
        let clock = ContinuousClock()
        // No pushes: the answer comes as soon as the work is done.
        let idle = await clock.measure { await pacer.pace { Self.busy(.milliseconds(10)) } }
        #expect(idle < .milliseconds(80))
        // A push arrived: the work (10 ms) is followed by nine times as long.
        store.append(DeliveryStoreTests.draft())
        let paced = await clock.measure { await pacer.pace { Self.busy(.milliseconds(10)) } }
        #expect(paced >= .milliseconds(95))
    }
}
