import APNSMockCore
private import CAPNSMockShims
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The APNs TLS listener: binds, accepts, and hands each connection to an
/// `APNSConnectionHandler`. A `Service`, so it shares the admin server's lifecycle.
///
/// Bound but paused: connections wait in the kernel's backlog until `startAccepting()`, so that
/// nothing is served before every listener of the process (the admin API too) is up. `run()`
/// ends, closing the socket, on graceful shutdown and on task cancellation alike: a service
/// group that cancels after another service failed must not wait for it forever.
public final class APNSListener: Service, Sendable {
    private let channel: Channel
    private let context: APNSListenerContext

    /// CPUs this process may run on: its affinity mask (`taskset`), else NIO's core count.
    public static var availableCPUs: Int {
        let count = Int(apnsmock_available_cpus())
        return count > 0 ? count : System.coreCount
    }

    /// Binds `host:port` (0 picks a free port) on `group`; accepts nothing until
    /// `startAccepting()`. `tls`: the listener's own TLS context (the Web Push listener's, whose
    /// ALPN also offers HTTP/1.1), else the context's.
    /// - Throws: `BindError` when the address cannot be bound (port in use, bad host).
    public static func bind(
        host: String, port: Int, context: APNSListenerContext, service: APNSService = .push,
        tls: TLSServerContext? = nil, group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> APNSListener {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator())
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let limit = context.maxConnections, context.connections.count >= limit {
                        context.logger.info("connection refused: --max-connections \(limit) reached")
                        channel.close(promise: nil)
                        return
                    }
                    let handler = APNSConnectionHandler(context: context, service: service, tls: tls)
                    context.connections.add(channel, handler: handler)
                    try channel.pipeline.syncOperations.addHandler(handler)
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            return APNSListener(channel: channel, context: context)
        } catch {
            let listener: BindError.Listener =
                switch service {
                case .push: .apns
                case .channelManagement: .channels
                case .webPush: .webPush
                }
            throw BindError(listener: listener, host: host, port: port, error: error)
        }
    }

    private init(channel: Channel, context: APNSListenerContext) {
        self.channel = channel
        self.context = context
    }

    /// The bound port.
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Starts accepting connections (those waiting in the backlog first).
    public func startAccepting() {
        channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { [context] error in
            context.logger.error("cannot start accepting APNs connections: \(error)")
        }
    }

    /// Waits until graceful shutdown or cancellation, then closes the listening socket. On a
    /// graceful shutdown (SIGTERM) every live connection then gets GOAWAY NO_ERROR
    /// `{"reason":"Shutdown"}`, the streams it covers are answered (a request still sending
    /// its body included), and `run()` returns once they have closed, or after
    /// `shutdownGrace`, closing what is left.
    public func run() async throws {
        let channel = channel
        await withTaskCancellationOrGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onCancelOrGracefulShutdown: {
            channel.close(promise: nil)
        }
        if !Task.isCancelled {
            await context.connections.drain(debugData: Self.shutdownDebugData, grace: context.shutdownGrace)
        }
    }

    /// GOAWAY debug data on shutdown, as APNs words it: `{"reason":"Shutdown"}`.
    static let shutdownDebugData = APNSErrorBody.encode(reason: .shutdown)

    /// Closes the listening socket.
    public func close() async {
        try? await channel.close()
    }
}
