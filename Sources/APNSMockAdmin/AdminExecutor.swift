import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The admin API's own threads, apart from the APNs event loops.
///
/// Two event loops. `group` (normal priority) runs the admin server's connections and the small,
/// latency-bound work: a waiter's or event stream's look at the records stored since its last
/// look, and verification (`run(.prompt)`). `bulk` runs the work whose size a client chooses —
/// pages of deliveries, scoped deletes, near-miss searches (`run(.bulk)`) — at a lower
/// scheduling priority (`nice` 15 on Linux): while pushes keep the cores busy, the kernel gives
/// the APNs loops the CPU first, so a client paging through deliveries during a load test costs
/// the push path little; with the cores idle, it runs at full speed. Nothing waits on purpose.
public final class AdminExecutor: Sendable {
    /// The niceness of the admin thread (Linux; 0 is normal, 19 the lowest priority).
    public static let niceness: Int32 = 15

    /// Which thread a piece of work runs on.
    public enum Lane: Sendable {
        /// Small and latency-bound: the admin server's own thread.
        case prompt
        /// As large as a client asks: the low-priority thread.
        case bulk
    }

    /// The admin server's event-loop group (one thread, normal priority).
    public let group: MultiThreadedEventLoopGroup
    /// The low-priority thread.
    private let bulk: MultiThreadedEventLoopGroup
    /// What `shutdown()` lets go of: holders of the admin router that the router's own routes
    /// hold in turn (MCP's self-calls), a cycle only the end of the admin API can break.
    private let releasedAtShutdown = NIOLockedValueBox<[@Sendable () -> Void]>([])

    public init() {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        bulk = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        #if canImport(Glibc)
            // A thread's own id as `who` with PRIO_PROCESS sets that thread's nice value on Linux.
            bulk.next().execute {
                guard let tid = Self.currentThreadID() else { return }
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), Self.niceness)
            }
        #endif
    }

    #if canImport(Glibc)
        /// The kernel's id of the calling thread, from `/proc/thread-self` (`<pid>/task/<tid>`).
        private static func currentThreadID() -> Int32? {
            var buffer = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
            guard count > 0 else { return nil }
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return link.split(separator: "/").last.flatMap { Int32($0) }
        }
    #endif

    /// Runs `work` on `lane`'s thread and returns its result.
    public func run<Result: Sendable>(
        _ lane: Lane = .bulk, _ work: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await (lane == .bulk ? bulk : group).next().submit(work).get()
    }

    /// Runs `release` when `shutdown()` is called.
    func releaseAtShutdown(_ release: @escaping @Sendable () -> Void) {
        releasedAtShutdown.withLockedValue { $0.append(release) }
    }

    /// Stops the threads (after the admin server has stopped) and lets go of what the admin
    /// router holds.
    public func shutdown() async {
        let releases = releasedAtShutdown.withLockedValue { list in
            defer { list = [] }
            return list
        }
        for release in releases { release() }
        try? await bulk.shutdownGracefully()
        try? await group.shutdownGracefully()
    }
}
