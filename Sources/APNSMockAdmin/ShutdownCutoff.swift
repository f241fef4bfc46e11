import ServiceLifecycle
import Synchronization

/// Ends the admin API's long waits (`GET /v1/deliveries/wait`, `POST /v1/verify`) when the mock
/// begins a graceful shutdown (SIGTERM, `stop()`): the server waits for requests under way before
/// it exits, and a wait must not hold the exit for its timeout (up to 300 s).
enum ShutdownCutoff {
    /// Runs `operation` in a task of its own, cancelled when a graceful shutdown begins (or when
    /// this request is cancelled). Returns its result, and whether the shutdown cut it short.
    static func run<Result: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Result
    ) async throws -> (result: Result, cutShort: Bool) {
        let cutShort = Atomic<Bool>(false)
        let task = Task { try await operation() }
        let result = try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } onGracefulShutdown: {
            cutShort.store(true, ordering: .relaxed)
            task.cancel()
        }
        return (result, cutShort.load(ordering: .relaxed))
    }
}
