import APNSMockCore

/// Receives every record once its answer is decided: when it is stored answered (or never to be
/// answered), or when a delayed or hung stream's answer is decided later (`complete`). The
/// journal (`--journal`) is one.
///
/// `recordDecided` is called on the thread that stored the record (an event loop), after the
/// store's lock is released: it must hand the record on and return at once.
public protocol DeliveryRecordSink: AnyObject, Sendable {
    /// Takes a record whose answer is decided, with its sequence number and `apns-id` as stored.
    /// Its `authorization` header may still carry the token's signature: the sink strips it.
    func recordDecided(_ record: DeliveryRecord)

    /// Returns once every record handed over so far is written (or the sink stopped waiting
    /// for a disk that cannot keep up). The transport calls it before answers go out.
    func awaitWritten()

    /// What the sink has done so far, for the health endpoint and the metrics.
    var progress: DeliveryRecordSinkProgress { get }
}
