import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Crypto
import ServiceLifecycle

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An apns-mock running inside the current process, for tests: point a provider at ``apnsURL``,
/// trusting ``caCertificatePEM``, then assert on ``deliveries`` without HTTP.
///
/// ```swift
/// try await withRunningMock { mock in
///     let signingKey = try mock.registerNewKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
///     // … configure the provider with mock.apnsURL, mock.caCertificatePEM and signingKey, push …
///     let records = try await mock.deliveries.wait(count: 1, matching: [.token(deviceToken), .status(200)])
/// }
/// ```
///
/// ``withRunningMock(configure:now:isolation:_:)`` stops the mock when the test is done, also
/// when it throws; with ``start(configure:now:)`` call ``stop()`` yourself, and await it.
public final class RunningMock: Sendable {
    /// The bound addresses (`endpoints.apnsURL`, `endpoints.adminURL`).
    public let endpoints: APNSMockApplication.Endpoints
    /// Every bound APNs port, the main one first.
    public let apnsPorts: [Int]
    /// The recorded pushes.
    public let deliveries: MockDeliveries
    /// The PEM CA certificate a client must trust (the one that signed the server certificate),
    /// when ``start(configure:now:)`` made the certificates; `nil` for files the configuration named.
    public let caCertificatePEM: String?
    /// ``caCertificatePEM`` as a file, for clients that read one (`curl --cacert`); removed by
    /// ``stop()``.
    public let caCertificatePath: String?
    private let caPrivateKeyPEM: String?
    private let application: APNSMockApplication
    private let temporaryDirectory: String?
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// The APNs base URL, `https://127.0.0.1:PORT`; a push goes to `apnsURL + "/3/device/" + token`.
    public var apnsURL: String { endpoints.apnsURL }
    /// The admin API's base URL, `http://127.0.0.1:PORT`.
    public var adminURL: String { endpoints.adminURL }
    /// Keys and devices; changes apply to the next push.
    public var registry: Registry { application.registry }
    /// Its Prometheus metrics (what `GET /metrics` serves): `metrics.exposition()` reads them
    /// without HTTP, and `metrics.registry` takes metrics of your own.
    public var metrics: MockMetrics { application.metrics }

    /// Starts a mock on free loopback ports with a new CA and server certificate (valid for
    /// `localhost`, `127.0.0.1`, `::1` and Apple's APNs host names), which also signs provider
    /// certificates the mock accepts (``issueProviderCertificate(topic:environment:)``). Nothing
    /// is read from the working directory.
    /// - Parameters:
    ///   - configure: changes to that configuration (strict modes, keys and devices at start,
    ///     your own certificate files, …).
    ///   - now: the clock the mock judges time by, epoch milliseconds: record times, token
    ///     ages, fault windows and modes with a duration. A ``ManualClock``'s `now` lets a test
    ///     move time instead of sleeping.
    /// - Throws: what stopped the mock from starting (`BindError`, `TLSError`, …).
    public static func start(
        configure: (inout APNSMockConfiguration) -> Void = { _ in },
        now: @escaping @Sendable () -> Int64 = APNSListenerContext.systemNow
    ) async throws -> RunningMock {
        try await start(prepare(configure: configure), now: now)
    }

    /// A configuration on free loopback ports and the certificates made for it, written to a
    /// temporary directory.
    struct Prepared: Sendable {
        var configuration: APNSMockConfiguration
        var certificates: DevCertificates.Files
        var directory: String
        /// Whether the configuration still serves the certificates made here.
        var servesGeneratedCertificates: Bool { configuration.tlsCertificatePath == directory + "/server.pem" }
    }

