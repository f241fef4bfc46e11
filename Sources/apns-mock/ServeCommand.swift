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

    @Option(help: ArgumentHelp("YAML configuration file (see apns-mock.example.yaml).", valueName: "file"))
    var config: String?
    @Option(help: "Address the APNs listener binds (default 127.0.0.1).") var host: String?
    @Option(
        help: "APNs port; 0 picks a free port. Repeat to serve several (e.g. --port 443 --port 2197; default 2197).")
    var port: [Int] = []
    @Option(help: "Address the admin API binds (default 127.0.0.1).") var adminHost: String?
    @Option(help: "Admin API port; 0 picks a free port (default 2198).") var adminPort: Int?

    @Option(
        help:
            "Channel-management port (broadcast channels; Apple's is 2195 in the sandbox); 0 picks a free port (default 2195, or a free port with --port 0)."
    )
    var channelsPort: Int?
    @Option(
        help: ArgumentHelp(
            "Bearer token every admin call but /health must present (authorization: Bearer TOKEN). Default: $\(Self.adminTokenVariable), else none.",
            valueName: "token"))
    var adminToken: String?
    @Flag(help: "Allow an --admin-host other than loopback without a token (refused otherwise).")
    var adminInsecure = false
    @Option(
        help:
            "PEM server certificate chain (default certs/server.pem here, else a development certificate generated once per user: see 'apns-mock ca')."
    )
    var tlsCert: String?
    @Option(help: "PEM server private key (default certs/server-key.pem, or the generated one).") var tlsKey: String?
    @Option(
        help: ArgumentHelp(
            "Serve a chain generated at start instead of --tls-cert/--tls-key (TEST ONLY): apple-like (leaf ← intermediate ← a root named like Apple's USERTrust RSA root, written as root.pem for the client to trust) or untrusted-root (a root nobody is given).",
            valueName: "apple-like|untrusted-root"))
    var chain: String?
    @Option(
        help: ArgumentHelp(
            "Where --chain writes root.pem, intermediate.pem, server.pem and server-key.pem (default: a new temporary directory, named in the log).",
            valueName: "dir"))
    var chainOut: String?
    @Option(help: "sandbox, production, or auto: from the TLS server name or :authority (default sandbox).")
    var environment: String?
    @Option(help: "SETTINGS_MAX_CONCURRENT_STREAMS announced to clients (default 1000).")
    var maxConcurrentStreams: UInt32?
    @Option(help: "SETTINGS_MAX_HEADER_LIST_SIZE announced and enforced (default 8000).")
    var maxHeaderListSize: UInt32?
    @Option(help: "Most requests recorded; the oldest go first (default 100000).") var recordCapacity: Int?
    @Option(
        help: ArgumentHelp(
            "Append every record, once its answer is decided, to this file as JSON Lines (created if missing).",
            valueName: "file"))
    var journal: String?
    @Option(
        help: ArgumentHelp(
            "Load the records of a journal (or of a JSON Lines export) before serving; may be the --journal file.",
            valueName: "file"))
    var restore: String?
    @Option(help: "Event-loop threads (default: one per CPU this process may run on, e.g. under taskset).")
    var threads: Int?
    @Flag(
        inversion: .prefixedNo,
        help:
            "Reject payloads that are not a JSON object or whose lint finds an error (400 BadRequestPayload, the mock's own reason)."
    )
    var strictPayload: Bool?
    @Flag(
        inversion: .prefixedNo,
        help: "Unknown device tokens get BadDeviceToken, unknown key ids InvalidProviderToken.")
    var strictRegistry: Bool?
    @Option(
        help: ArgumentHelp(
            "One stream per token connection until a push authenticates, as APNs does (default on).",
            valueName: "on|off"))
    var authStreamLimit: String?
    @Option(
        help: ArgumentHelp(
            "Reason for a key used in the wrong environment (default BadEnvironmentKeyIdInToken).",
            valueName: "BadEnvironmentKeyIdInToken|BadEnvironmentKeyInToken"))
    var environmentKeyReason: String?
    @Option(
        name: .customLong("client-ca"),
        help: ArgumentHelp(
            "PEM CA that signs provider (client) certificates, or none to ask for none (default: certs/ca.pem when the TLS certificate is the default certs/server.pem and certs/ca.pem exists, else none).",
            valueName: "file|none"))
    var clientCA: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical; logs go to stderr (default notice).")
    var logLevel: String?
    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Expectation files or directories whose setup: (keys, devices, faults, channels) is applied at start and by POST /v1/reset: several after one flag (--expectations a.yaml b.yaml), or the flag repeated.",
            valueName: "file-or-dir"))
    var expectations: [String] = []
    @Option(help: "Default seed of fault rules' probability selections and delays (default 0).")
    var seed: UInt64?
    @Option(
        help: ArgumentHelp(
            "Answer 429 TooManyRequests past R pushes to one device token within W (e.g. 3/10s).", valueName: "R/W"))
    var throttle: String?
    @Option(
        help: ArgumentHelp(
            "Switch on an APNs connection behavior: streams-after-rejection, expired-token-poison, token-update-lockout[=DURATION], stream-limit-goaway. Repeatable.",
            valueName: "name"))
    var behavior: [String] = []
    @Option(
        help: ArgumentHelp(
            "Send GOAWAY {\"reason\":\"IdleTimeout\"} to connections idle this long (e.g. 5m; a bare number is seconds).",
            valueName: "duration"))
    var idleTimeout: String?
    @Option(
        help: ArgumentHelp(
            "Close connections that have not finished the TLS handshake and the HTTP/2 preface after this long (default 10s; 0 turns it off).",
            valueName: "duration"))
    var handshakeTimeout: String?
    @Option(help: "Refuse APNs connections beyond this many.")
    var maxConnections: Int?
    @Option(
        help: ArgumentHelp(
            "An app's *.lproj/Localizable.strings and .xcstrings files: previews resolve loc-keys with them.",
            valueName: "dir"))
    var localizations: String?
    @Option(help: ArgumentHelp("The locale of devices without one in the registry (default en).", valueName: "locale"))
    var locale: String?
    @Option(
        help: ArgumentHelp(
            "Payload limit for every push type in bytes, 256–5120 (2048 or 256 emulate the binary interface; default APNs's 4096, VoIP 5120).",
            valueName: "bytes"))
    var payloadLimit: Int?
    @Option(
        help: ArgumentHelp(
            "Most broadcast channels per app and environment; one more gets CannotCreateChannelConfig (default Apple's 10000).",
            valueName: "count"))
    var channelLimit: Int?
    @Flag(
        inversion: .prefixedNo,
        help:
            "A deleted storage channel's kept message still reaches a device that starts listening afterwards (APNs may deliver stored messages after a delete; default off)."
    )
    var storedMessagesOutliveChannels: Bool?

    /// The environment variable that supplies the admin token when `--admin-token` is not given.
    static let adminTokenVariable = "APNS_MOCK_ADMIN_TOKEN"
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
        if let payloadLimit { configuration.payloadLimit = payloadLimit }
        if let channelLimit { configuration.channelLimit = channelLimit }
        if let storedMessagesOutliveChannels {
            configuration.storedMessagesOutliveChannels = storedMessagesOutliveChannels
        }
    }
}
