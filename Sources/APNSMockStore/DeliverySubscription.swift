/// One reader's subscription to new records (`DeliveryNotifier.subscribe()`).
public struct DeliverySubscription: Sendable {
    /// Yields after records arrive; several arrivals may yield once.
    public let signals: AsyncStream<Void>
    let continuation: AsyncStream<Void>.Continuation

    /// Wakes the reader without a record (a timer: a deadline passed, a keep-alive is due).
    public func poke() { continuation.yield() }

    /// Ends the subscription.
    public func cancel() { continuation.finish() }
}
