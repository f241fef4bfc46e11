import APNSMockRegistry
import NIOConcurrencyHelpers
import NIOCore

/// The live APNs connections of every listener, so the admin API can reach them
/// (`ConnectionControl`) without knowing the transport.
public final class LiveConnections: ConnectionControl {
    private let channels = NIOLockedValueBox<[ObjectIdentifier: any Channel]>([:])

    public init() {}

    /// Tracks `channel` until it closes.
    func add(_ channel: any Channel) {
        let id = ObjectIdentifier(channel)
        channels.withLockedValue { $0[id] = channel }
        channel.closeFuture.whenComplete { [channels] _ in
            _ = channels.withLockedValue { $0.removeValue(forKey: id) }
        }
    }

    /// How many connections are open.
    public var count: Int { channels.withLockedValue { $0.count } }

    public func closeAllConnections() async -> Int {
        let open = channels.withLockedValue { Array($0.values) }
        for channel in open { try? await channel.close() }
        return open.count
    }
}
