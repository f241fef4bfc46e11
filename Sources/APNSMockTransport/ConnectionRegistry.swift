import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// The live APNs connections of every listener sharing a context, each with a handle bound to
/// its event loop, so that the admin API (through `ConnectionControl`) and graceful shutdown
/// reach them without knowing the transport.
public final class ConnectionRegistry: ConnectionControl {
    private struct Entry: Sendable {
        let channel: any Channel
        let handler: NIOLoopBound<APNSConnectionHandler>

        /// Runs `body` with the handler on its event loop.
        func execute(_ body: @escaping @Sendable (APNSConnectionHandler) -> Void) {
            let handler = handler
            channel.eventLoop.execute { body(handler.value) }
        }
    }

    private let entries = NIOLockedValueBox<[ObjectIdentifier: Entry]>([:])
    /// What graceful shutdown found and did, once it has begun (`nil` before).
    private let drained = NIOLockedValueBox<DrainSummary?>(nil)
    /// Whether a graceful shutdown has begun: answers are then counted.
    private let draining = Atomic<Bool>(false)
    /// Streams answered since the shutdown began.
    private let answeredWhileDraining = Atomic<Int>(0)

    /// Counts connections opened and open (`apns_mock_connections`).
    private let metrics: MockMetrics

    /// - Parameter metrics: where connections opened and closed are counted.
    public init(metrics: MockMetrics = MockMetrics()) {
        self.metrics = metrics
    }

    /// Tracks `channel` and its handler until the channel closes. Call on the channel's loop.
    func add(_ channel: any Channel, handler: APNSConnectionHandler) {
        let id = ObjectIdentifier(channel)
        let entry = Entry(channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
        entries.withLockedValue { $0[id] = entry }
        metrics.connectionOpened()
        channel.closeFuture.whenComplete { [entries, metrics] _ in
            _ = entries.withLockedValue { $0.removeValue(forKey: id) }
            metrics.connectionClosed()
        }
    }

    /// How many connections are open.
    public var count: Int { entries.withLockedValue { $0.count } }

    public func closeAllConnections() async -> Int {
        await close(reason: .closedByAdmin)
    }

    /// Closes every connection, telling each why (for the connection log).
    private func close(reason: CloseReason) async -> Int {
        let open = entries.withLockedValue { Array($0.values) }
        for entry in open {
            // Submitted to the connection's event loop before the close, so it runs first.
            entry.execute { $0.noteClosing(reason) }
            try? await entry.channel.close()
        }
        return open.count
    }

    public func goAwayAllConnections(debugData: [UInt8]) async -> Int {
        let open = entries.withLockedValue { Array($0.values) }
        for entry in open { entry.execute { $0.shutdown(debugData: debugData) } }
        return open.count
    }

    /// Graceful end: GOAWAY to every connection, then waits until all have closed (their
    /// streams answered) or `grace` has passed, whichever is first (awaiting their close
    /// futures, not polling), and closes what is left.
    public func drain(debugData: [UInt8], grace: Duration) async {
        // Every listener sharing the registry drains it; the first one counts what was open.
        draining.store(true, ordering: .relaxed)
        let open = entries.withLockedValue { Array($0.values) }
        drained.withLockedValue { summary in
            if summary == nil { summary = DrainSummary(connections: open.count) }
        }
        for entry in open { entry.execute { $0.shutdown(debugData: debugData) } }
        guard let loop = open.first?.channel.eventLoop else { return }
        let allClosed = EventLoopFuture.andAllComplete(open.map(\.channel.closeFuture), on: loop)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: grace) }
            group.addTask { try? await allClosed.get() }
            _ = await group.next()
            group.cancelAll()
            // Completes `allClosed` when the grace ran out first.
            let cut = await close(reason: .shutdownGraceEnded)
            drained.withLockedValue { $0?.closedAtGraceEnd += cut }
        }
    }

    /// Counts a stream answered, when a graceful shutdown is under way. Called from the
    /// connections' event loops; one relaxed load when not draining.
    func noteAnswered() {
        guard draining.load(ordering: .relaxed) else { return }
        answeredWhileDraining.add(1, ordering: .relaxed)
    }

    /// What graceful shutdown drained: `nil` when none has begun.
    public var drainSummary: DrainSummary? {
        drained.withLockedValue { summary in
            summary.map {
                var summary = $0
                summary.streamsAnswered = answeredWhileDraining.load(ordering: .relaxed)
                return summary
            }
        }
    }
}
