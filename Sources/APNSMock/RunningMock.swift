import APNSMockAdmin
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import ServiceLifecycle

/// An apns-mock started in the background of the current process, for tests.
public final class RunningMock: Sendable {
    public let endpoints: APNSMockApplication.Endpoints
    public let store: DeliveryStore
    /// Every bound APNs port, the main one first.
    public let apnsPorts: [Int]
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts `application` and returns once both ports are listening.
    /// - Throws: what stopped the servers before they were ready, such as a `BindError` for an
    ///   admin port taken since `APNSMockApplication.init` checked it.
    public static func start(_ application: APNSMockApplication) async throws -> RunningMock {
        let (stream, continuation) = AsyncStream.makeStream(of: APNSMockApplication.Endpoints.self)
        let group = application.makeServiceGroup(shutdownSignals: []) { continuation.yield($0) }
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = stream.makeAsyncIterator()
        guard let endpoints = await iterator.next() else {
            try await task.value
            throw ListenerError("apns-mock stopped before it was ready")
        }
        return RunningMock(
            endpoints: endpoints, store: application.store, apnsPorts: application.apnsPorts, group: group, task: task)
    }

    private init(
        endpoints: APNSMockApplication.Endpoints, store: DeliveryStore, apnsPorts: [Int], group: ServiceGroup,
        task: Task<Void, any Error>
    ) {
        self.endpoints = endpoints
        self.store = store
        self.apnsPorts = apnsPorts
        self.group = group
        self.task = task
    }

    /// Shuts the servers down gracefully and waits until they are down.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
