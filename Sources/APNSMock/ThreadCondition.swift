import CDispatch
import CoreFoundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A mutex and a condition variable (POSIX threads), for the threads that are not event loops:
/// the journal's writer and the callers that wait for it. Waits with a deadline read the
/// monotonic clock, so a change of the wall clock neither shortens nor stretches them.
final class ThreadCondition: @unchecked Sendable {
    // Unchecked: the pthread objects are made for use from many threads.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one waiter; call with the lock held.
    func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter; call with the lock held.
    func broadcast() { pthread_cond_broadcast(condition) }
    /// Releases the lock until signalled (or woken spuriously), then holds it again.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// The same, giving up at `deadline`: false when the deadline passed.
    func wait(until deadline: ContinuousClock.Instant) -> Bool {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return false }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int64(now.tv_nsec) + left.components.attoseconds / 1_000_000_000
        var until = timespec(
            tv_sec: now.tv_sec + Int(left.components.seconds) + Int(nanoseconds / 1_000_000_000),
            tv_nsec: Int(nanoseconds % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &until) == 0
    }
}
