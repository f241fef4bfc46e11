import APNSMock
import APNSMockCore
import APNSMockRegistry
import APNSMockTransport
import ArgumentParser
import Foundation
import Logging

/// `apns-mock serve`: the APNs endpoint and the admin API.
///
/// Settings come from the built-in defaults, then `--config FILE` (YAML), then the flags: a
/// flag given on the command line wins over the file, which wins over the default. So every
/// option here is optional, and its default is `APNSMockConfiguration`'s.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the APNs provider API (HTTP/2 over TLS) and the admin API.",
        discussion: """
            Flags override the --config file, which overrides the built-in defaults. \
            See apns-mock.example.yaml for every setting and the setup: section (keys and devices).
            """)

    // Every option's help is its `ServeSetting`'s (one declaration per setting; the table in
    // docs/COMMAND-LINE.md and the configuration file's keys come from the same).
    @Option(help: ServeSetting.config.argumentHelp) var config: String?
    @Option(help: ServeSetting.host.argumentHelp) var host: String?
    @Option(help: ServeSetting.port.argumentHelp) var port: [Int] = []
    @Option(help: ServeSetting.adminHost.argumentHelp) var adminHost: String?
    @Option(help: ServeSetting.adminPort.argumentHelp) var adminPort: Int?
    @Option(help: ServeSetting.channelsPort.argumentHelp) var channelsPort: Int?
    @Option(help: ServeSetting.adminToken.argumentHelp) var adminToken: String?
    @Flag(help: ServeSetting.adminInsecure.argumentHelp) var adminInsecure = false
    @Option(help: ServeSetting.tlsCert.argumentHelp) var tlsCert: String?
    @Option(help: ServeSetting.tlsKey.argumentHelp) var tlsKey: String?
    @Option(help: ServeSetting.chain.argumentHelp) var chain: String?
    @Option(help: ServeSetting.chainOut.argumentHelp) var chainOut: String?
    @Option(help: ServeSetting.environment.argumentHelp) var environment: String?
    @Option(help: ServeSetting.maxConcurrentStreams.argumentHelp) var maxConcurrentStreams: UInt32?
    @Option(help: ServeSetting.maxHeaderListSize.argumentHelp) var maxHeaderListSize: UInt32?
    @Option(help: ServeSetting.recordCapacity.argumentHelp) var recordCapacity: Int?
    @Option(help: ServeSetting.journal.argumentHelp) var journal: String?
    @Option(help: ServeSetting.restore.argumentHelp) var restore: String?
    @Option(help: ServeSetting.threads.argumentHelp) var threads: Int?
    @Flag(inversion: .prefixedNo, help: ServeSetting.strictPayload.argumentHelp) var strictPayload: Bool?
    @Flag(inversion: .prefixedNo, help: ServeSetting.strictRegistry.argumentHelp) var strictRegistry: Bool?
    @Option(help: ServeSetting.authStreamLimit.argumentHelp) var authStreamLimit: String?
    @Option(help: ServeSetting.environmentKeyReason.argumentHelp) var environmentKeyReason: String?
    @Option(name: .customLong(ServeSetting.clientCA.flag), help: ServeSetting.clientCA.argumentHelp)
    var clientCA: String?
    @Option(help: ServeSetting.logLevel.argumentHelp) var logLevel: String?
    @Option(parsing: .upToNextOption, help: ServeSetting.expectations.argumentHelp) var expectations: [String] = []
    @Option(help: ServeSetting.seed.argumentHelp) var seed: UInt64?
    @Option(help: ServeSetting.throttle.argumentHelp) var throttle: String?
    @Option(help: ServeSetting.behavior.argumentHelp) var behavior: [String] = []
    @Option(help: ServeSetting.idleTimeout.argumentHelp) var idleTimeout: String?
    @Option(help: ServeSetting.handshakeTimeout.argumentHelp) var handshakeTimeout: String?
    @Option(help: ServeSetting.maxConnections.argumentHelp) var maxConnections: Int?
    @Option(help: ServeSetting.localizations.argumentHelp) var localizations: String?
    @Option(help: ServeSetting.locale.argumentHelp) var locale: String?
    @Option(help: ServeSetting.payloadLimit.argumentHelp) var payloadLimit: Int?
    @Option(help: ServeSetting.channelLimit.argumentHelp) var channelLimit: Int?
    @Flag(inversion: .prefixedNo, help: ServeSetting.storedMessagesOutliveChannels.argumentHelp)
    var storedMessagesOutliveChannels: Bool?
    @Option(help: ServeSetting.clock.argumentHelp) var clock: String?

    /// The environment variable that supplies the admin token when `--admin-token` is not given.
    static let adminTokenVariable = ServeSetting.adminTokenVariable
    static let environmentKeyReasons = [APNSReason.badEnvironmentKeyIdInToken, .badEnvironmentKeyInToken]
    /// `--client-ca none`: ask for no client certificate, not even on the defaults.
    static let noClientCA = "none"

    func validate() throws {
        if let chain, ServerChainKind(rawValue: chain) == nil {
            throw ValidationError("--chain must be \(ServerChainKind.spelled); got '\(chain)'")
        }
        if chain != nil, tlsCert != nil || tlsKey != nil {
            throw ValidationError("--chain is served in place of --tls-cert and --tls-key: give one or the other")
        }
        if chainOut != nil, chain == nil {
            throw ValidationError("--chain-out needs --chain")
        }
        if let environment, EnvironmentMode(rawValue: environment) == nil {
            throw ValidationError("--environment must be sandbox, production or auto; got '\(environment)'")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError(
                "--log-level must be one of trace, debug, info, notice, warning, error, critical; got '\(logLevel)'")
        }
        for port in port where !(0...65535).contains(port) {
            throw ValidationError("--port must be 0–65535; got \(port)")
        }
        if let adminPort, !(0...65535).contains(adminPort) {
            throw ValidationError("--admin-port must be 0–65535; got \(adminPort)")
        }
        if let channelsPort, !(0...65535).contains(channelsPort) {
            throw ValidationError("--channels-port must be 0–65535; got \(channelsPort)")
        }
        if let adminToken, adminToken.isEmpty || adminToken.contains(where: \.isWhitespace) {
            throw ValidationError("--admin-token must be non-empty and without spaces")
        }
        if let maxConcurrentStreams, maxConcurrentStreams < 1 {
            throw ValidationError("--max-concurrent-streams must be at least 1")
        }
        if let threads, threads < 1 || threads > 256 {
            throw ValidationError("--threads must be between 1 and 256; got \(threads)")
        }
        if let recordCapacity, recordCapacity < 1 {
            throw ValidationError("--record-capacity must be at least 1")
        }
        if let authStreamLimit, Self.onOff(authStreamLimit) == nil {
            throw ValidationError("--auth-stream-limit must be on or off; got '\(authStreamLimit)'")
        }
        if let throttle {
            do { _ = try ThrottleLimit(parsing: throttle) } catch {
                throw ValidationError("--throttle \(error.message)")
            }
        }
        for spec in behavior {
            do { _ = try ConnectionBehavior.parse(spec: spec) } catch {
                throw ValidationError("--behavior \(error.message)")
            }
        }
        if let handshakeTimeout, (DurationText.seconds(handshakeTimeout) ?? -1) < 0 {
            throw ValidationError(
                "--handshake-timeout must be a duration such as 10s (0 turns it off); got '\(handshakeTimeout)'")
        }
        if let idleTimeout, (DurationText.seconds(idleTimeout) ?? 0) <= 0 {
            throw ValidationError("--idle-timeout must be a duration such as 30s or 5m; got '\(idleTimeout)'")
        }
        if let maxConnections, maxConnections < 1 {
            throw ValidationError("--max-connections must be at least 1; got \(maxConnections)")
        }
        if let clock, MockClock.Mode(parsing: clock) == nil {
            throw ValidationError("--clock must be system, manual or manual:<epoch milliseconds>; got '\(clock)'")
        }
        if let locale, !PayloadAnalysisOptions.isValidLocale(locale) {
            throw ValidationError("--locale must be a locale such as en, fr or pt-BR; got '\(locale)'")
        }
        let limits = PayloadAnalysisOptions.smallestPayloadLimit...APNSPushType.largestPayloadLimit
        if let payloadLimit, !limits.contains(payloadLimit) {
            throw ValidationError(
                "--payload-limit must be \(limits.lowerBound)–\(limits.upperBound) bytes; got \(payloadLimit)")
        }
        if let channelLimit, channelLimit < 0 || channelLimit > Int(Int32.max) {
            throw ValidationError("--channel-limit must be 0–\(Int32.max); got \(channelLimit)")
        }
        if let environmentKeyReason,
            !Self.environmentKeyReasons.contains(where: { $0.rawValue == environmentKeyReason })
        {
            throw ValidationError(
                "--environment-key-reason must be BadEnvironmentKeyIdInToken or BadEnvironmentKeyInToken; got '\(environmentKeyReason)'"
            )
        }
    }

    static func onOff(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "true", "yes": return true
        case "off", "false", "no": return false
        default: return nil
        }
    }

    func run() async throws {
        let file = try loadConfigurationFile()
        let configuration = try makeConfiguration(file: file)
        APNSMockApplication.useThreads(configuration.threads)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = configuration.logLevel
            return handler
        }
        // A failure before the ready line (a port in use, an unusable certificate) is one line
        // on stderr and exit code 1; the ready line is printed only once every port listens.
        let application: APNSMockApplication
        do {
            application = try await APNSMockApplication(configuration: configuration)
        } catch {
            throw cliError(error, file: file)
        }
        do {
            try await application.run { endpoints in
                // One unbuffered write: scripts wait for this line.
                FileHandle.standardOutput.write(Data((endpoints.description + "\n").utf8))
            }
        } catch {
            throw cliError(error, file: file)
        }
    }

    /// `error` in words; a port that cannot be bound also names the setting that chose it.
    func cliError(_ error: any Error, file: ConfigurationFile?) -> CLIError {
        guard let error = error as? BindError else { return CLIError("\(error)") }
        let document = file?.document
        let setting: String
        switch (error.listener, error.isHostProblem) {
        case (.apns, false): setting = source("--port", given: !port.isEmpty, "port", inFile: document?.ports != nil)
        case (.apns, true): setting = source("--host", given: host != nil, "host", inFile: document?.host != nil)
        case (.admin, false):
            setting = source("--admin-port", given: adminPort != nil, "adminPort", inFile: document?.adminPort != nil)
        case (.channels, false):
            setting = source(
                "--channels-port", given: channelsPort != nil, "channelsPort", inFile: document?.channelsPort != nil)
        case (.channels, true): setting = source("--host", given: host != nil, "host", inFile: document?.host != nil)
        case (.admin, true):
            setting = source("--admin-host", given: adminHost != nil, "adminHost", inFile: document?.adminHost != nil)
        }
        return CLIError("\(error) (\(setting))")
    }

    /// `flag` when the setting is the flag's or the default, `FILE: key` when the file's.
    func source(_ flag: String, given: Bool, _ key: String, inFile: Bool) -> String {
        !given && inFile ? "\(config ?? ""): \(key)" : flag
    }

    /// The `--config` file, read and checked; `nil` without `--config`.
    /// - Throws: `CLIError`, one line naming the file and key.
    func loadConfigurationFile() throws -> ConfigurationFile? {
        guard let config else { return nil }
        do {
            return try ConfigurationFile(contentsOf: config)
        } catch {
            throw CLIError(error.description)
        }
    }

    /// The defaults, then the `--config` file, then the flags; checks that the files it names
    /// can be read.
    /// - Throws: `CLIError`, one line naming the flag or the file and key.
    func makeConfiguration(file: ConfigurationFile?) throws -> APNSMockConfiguration {
        var configuration = APNSMockConfiguration()
        var fileSets = (tlsCert: false, tlsKey: false, clientCA: false)
        if let file {
            file.apply(to: &configuration)
            fileSets = (
                file.document.tlsCertificatePath != nil, file.document.tlsKeyPath != nil,
                file.document.clientCAPath != nil
            )
        }
        applyFlags(to: &configuration)
        if !expectations.isEmpty {
            do {
                for file in try ExpectationFile.load(expectations, now: WallClock.milliseconds()) {
                    configuration.addSetup(
                        keys: file.setup.keys, devices: file.setup.devices, faults: file.setup.faults,
                        channels: file.setup.channels, broadcastDisabled: file.setup.broadcastDisabled)
                }
            } catch {
                throw CLIError("--expectations: \(error)")
            }
        }
        if clientCA == nil && !fileSets.clientCA {
            // On the development certificates, accept the committed sample provider certificates.
            configuration.useDevelopmentClientCA()
        }
        // A flag's chain or certificate replaces the file's, whichever the file gave.
        if tlsCert != nil || tlsKey != nil { configuration.serverChain = nil }
        var files = [
            (
                source("--tls-cert", given: tlsCert != nil, "tlsCert", inFile: fileSets.tlsCert),
                configuration.tlsCertificatePath
            ),
            (
                source("--tls-key", given: tlsKey != nil, "tlsKey", inFile: fileSets.tlsKey),
                configuration.tlsKeyPath
            ),
        ]
        if let clientCAPath = configuration.clientCAPath {
            files.append(
                (source("--client-ca", given: clientCA != nil, "clientCA", inFile: fileSets.clientCA), clientCAPath))
        }
        if configuration.serverChain != nil
            || (configuration.usesDefaultServerCertificate
                && !FileManager.default.fileExists(atPath: configuration.tlsCertificatePath))
        {
            // A generated chain, or the development credentials (no certs/ here): no files to read.
            files.removeFirst(2)
        }
        for (source, path) in files {
            guard let problem = FileProblem.check(path) else { continue }
            let hint =
                source.hasPrefix("--")
                ? "Run from the repository root (it holds certs/), or pass the file's path."
                : "Paths in the configuration file are relative to its directory."
            throw CLIError("\(source): cannot read '\(path)': \(problem). \(hint)")
        }
        return configuration
    }

    /// Lays the flags given on the command line over `configuration` (validated already).
    func applyFlags(to configuration: inout APNSMockConfiguration) {
        if let host { configuration.host = host }
        if let first = port.first {
            configuration.port = first
            configuration.additionalPorts = Array(port.dropFirst())
        }
        if let adminHost { configuration.adminHost = adminHost }
        if let adminPort { configuration.adminPort = adminPort }
        if let channelsPort { configuration.channelsPort = channelsPort }
        if let token = adminToken ?? ProcessInfo.processInfo.environment[Self.adminTokenVariable], !token.isEmpty {
            configuration.adminToken = token
        }
        if adminInsecure { configuration.adminInsecure = true }
        if let tlsCert { configuration.tlsCertificatePath = tlsCert }
        if let tlsKey { configuration.tlsKeyPath = tlsKey }
        if let chain { configuration.serverChain = ServerChainKind(rawValue: chain) }
        if let chainOut { configuration.serverChainDirectory = chainOut }
        if let environment { configuration.environment = EnvironmentMode(rawValue: environment)! }
        if let maxConcurrentStreams { configuration.http2.maxConcurrentStreams = maxConcurrentStreams }
        if let maxHeaderListSize { configuration.http2.maxHeaderListSize = maxHeaderListSize }
        if let recordCapacity { configuration.recordCapacity = recordCapacity }
        if let journal { configuration.journalPath = journal }
        if let restore { configuration.restorePath = restore }
        if let threads { configuration.threads = threads }
        if let strictPayload { configuration.strictPayload = strictPayload }
        if let strictRegistry { configuration.strictRegistry = strictRegistry }
        if let authStreamLimit { configuration.authStreamLimit = Self.onOff(authStreamLimit)! }
        if let environmentKeyReason {
            configuration.environmentKeyReason = Self.environmentKeyReasons.first {
                $0.rawValue == environmentKeyReason
            }!
        }
        if let clientCA {
            configuration.clientCAPath = clientCA == Self.noClientCA ? nil : clientCA
            configuration.askForClientCertificates = clientCA != Self.noClientCA
        }
        if let logLevel { configuration.logLevel = Logger.Level(rawValue: logLevel)! }
        if let seed { configuration.seed = seed }
        if let throttle { configuration.throttle = try? ThrottleLimit(parsing: throttle) }
        for spec in behavior {
            if let (name, lockout) = try? ConnectionBehavior.parse(spec: spec) {
                configuration.behaviors[name] = lockout ?? ConnectionBehavior.defaultLockoutMilliseconds
            }
        }
        if let handshakeTimeout, let seconds = DurationText.seconds(handshakeTimeout) {
            configuration.handshakeTimeout = seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : nil
        }
        if let idleTimeout, let seconds = DurationText.seconds(idleTimeout) {
            configuration.idleTimeout = .milliseconds(Int64(seconds * 1000))
        }
        if let maxConnections { configuration.maxConnections = maxConnections }
        if let localizations { configuration.localizationsPath = localizations }
        if let locale { configuration.locale = locale }
        if let clock, let mode = MockClock.Mode(parsing: clock) { configuration.clock = mode }
        if let payloadLimit { configuration.payloadLimit = payloadLimit }
        if let channelLimit { configuration.channelLimit = channelLimit }
        if let storedMessagesOutliveChannels {
            configuration.storedMessagesOutliveChannels = storedMessagesOutliveChannels
        }
    }
}

extension ServeSetting {
    /// The help `serve --help` shows for this setting.
    var argumentHelp: ArgumentHelp { ArgumentHelp(help, valueName: valueName) }
}
