#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached POSIX thread of its own for a long-running loop (the journal's writer),
/// named as `top` and debuggers show it.
enum BackgroundThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Names the calling thread through /proc (what pthread_setname_np does on Linux, which
    /// Swift's Glibc module does not declare); elsewhere the thread keeps its default name.
    private static func nameThisThread(_ name: String) {
        #if os(Linux)
            let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            let bytes = Array(name.utf8.prefix(15))
            _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        #endif
    }

    /// Runs `body` on a new thread called `name` (at most 15 bytes are kept, as Linux allows).
    static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(
            Body {
                nameThisThread(name)
                body()
            }
        ).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                body.run()
                return nil
            }, context)
        precondition(started == 0, "cannot start the thread '\(name)': error \(started)")
        pthread_detach(thread)
    }
}
