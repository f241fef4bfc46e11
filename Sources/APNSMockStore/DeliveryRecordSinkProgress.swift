/// What a `DeliveryRecordSink` (the journal) has done so far.
public struct DeliveryRecordSinkProgress: Sendable, Equatable {
    /// Records written.
    public var written: UInt64
    /// Records handed over and not written yet.
    public var queued: UInt64
    /// Records not written because the queue was full (the disk could not keep up).
    public var dropped: UInt64
    /// Writes that failed (the records of a failed write are counted in `dropped`).
    public var failedWrites: UInt64
    /// Answers no longer wait for the journal: a wait ran out, and the queue has not emptied since.
    public var behind: Bool

    public init(written: UInt64, queued: UInt64, dropped: UInt64, failedWrites: UInt64, behind: Bool) {
        self.written = written
        self.queued = queued
        self.dropped = dropped
        self.failedWrites = failedWrites
        self.behind = behind
    }
}