    /// Makes the certificates and the configuration, then applies `configure`; synchronous, so
    /// that `configure` runs where the caller runs.
    static func prepare(configure: (inout APNSMockConfiguration) -> Void) throws -> Prepared {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apns-mock-\(UUID().uuidString)"
        ).path
        do {
            let files = try DevCertificates.generate()
            try DevCertificates.write(files, to: directory)
            var configuration = APNSMockConfiguration()
            configuration.port = 0
            configuration.adminPort = 0
            configuration.tlsCertificatePath = directory + "/server.pem"
            configuration.tlsKeyPath = directory + "/server-key.pem"
            configuration.clientCAPath = directory + "/ca.pem"
            configure(&configuration)
            return Prepared(configuration: configuration, certificates: files, directory: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Starts the mock `prepared` describes; removes its directory when it cannot.
    static func start(_ prepared: Prepared, now: @escaping @Sendable () -> Int64) async throws -> RunningMock {
        do {
            let files = prepared.certificates
            return try await start(
                APNSMockApplication(configuration: prepared.configuration, now: now),
                certificates: prepared.servesGeneratedCertificates
                    ? (files.caCertificate, prepared.directory + "/ca.pem", files.caPrivateKey) : nil,
                temporaryDirectory: prepared.directory)
        } catch {
            try? FileManager.default.removeItem(atPath: prepared.directory)
            throw error
        }
    }

    /// Starts `application` and returns once both ports are listening. Its clock is the one
    /// given to `APNSMockApplication.init(configuration:logger:now:)`.
    /// - Throws: what stopped the servers before they were ready, such as a `BindError` for an
    ///   admin port taken since `APNSMockApplication.init` checked it.
    public static func start(_ application: APNSMockApplication) async throws -> RunningMock {
        try await start(application, certificates: nil, temporaryDirectory: nil)
    }

    private static func start(
        _ application: APNSMockApplication, certificates: (pem: String, path: String, key: String)?,
        temporaryDirectory: String?
    ) async throws -> RunningMock {
        let (stream, continuation) = AsyncStream.makeStream(of: APNSMockApplication.Endpoints.self)
        let group = application.makeServiceGroup(shutdownSignals: []) { continuation.yield($0) }
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = stream.makeAsyncIterator()
        guard let endpoints = await iterator.next() else {
            // The admin API's threads and router are let go of whether the servers failed (a
            // bind error) or stopped.
            let ended = await task.result
            await application.adminExecutor.shutdown()
            try ended.get()
            throw ListenerError("apns-mock stopped before it was ready")
        }
        return RunningMock(
            endpoints: endpoints, application: application, certificates: certificates,
            temporaryDirectory: temporaryDirectory, group: group, task: task)
    }

    private init(
        endpoints: APNSMockApplication.Endpoints, application: APNSMockApplication,
        certificates: (pem: String, path: String, key: String)?, temporaryDirectory: String?, group: ServiceGroup,
        task: Task<Void, any Error>
    ) {
        self.endpoints = endpoints
        self.apnsPorts = application.apnsPorts
        self.deliveries = MockDeliveries(reader: application.reader)
        self.caCertificatePEM = certificates?.pem
        self.caCertificatePath = certificates?.path
        self.caPrivateKeyPEM = certificates?.key
        self.application = application
        self.temporaryDirectory = temporaryDirectory
        self.group = group
        self.task = task
    }

    /// Registers a new signing key under `keyID` and `teamID` (Apple issues 10 characters each) and returns
    /// its private key as a `.p8` PEM, for the provider to sign its tokens with (ES256).
    /// - Throws: `SpecError` for an id that is not ASCII letters and digits.
    public func registerNewKey(
        keyID: String = "ABC123DEFG", teamID: String = "DEF123GHIJ", environment: EnvironmentScope = .both
    ) throws -> String {
        for (name, id) in [("keyID", keyID), ("teamID", teamID)] where !ProviderKeySpec.isValidID(id) {
            throw SpecError(path: name, problem: "must be ASCII letters and digits (Apple issues 10); got '\(id)'")
        }
        let key = P256.Signing.PrivateKey()
        registry.putKey(ProviderKey(keyID: keyID, teamID: teamID, publicKey: key.publicKey, environment: environment))
        return key.pemRepresentation + "\n"
    }

    /// Registers `device` (replacing an earlier registration of its token): its topic and
    /// environment are checked under `strictRegistry`, and an unregistered device answers 410.
    public func register(_ device: DeviceRegistration) {
        registry.putDevice(device)
    }

    /// A provider (client) certificate for `topic`, signed by the CA ``start(configure:now:)``
    /// made: the mock accepts it for `topic` and its push-type suffixes.
    /// - Returns: the certificate and its private key, PEM.
    /// - Throws: `ProviderCertificates.IssueError` when this mock did not make its certificates.
    public func issueProviderCertificate(
        topic: String, environment: EnvironmentScope = .both
    ) throws -> (certificatePEM: String, privateKeyPEM: String) {
        guard let caCertificatePEM, let caPrivateKeyPEM else {
            throw ProviderCertificates.IssueError(
                "this mock serves certificate files it was given; it holds no CA key to issue provider certificates with"
            )
        }
        return try ProviderCertificates.issue(
            topic: topic, kinds: ["app", "voip", "complication"],
            environment: environment == .sandbox ? .sandbox : environment == .production ? .production : .both,
            caCertificatePEM: caCertificatePEM, caPrivateKeyPEM: caPrivateKeyPEM)
    }

    /// Checks the expectations of the file at `path` (see `expectations/README.md`) against the
    /// recorded pushes as `apns-mock verify` does: each waits up to its `within` to hold. The
    /// file's `setup:` is not applied (pass it to ``start(configure:now:)`` with `addSetup`).
    /// - Returns: the report: `passed`, and `text` explaining each failure with near misses and
    ///   links to this mock's dashboard.
    /// - Throws: `ExpectationFileError` naming the file, line and key for a file that cannot be used.
    public func verify(expectationFile path: String) async throws -> VerificationReport {
        let file = try ExpectationFile.load(file: path, now: WallClock.milliseconds())
        let started = ContinuousClock.now
        let answer = try await ExpectationVerifier(reader: application.reader, executor: application.adminExecutor)
            .answer(file.expectations)
        let elapsed = ContinuousClock.now - started
        return try VerificationReport(
            file: path, answer: answer,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            dashboard: adminURL)
    }

    /// The provider-behaviour report of what the mock received (in `window`), as
    /// `GET /v1/report` gives it: per provider identity, its numbers and findings.
    public func providerReport(window: ReportWindow = ReportWindow()) -> ProviderReport {
        ProviderReportAnalyzer.report(
            deliveries: application.reader.behaviorDeliveries(in: window),
            connections: application.connectionLog.behaviorConnections(), window: window)
    }

    /// Forgets every record and puts keys and devices back to the configuration's, as
    /// `POST /v1/reset` does.
    public func reset() {
        application.reader.removeAll()
        application.resetState()
    }

    /// Shuts the servers down gracefully, waits until they are down, and removes the
    /// certificates ``start(configure:now:)`` wrote.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        await application.adminExecutor.shutdown()
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
    }
}
