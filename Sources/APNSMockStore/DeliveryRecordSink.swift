import APNSMockCore

/// Receives every record once its answer is decided: when it is stored answered (or never to be
/// answered), or when a delayed or hung stream's answer is decided later (`complete`). The
/// journal (`--journal`) is one.
///
/// `recordDecided` is called on the thread that stored the record (an event loop), after the
/// store's lock is released: it must hand the record on and return at once. Nothing here
/// blocks: a connection whose answers must wait for the records before them holds its bytes and
/// is called back (`whenSettled`), while its event loop serves the others.
public protocol DeliveryRecordSink: AnyObject, Sendable {
    /// Takes a record whose answer is decided, with its sequence number and `apns-id` as stored.
    /// Its `authorization` header may still carry the token's signature: the sink strips it.
    func recordDecided(_ record: DeliveryRecord)

    /// How many records were handed over so far: the answers sent now wait until the sink has
    /// settled this many (`isSettled(upTo:)`).
    var handedOverCount: UInt64 { get }

    /// Whether the first `target` records handed over are written (or will never be: dropped),
    /// or the sink gave up making answers wait (`behind`).
    func isSettled(upTo target: UInt64) -> Bool

    /// Calls `release` once `isSettled(upTo: target)` holds, on the sink's own thread (at once,
    /// on the caller's, when it holds already).
    func whenSettled(upTo target: UInt64, _ release: @escaping @Sendable () -> Void)

    /// The longest an answer waits; past it the caller gives up (`gaveUpWaiting`).
    var maximumWait: Duration { get }

    /// An answer waited `maximumWait`: the sink is `behind`, and answers no longer wait for it
    /// until it has caught up.
    func gaveUpWaiting()

    /// What the sink has done so far, for the health endpoint and the metrics.
    var progress: DeliveryRecordSinkProgress { get }
}
