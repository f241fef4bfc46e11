private import CAPNSMockShims
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The APNs TLS listener: binds, accepts, and hands each connection to an
/// `APNSConnectionHandler`. A `Service`, so it shares the admin server's lifecycle.
public final class APNSListener: Service, Sendable {
    private let channel: Channel
    private let context: APNSListenerContext

    /// CPUs this process may run on: its affinity mask (`taskset`), else NIO's core count.
    public static var availableCPUs: Int {
        let count = Int(apnsmock_available_cpus())
        return count > 0 ? count : System.coreCount
    }

    /// Binds `host:port` (0 picks a free port) on `group`.
    /// - Throws: a clear error when the address cannot be bound (port in use, bad host).
    public static func bind(
        host: String, port: Int, context: APNSListenerContext,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> APNSListener {
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(ChannelOptions.recvAllocator, value: AdaptiveRecvByteBufferAllocator())
            .childChannelInitializer { channel in
                context.connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(APNSConnectionHandler(context: context))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            return APNSListener(channel: channel, context: context)
        } catch {
            throw ListenerError("cannot listen for APNs on \(host):\(port): \(error)")
        }
    }

    private init(channel: Channel, context: APNSListenerContext) {
        self.channel = channel
        self.context = context
    }

    /// The bound port.
    public var port: Int { channel.localAddress?.port ?? 0 }

    /// Serves until graceful shutdown, then closes the listening socket.
    public func run() async throws {
        await withGracefulShutdownHandler {
            try? await channel.closeFuture.get()
        } onGracefulShutdown: {
            self.channel.close(promise: nil)
        }
    }

    /// Closes the listening socket.
    public func close() async {
        try? await channel.close()
    }
}

/// A listener set-up failure, in words.
public struct ListenerError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
