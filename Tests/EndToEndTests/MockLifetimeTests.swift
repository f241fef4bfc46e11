import APNSMock
import APNSMockRegistry
import APNSMockStore
import Foundation
import Testing

/// A stopped mock is freed. Its store holds the registry (its conditions source); the registry's
/// conditions observer and the clock's move observer reach the store only weakly: a cycle through
/// them kept every mock a test started alive, with its records, and LeakSanitizer failed `make
/// test` on it.
struct MockLifetimeTests {
    final class References: @unchecked Sendable {
        weak var store: DeliveryStore?
        weak var registry: Registry?
    }

    @Test func aStoppedMocksStoreAndRegistryAreFreed() async throws {
        let references = References()
        do {
            let application = try await APNSMockApplication(configuration: E2E.mockConfiguration())
            references.store = application.store
            references.registry = application.registry
            try await withRunningMock(application) { mock in
                // A device with conditions, so that the store reads them from the registry.
                mock.registry.putDevice(
                    DeviceRegistration(token: E2E.randomToken(), conditions: DeviceConditions(presence: .offline)))
            }
        }
        // What the server's tasks still hold is let go as they end.
        let deadline = Date().addingTimeInterval(10)
        while references.store != nil || references.registry != nil, Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(references.store == nil, "the store outlived its mock")
        #expect(references.registry == nil, "the registry outlived its mock")
    }
}
