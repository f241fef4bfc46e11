import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import Logging
import Synchronization

/// What every connection of the mock's listeners shares (the APNs port and channel
/// management): TLS context, settings, rules, store, registry, clock.
public final class APNSListenerContext: Sendable {
    let tls: TLSServerContext
    let settings: HTTP2Settings
    let rules: ServiceRules
    let environmentMode: EnvironmentMode
    let store: DeliveryStore
    let registry: Registry
    /// One stream per token connection until a push passes authentication.
    let authStreamLimit: Bool
    let logger: Logger
    /// How long a graceful shutdown waits for connections to finish their streams.
    let shutdownGrace: Duration
    /// Every live connection of the listeners sharing this context.
    public let connections: ConnectionRegistry
    /// The mock's metrics (`GET /metrics`): answers, latency, connections, handshakes, faults.
    public let metrics: MockMetrics
    /// What happened on live and recent connections (`GET /v1/connections`).
    public let connectionLog: ConnectionLog
    /// Fault rules, modes, throttling and behaviors.
    public let faults: FaultControl
    /// Connections beyond this many are closed at accept (`--max-connections`).
    let maxConnections: Int?
    /// A connection idle this long gets GOAWAY `{"reason":"IdleTimeout"}` (`--idle-timeout`).
    let idleTimeout: Duration?
    /// A connection still in its TLS handshake or before the HTTP/2 preface this long after
    /// accept is closed (`--handshake-timeout`).
    let handshakeTimeout: Duration?
    /// Epoch milliseconds; injectable for tests.
    let now: @Sendable () -> Int64
    /// One `notice` line per rejection, rate-limited.
    let rejections = RejectionLog()
    private let nextConnectionID = Atomic<UInt64>(1)

    public init(
        tls: TLSServerContext, settings: HTTP2Settings, rules: ServiceRules, environmentMode: EnvironmentMode,
        store: DeliveryStore, registry: Registry = Registry(), authStreamLimit: Bool = true, logger: Logger,
        shutdownGrace: Duration = .seconds(5), connectionLog: ConnectionLog = ConnectionLog(),
        faults: FaultControl = FaultControl(), maxConnections: Int? = nil, idleTimeout: Duration? = nil,
        handshakeTimeout: Duration? = nil,
        metrics: MockMetrics = MockMetrics(),
        now: @escaping @Sendable () -> Int64 = APNSListenerContext.systemNow
    ) {
        self.metrics = metrics
        connections = ConnectionRegistry(metrics: metrics)
        self.registry = registry
        self.authStreamLimit = authStreamLimit
        self.tls = tls
        self.settings = settings
        self.rules = rules
        self.environmentMode = environmentMode
        self.store = store
        self.logger = logger
        self.shutdownGrace = shutdownGrace
        self.connectionLog = connectionLog
        self.faults = faults
        self.maxConnections = maxConnections
        self.idleTimeout = idleTimeout
        self.handshakeTimeout = handshakeTimeout
        self.now = now
    }

    func makeConnectionID() -> UInt64 {
        nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// The system clock in epoch milliseconds.
    @Sendable public static func systemNow() -> Int64 { WallClock.milliseconds() }
}
