import APNSMockAdmin
import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import UnixSignals

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// apns-mock in one process: the APNs listener and the admin API on one event-loop group and
/// one service lifecycle (SIGINT/SIGTERM drain both).
public struct APNSMockApplication: Sendable {
    /// Sizes the shared event-loop group: `threads`, or one thread per CPU this process may run
    /// on. Call once, before the first application starts (the `serve` command does); later
    /// calls would crash, so only the process's entry point may make this one.
    public static func useThreads(_ threads: Int?) {
        NIOSingletons.groupLoopCountSuggestion = max(1, threads ?? availableCPUs)
    }

    /// CPUs this process may run on: its affinity mask (`taskset`), else the online CPUs.
    public static var availableCPUs: Int { APNSListener.availableCPUs }

    /// The addresses actually bound, once both listeners are up.
    public struct Endpoints: Sendable, CustomStringConvertible {
        public var apnsHost: String
        public var apnsPort: Int
        public var adminHost: String
        public var adminPort: Int
        /// The channel-management port (on `apnsHost`).
        public var channelsPort: Int
        /// The Web Push port (on `apnsHost`).
        public var webPushPort: Int

        public init(
            apnsHost: String, apnsPort: Int, adminHost: String, adminPort: Int, channelsPort: Int, webPushPort: Int
        ) {
            self.apnsHost = apnsHost
            self.apnsPort = apnsPort
            self.adminHost = adminHost
            self.adminPort = adminPort
            self.channelsPort = channelsPort
            self.webPushPort = webPushPort
        }

        /// `https://127.0.0.1:2197`.
        public var apnsURL: String { "https://\(Self.hostForURL(apnsHost)):\(apnsPort)" }
        /// `http://127.0.0.1:2198`.
        public var adminURL: String { "http://\(Self.hostForURL(adminHost)):\(adminPort)" }

        /// `https://127.0.0.1:2195`: channel management.
        public var channelsURL: String { "https://\(Self.hostForURL(apnsHost)):\(channelsPort)" }

        /// `https://127.0.0.1:2199`: Web Push.
        public var webPushURL: String { "https://\(Self.hostForURL(apnsHost)):\(webPushPort)" }

        /// The ready line scripts wait for.
        public var description: String {
            "apns-mock ready apns=\(apnsURL) admin=\(adminURL) channels=\(channelsURL) webpush=\(webPushURL)"
        }

        static func hostForURL(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
    }

    public let configuration: APNSMockConfiguration
    /// Every recorded request.
    public let store: DeliveryStore
    /// The journal (`--journal`), if one is kept.
    public let journal: DeliveryJournal?
    /// The records' payload analyses (lint, preview), computed where records are read.
    public let analyses: PayloadAnalyses
    /// The store as readers see it: records with their analyses.
    public var reader: DeliveryReader { DeliveryReader(store: store, analyses: analyses) }
    /// Keys and devices; the admin API changes them while the server runs.
    public let registry: Registry
    /// The APNs listeners, then the channel-management listener.
    let listeners: [APNSListener]
    let logger: Logger
    /// The live APNs connections (closed by `POST /v1/reset?closeConnections=true`).
    let connections: ConnectionRegistry
    /// The files of the chain generated for `configuration.serverChain` (`nil` without one).
    public let serverChainFiles: ServerChain.Files?
    /// The CA certificate (PEM) a client trusts to reach this server, served at `GET /v1/ca.pem`:
    /// the development CA (generated or `certs/ca.pem`) or a generated chain's root; `nil` for a
    /// server certificate given as files, whose CA apns-mock does not know.
    public let serverCA: [UInt8]?
    /// The admin API's own low-priority thread.
    let adminExecutor = AdminExecutor()
    /// Fault rules, modes, behaviors.
    public let faults: FaultControl
    /// Live and recent APNs connections.
    public let connectionLog = ConnectionLog()
    /// The mock's Prometheus metrics, served at `GET /metrics` on the admin port.
    public let metrics: MockMetrics
    let now: @Sendable () -> Int64
    /// The server's clock (`now` reads it): `--clock`, moved by `/v1/clock`.
    public let clock: MockClock

