import APNSMockServer

/// An apns-mock started in the background of the current process, for tests.
public final class RunningMock: Sendable {
    public let endpoints: APNSMockApplication.Endpoints
    public let store: DeliveryStore
    private let task: Task<Void, any Error>

    /// Starts `application` and returns once both ports are listening.
    public static func start(_ application: APNSMockApplication) async throws -> RunningMock {
        let (stream, continuation) = AsyncStream.makeStream(of: APNSMockApplication.Endpoints.self)
        let task = Task {
            defer { continuation.finish() }
            try await application.run { continuation.yield($0) }
        }
        var iterator = stream.makeAsyncIterator()
        guard let endpoints = await iterator.next() else {
            try await task.value
            throw ListenerError("apns-mock stopped before it was ready")
        }
        return RunningMock(endpoints: endpoints, store: application.store, task: task)
    }

    private init(endpoints: APNSMockApplication.Endpoints, store: DeliveryStore, task: Task<Void, any Error>) {
        self.endpoints = endpoints
        self.store = store
        self.task = task
    }

    /// Stops the servers and waits until they are down.
    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
