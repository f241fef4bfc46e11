import APNSMockCore
import APNSMockStore
import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The journal (`--journal FILE`): every record, once its answer is decided, appended to a file as
/// one JSON Lines line (`DeliveryRecordJSON.journalLine`), so that a mock killed mid-run can be
/// started again with `--restore FILE` and still answer for what it was sent.
///
/// The event loop only hands the record over (`recordDecided`: a lock and an append to a bounded
/// queue); a thread of its own encodes the lines and writes them (one `write` per batch). Before
/// a connection sends its answers out it asks whether the records handed over so far are
/// written (`isSettled`); if not, it holds those bytes and the writer calls it back when they
/// are (`whenSettled`), at most `maximumWait` later, while its event loop serves every other
/// connection. So an answer a client has received is on disk (in the kernel's page cache,
/// which outlives a SIGKILL of the mock, not a power cut). When the disk cannot keep up, a wait
/// that runs out marks the journal `behind` and answers stop waiting until the queue empties
/// again; records that find the queue full (`queueLimit`) are not journaled and counted in
/// `dropped`. Answers are never refused or held longer for the journal's sake.
public final class DeliveryJournal: DeliveryRecordSink, @unchecked Sendable {
    // Unchecked: `queue`, `stopping` are guarded by `queueCondition`; `waiters` by
    // `writtenCondition`; the counters are atomics.
    /// The journal's path.
    public let path: String
    /// The most records waiting to be written.
    public let queueLimit: Int
    /// The longest an answer waits for the journal.
    public let maximumWait: Duration

    private let descriptor: Int32
    private let queueCondition = ThreadCondition()
    private let writtenCondition = ThreadCondition()
    private var queue: [DeliveryRecord] = []
    /// Callers waiting for a count of records to be settled (`whenSettled`).
    private var waiters: [(target: UInt64, release: @Sendable () -> Void)] = []
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)
    /// Records handed over (written, queued, or dropped).
    private let handedOver = Atomic<UInt64>(0)
    /// Records written, plus those dropped (a wait for them would never end).
    private let settled = Atomic<UInt64>(0)
    private let writtenCount = Atomic<UInt64>(0)
    private let droppedCount = Atomic<UInt64>(0)
    private let failedWriteCount = Atomic<UInt64>(0)
    private let isBehind = Atomic<Bool>(false)

    /// A journal that cannot be opened: its path and the system's reason, in words.
    public struct OpenError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Opens (creating if needed) `path` for appending and starts the writer thread.
    /// - Throws: `OpenError`.
    public init(path: String, queueLimit: Int = 100_000, maximumWait: Duration = .milliseconds(200)) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw OpenError(description: "cannot open the journal '\(path)': \(String(cString: strerror(errno)))")
        }
        self.descriptor = descriptor
        self.path = path
        self.queueLimit = max(1, queueLimit)
        self.maximumWait = maximumWait
        BackgroundThread.start(name: "apns-mock journal") { [self] in writeLoop() }
    }

    deinit { close(descriptor) }

    public func recordDecided(_ record: DeliveryRecord) {
        handedOver.add(1, ordering: .relaxed)
        queueCondition.lock()
        guard queue.count < queueLimit, !stopping else {
            queueCondition.unlock()
            droppedCount.add(1, ordering: .relaxed)
            markSettled(1)
            return
        }
        queue.append(record)
        if queue.count == 1 { queueCondition.signal() }
        queueCondition.unlock()
    }

    public var handedOverCount: UInt64 { handedOver.load(ordering: .acquiring) }

    public func isSettled(upTo target: UInt64) -> Bool {
        settled.load(ordering: .acquiring) >= target || isBehind.load(ordering: .relaxed)
    }

    public func whenSettled(upTo target: UInt64, _ release: @escaping @Sendable () -> Void) {
        writtenCondition.lock()
        guard !isSettled(upTo: target) else {
            writtenCondition.unlock()
            release()
            return
        }
        waiters.append((target, release))
        writtenCondition.unlock()
    }

    public func gaveUpWaiting() {
        writtenCondition.lock()
        if settled.load(ordering: .acquiring) < handedOver.load(ordering: .acquiring) {
            isBehind.store(true, ordering: .relaxed)
        }
        let released = waiters
        waiters = []
        writtenCondition.unlock()
        for waiter in released { waiter.release() }
    }

    /// Returns once every record handed over so far is written, or `maximumWait` has passed (the
    /// journal is then `behind`). Blocks the calling thread: for tests and the end of a run,
    /// never on an event loop.
    public func awaitWritten() {
        let target = handedOver.load(ordering: .acquiring)
        guard !isSettled(upTo: target) else { return }
        let deadline = ContinuousClock.now + maximumWait
        writtenCondition.lock()
        while !isSettled(upTo: target) {
            if !writtenCondition.wait(until: deadline) { break }
        }
        writtenCondition.unlock()
        if !isSettled(upTo: target) { gaveUpWaiting() }
    }

    public var progress: DeliveryRecordSinkProgress {
        let written = writtenCount.load(ordering: .relaxed)
        let dropped = droppedCount.load(ordering: .relaxed)
        let handed = handedOver.load(ordering: .relaxed)
        return DeliveryRecordSinkProgress(
            written: written, queued: handed &- written &- dropped, dropped: dropped,
            failedWrites: failedWriteCount.load(ordering: .relaxed), behind: isBehind.load(ordering: .relaxed))
    }

    /// Writes what is queued, syncs the file, then stops the writer. Records handed over later
    /// are dropped.
    public func finish() {
        queueCondition.lock()
        let first = !stopping
        stopping = true
        queueCondition.signal()
        queueCondition.unlock()
        if first {
            finished.wait()
            fsync(descriptor)
        }
    }

    private func writeLoop() {
        var tokens = DeliveryRecordJSON.TokenCache()
        var batch: [DeliveryRecord] = []
        var bytes: [UInt8] = []
        while true {
            queueCondition.lock()
            while queue.isEmpty, !stopping { queueCondition.wait() }
            let done = queue.isEmpty && stopping
            swap(&batch, &queue)
            queueCondition.unlock()
            if done { break }
            bytes.removeAll(keepingCapacity: true)
            for record in batch { bytes += DeliveryRecordJSON.journalLine(record, tokens: &tokens) }
            if append(bytes) {
                writtenCount.add(UInt64(batch.count), ordering: .relaxed)
            } else {
                failedWriteCount.add(1, ordering: .relaxed)
                droppedCount.add(UInt64(batch.count), ordering: .relaxed)
            }
            markSettled(UInt64(batch.count))
            batch.removeAll(keepingCapacity: true)
        }
        finished.signal()
    }

    private func markSettled(_ count: UInt64) {
        let now = settled.add(count, ordering: .releasing).newValue
        writtenCondition.lock()
        if now >= handedOver.load(ordering: .acquiring) { isBehind.store(false, ordering: .relaxed) }
        var released: [@Sendable () -> Void] = []
        if !waiters.isEmpty {
            waiters.removeAll { waiter in
                guard waiter.target <= now else { return false }
                released.append(waiter.release)
                return true
            }
        }
        writtenCondition.broadcast()
        writtenCondition.unlock()
        for release in released { release() }
    }

    /// Writes all of `bytes`; `false` when the system refused.
    private func append(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }
}