    /// Checks the configuration, loads the TLS files, binds the APNs ports (accepting nothing
    /// yet) and checks that the admin address is free, so that a port in use is reported here,
    /// before anything serves.
    /// - Throws: `AdminExposureError` for an admin address other computers may reach without
    ///   an admin token; `SpecError` for setup channels that cannot all be created (a fixed
    ///   id twice, more than `channelLimit` for an app, an app in `broadcastDisabled`);
    ///   `BindError` for a port in use (APNs or admin) or an address that cannot
    ///   be bound; `TLSError` for a certificate or key that cannot be used;
    ///   `LocalizationDirectory.LoadError` for localizations that cannot be read;
    ///   `DeliveryJournal.OpenError` / `DeliveryJournal.RestoreError` for a journal that cannot
    ///   be opened or restored.
    /// - Parameter now: the clock under the server's (`configuration.clock`, moved by
    ///   `/v1/clock`), epoch milliseconds (tests inject one).
    public init(
        configuration: APNSMockConfiguration, logger: Logger? = nil,
        now base: @escaping @Sendable () -> Int64 = APNSListenerContext.systemNow
    ) async throws {
        let clock = MockClock(configuration.clock, base: base)
        self.clock = clock
        let now = clock.now
        var logger = logger ?? Logger(label: "apnsmock")
        logger.logLevel = configuration.logLevel
        self.logger = logger
        self.configuration = configuration
        if configuration.adminToken == nil, !configuration.adminInsecure,
            !AdminAccess.isLoopback(host: configuration.adminHost)
        {
            throw AdminExposureError(host: configuration.adminHost)
        }
        var certificatePath = configuration.tlsCertificatePath
        var keyPath = configuration.tlsKeyPath
        if let kind = configuration.serverChain {
            let directory =
                configuration.serverChainDirectory
                ?? FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-chain-\(UUID().uuidString)")
                .path
            let files = try ServerChain.generate(kind).write(to: directory)
            certificatePath = files.servedChain
            keyPath = files.leafKey
            serverChainFiles = files
            if let root = files.root {
                logger.notice(
                    "serving the \(kind) chain (TEST ONLY, generated now): a client must trust \(root)",
                    metadata: ["apnsmock.chain.root": "\(root)"])
            } else {
                logger.notice(
                    "serving the \(kind) chain (TEST ONLY, generated now): its root was given to nobody, so clients must refuse it",
                    metadata: ["apnsmock.chain.directory": "\(directory)"])
            }
        } else {
            serverChainFiles = nil
        }
        var clientCAPath = configuration.clientCAPath
        var serverCAPath = serverChainFiles?.root
        if configuration.serverChain == nil, configuration.usesDefaultServerCertificate {
            if FileManager.default.fileExists(atPath: certificatePath) {
                // The repository's committed test certificates (run from its root).
                serverCAPath = APNSMockConfiguration.developmentClientCAPath
            } else {
                let (paths, generated) = try DevelopmentCredentials.ensure()
                certificatePath = paths.serverCertificate
                keyPath = paths.serverPrivateKey
                serverCAPath = paths.caCertificate
                if configuration.clientCAPath == nil && configuration.askForClientCertificates {
                    clientCAPath = paths.caCertificate
                }
                logger.notice(
                    "no \(configuration.tlsCertificatePath) here: serving the development certificate of \(paths.directory) (\(generated ? "generated now" : "generated before")); clients trust its ca.pem, also at GET /v1/ca.pem on the admin port",
                    metadata: ["apnsmock.credentials": "\(paths.directory)"])
            }
        }
        serverCA = serverCAPath.flatMap { FileManager.default.contents(atPath: $0) }.map { Array($0) }
        let tls = try TLSServerContext(
            certificatePath: certificatePath, privateKeyPath: keyPath, clientCAPath: clientCAPath)
        // Web Push: the same certificate, no client certificates (VAPID authenticates), and
        // ALPN's http/1.1 as well as h2.
        let webPushTLS = try TLSServerContext(
            certificatePath: certificatePath, privateKeyPath: keyPath, servesHTTP1: true)
        let analysis = PayloadAnalysisOptions(
            catalog: try configuration.localizationsPath.map(LocalizationDirectory.load(path:))
                ?? LocalizationCatalog(),
            defaultLocale: configuration.locale, payloadLimit: configuration.payloadLimit)
        try ChannelSpec.checkSetup(
            configuration.channels, broadcastDisabled: configuration.broadcastDisabled,
            limit: configuration.channelLimit)
        let registry = Registry(
            keys: configuration.keys, devices: configuration.devices, channels: configuration.channels,
            broadcastDisabled: configuration.broadcastDisabled, channelLimit: configuration.channelLimit, now: now())
        registry.storedMessagesOutliveChannels = configuration.storedMessagesOutliveChannels
        self.registry = registry
        // Restore first: a journal restored into itself must not read what this run appends.
        let restored = try configuration.restorePath.map(DeliveryJournal.read(path:))
        journal = try configuration.journalPath.map { try DeliveryJournal(path: $0) }
        // The store reads a device's conditions from the registry when a push for it comes.
        store = DeliveryStore(capacity: configuration.recordCapacity, sink: journal, conditions: registry)
        if let restored, let path = configuration.restorePath {
            let count = store.restore(restored.records)
            logger.notice(
                "restored \(count) of \(restored.records.count) records from \(path)\(restored.cutOffLastLine ? " (its last line was cut off mid-write and was skipped)" : "")",
                metadata: ["apnsmock.restore.records": "\(count)"])
        }
        // What reaches a device after the 200: the store hears of each change of a device's
        // conditions (what it holds is judged again) and of every move of the clock (the delivery
        // timer lets the running clock's time pass).
        // Weakly: the store holds the registry (its conditions source), and the registry's
        // observer holds the clock, so a strong reference to the store from either would make a
        // cycle that keeps the store, the registry and the clock alive for ever.
        registry.observeDeviceConditions { [weak store] key, conditions in
            store?.setDeliveryConditions(conditions, inbox: key, now: clock.now())
        }
        clock.observeMoves { [weak store] now in store?.advanceDeliveries(to: now) }
        let metrics = MockMetrics(store: store)
        self.metrics = metrics
        analyses = PayloadAnalyses(
            options: analysis, capacity: configuration.recordCapacity, deviceLocale: { registry.device($0)?.locale })
        self.now = now
        faults = FaultControl(
            defaultSeed: configuration.seed, throttle: configuration.throttle, behaviors: configuration.behaviors)
        try Self.installSetupFaults(configuration.faults, into: faults, now: now())
        var policy = ValidationPolicy(
            strictPayload: configuration.strictPayload, strictRegistry: configuration.strictRegistry,
            environmentKeyReason: configuration.environmentKeyReason, payloadAnalysis: analysis)
        policy.clientCertificatesRequested = tls.requestsClientCertificates
        let context = APNSListenerContext(
            tls: tls, settings: configuration.http2, rules: ServiceRules(policy: policy),
            environmentMode: configuration.environment, store: store, registry: registry,
            authStreamLimit: configuration.authStreamLimit, logger: logger, shutdownGrace: configuration.shutdownGrace,
            connectionLog: connectionLog, faults: faults, maxConnections: configuration.maxConnections,
            idleTimeout: configuration.idleTimeout, handshakeTimeout: configuration.handshakeTimeout, metrics: metrics,
            now: now)
        connections = context.connections
        var listeners: [APNSListener] = []
        do {
            for port in [configuration.port] + configuration.additionalPorts {
                listeners.append(try await APNSListener.bind(host: configuration.host, port: port, context: context))
            }
            // The channel-management and Web Push listeners come last.
            listeners.append(
                try await APNSListener.bind(
                    host: configuration.host, port: configuration.effectiveChannelsPort, context: context,
                    service: .channelManagement))
            listeners.append(
                try await APNSListener.bind(
                    host: configuration.host, port: configuration.effectiveWebPushPort, context: context,
                    service: .webPush, tls: webPushTLS))
            try await Self.checkAdminAddress(host: configuration.adminHost, port: configuration.adminPort)
        } catch {
            for listener in listeners { await listener.close() }
            throw error
        }
        self.listeners = listeners
    }

