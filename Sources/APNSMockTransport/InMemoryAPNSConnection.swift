import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Logging

/// One APNs server connection without sockets or TLS, for benchmarks and embedding: HTTP/2
/// plaintext in (after the client preface), HTTP/2 plaintext out. The same code path as a TLS
/// connection from the client's SETTINGS onwards.
///
/// Not thread-safe: use it from one thread.
public final class InMemoryAPNSConnection {
    private let session: APNSSession

    /// A token-authenticated connection sharing `context` (store, registry, rules).
    public init(context: APNSListenerContext, connectionID: UInt64 = 1) throws {
        session = try APNSSession(
            context: context, connectionID: connectionID, authentication: .token, serverName: nil,
            logger: context.logger)
    }

    /// Feeds client bytes (without the 24-byte client preface); answers what became ready.
    /// Returns `false` on an HTTP/2 connection error.
    @discardableResult
    @inline(never)
    public func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        session.receive(bytes) == .read && !session.isClosed
    }

    /// Appends what the server wants to send.
    @inline(never)
    public func collectOutput(into output: inout [UInt8]) { session.collectOutput(into: &output) }
}