    /// Installs the start-up fault rules (`setup.faults`), in order.
    /// - Throws: `FaultRuleError` for a rule that cannot be installed (an id given twice).
    static func installSetupFaults(_ rules: [JSONValue], into faults: FaultControl, now: Int64) throws {
        for rule in rules { try faults.addRule(json: rule, now: now) }
    }

    /// Back to the start-up state: keys, devices, channels, fault rules and behaviors as
    /// configured, no mode on, closed connections forgotten (`POST /v1/reset`).
    func resetState() {
        registry.reset(
            keys: configuration.keys, devices: configuration.devices, channels: configuration.channels,
            broadcastDisabled: configuration.broadcastDisabled, now: now())
        faults.reset(behaviors: configuration.behaviors)
        try? Self.installSetupFaults(configuration.faults, into: faults, now: now())
        connectionLog.removeClosed()
        analyses.removeAll()
    }

    /// The bound APNs ports, the main one first.
    public var apnsPorts: [Int] { listeners.dropLast(2).map(\.port) }

    /// The bound channel-management port.
    public var channelsPort: Int { listeners[listeners.count - 2].port }

    /// The bound Web Push port.
    public var webPushPort: Int { listeners.last!.port }

    /// Binds the admin address for a moment, as the admin server will (`SO_REUSEADDR`), and
    /// closes it again. Hummingbird binds its own socket when it starts, so this cannot hold
    /// the port; it reports a port already in use before anything serves. Port 0 is always
    /// free.
    /// - Throws: `BindError` for the admin listener.
    static func checkAdminAddress(host: String, port: Int) async throws {
        guard port != 0 else { return }
        let channel: any Channel
        do {
            channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .serverChannelOption(ChannelOptions.autoRead, value: false)
                .bind(host: host, port: port).get()
        } catch {
            throw BindError(listener: .admin, host: host, port: port, error: error)
        }
        try? await channel.close()
    }

    /// Serves until SIGINT/SIGTERM; calls `onReady` once both ports listen. A graceful end logs
    /// one `notice` line saying what it drained (`shutdownSummary`).
    public func run(onReady: @escaping @Sendable (Endpoints) async -> Void = { _ in }) async throws {
        defer { journal?.finish() }
        do {
            try await makeServiceGroup(shutdownSignals: [.sigterm, .sigint], onReady: onReady).run()
        } catch {
            await adminExecutor.shutdown()
            throw error
        }
        // A large broadcast's deliveries are stored after its answer: all of them before the end.
        await store.deliveriesStored()
        journal?.finish()
        await adminExecutor.shutdown()
        logShutdown()
    }

    /// The line a graceful end logs: the connections it closed (and how many only when the
    /// grace ran out), the streams it answered meanwhile, and the records the store holds.
    public var shutdownSummary: String {
        let drained = connections.drainSummary ?? DrainSummary(connections: 0)
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let grace =
            drained.closedAtGraceEnd > 0
            ? " (\(drained.closedAtGraceEnd) at the end of the \(configuration.shutdownGrace) grace)" : ""
        return
            "shut down: closed \(count(drained.connections, "connection"))\(grace), answered \(count(drained.streamsAnswered, "stream")) while draining, \(count(store.count, "record")) held\(journalSummary)"
    }

    /// `, 12 journaled` (and how many were not) when a journal is kept.
    private var journalSummary: String {
        guard let progress = journal?.progress else { return "" }
        let lost = progress.dropped > 0 ? " (\(progress.dropped) not: the disk could not keep up)" : ""
        return ", \(progress.written) journaled\(lost)"
    }

    /// Logs `shutdownSummary` at `notice`, with its numbers as metadata.
    func logShutdown() {
        let drained = connections.drainSummary ?? DrainSummary(connections: 0)
        logger.notice(
            "\(shutdownSummary)",
            metadata: [
                "apnsmock.shutdown.connections": "\(drained.connections)",
                "apnsmock.shutdown.closedAtGraceEnd": "\(drained.closedAtGraceEnd)",
                "apnsmock.shutdown.streamsAnswered": "\(drained.streamsAnswered)",
                "apnsmock.shutdown.records": "\(store.count)",
            ])
    }

    /// The admin app and the APNs listener in one `ServiceGroup`; a graceful shutdown (a signal
    /// in `shutdownSignals`, or `triggerGracefulShutdown()`) drains both.
    ///
    /// The APNs listeners start accepting once the admin server listens, just before `onReady`.
    /// When a service fails (the admin port was taken after `init` checked it) the group
    /// cancels the others, every service ends, and `run()` throws the failure (a `BindError`
    /// for the admin port); `onReady` is then never called.
    public func makeServiceGroup(
        shutdownSignals: [UnixSignal], onReady: @escaping @Sendable (Endpoints) async -> Void
    ) -> ServiceGroup {
        let configuration = configuration
        let listeners = listeners
        let apnsPort = listeners[0].port
        let channelsPort = self.channelsPort
        let planned = Endpoints(
            apnsHost: configuration.host, apnsPort: apnsPort, adminHost: configuration.adminHost,
            adminPort: configuration.adminPort, channelsPort: channelsPort, webPushPort: webPushPort)
        let info = ServerInfo(
            version: APNSMockVersion.current, environment: configuration.environment.rawValue,
            caCertificate: serverCA,
            noCAReason:
                "this server's certificate was given as files (--tls-cert, tlsCert) or its chain's root was given to nobody: apns-mock does not know the CA that issued it; trust that CA as you were given it",
            addresses: ServerInfo.Addresses(
                apnsURL: configuration.advertisedAPNsURL ?? planned.apnsURL, apnsPorts: apnsPorts,
                channelsURL: configuration.advertisedChannelsURL ?? planned.channelsURL,
                channelsPort: channelsPort,
                webPushURL: configuration.advertisedWebPushURL ?? planned.webPushURL, webPushPort: planned.webPushPort,
                adminURL: planned.adminURL, adminPort: planned.adminPort))
        let app = Application(
            router: AdminRouter.build(
                store: store, analyses: analyses, registry: registry, executor: adminExecutor,
                reset: { [self] in resetState() }, connections: connections,
                access: AdminAccess(token: configuration.adminToken), faults: faults, connectionLog: connectionLog,
                now: now, metrics: metrics, info: info, clock: clock),
            configuration: .init(address: .hostname(configuration.adminHost, port: configuration.adminPort)),
            onServerRunning: { channel in
                for listener in listeners { listener.startAccepting() }
                var endpoints = planned
                endpoints.adminPort = channel.localAddress?.port ?? configuration.adminPort
                let ready = endpoints
                info.update {
                    $0.adminPort = ready.adminPort
                    $0.adminURL = ready.adminURL
                }
                await onReady(ready)
            },
            eventLoopGroupProvider: .shared(adminExecutor.group),
            logger: logger)
        let admin = ClosureService {
            do {
                try await app.run()
            } catch let error where BindError.isBindFailure(error) {
                throw BindError(
                    listener: .admin, host: configuration.adminHost, port: configuration.adminPort, error: error)
            }
        }
        let store = store
        let clock = clock
        // Lets time pass for what devices hold (expirations, scheduled presence, background
        // budgets) on a running clock; a clock that stands still moves only through /v1/clock.
        let deliveryTimer = ClosureService {
            try? await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(50))
                    if let next = store.nextDeliveryEvent, clock.now() >= next {
                        store.advanceDeliveries(to: clock.now())
                    }
                }
            }
        }
        return ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: admin)] + listeners.map { .init(service: $0) }
                    + [.init(service: deliveryTimer, successTerminationBehavior: .ignore)],
                gracefulShutdownSignals: shutdownSignals,
                logger: logger))
    }
}
