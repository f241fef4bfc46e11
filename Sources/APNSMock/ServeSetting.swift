import APNSMockCore
import APNSMockRegistry
import APNSMockTransport
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One setting of `apns-mock serve`, declared once: its flag, its key in a configuration file,
/// its environment variable, its help and default, how its value is read and checked, and how
/// it is laid onto ``APNSMockConfiguration``.
///
/// Everything else follows from `all`: `serve`'s options and `serve --help`
/// (``ServeCommandLine``), the configuration file's keys (``ConfigurationFile``), the
/// environment (``ServeSettingLayer/environment(_:)``), the precedence (``ServeSettings``: flag,
/// then environment, then file, then the default) and docs/COMMAND-LINE.md's table
/// (`markdownTable`). A value is read by the same `read` whichever source gave it (a flag's text
/// is read as a YAML plain scalar), so a bad value gets the same message, naming the flag, the
/// variable or the file and key. Adding a setting is one declaration here, added to `all`.
public struct ServeSetting: Sendable, Equatable, CustomStringConvertible {
    /// The long flag without its dashes (`max-concurrent-streams`).
    public let flag: String
    /// The configuration file's key (`maxConcurrentStreams`); `nil` for a flag the file does not
    /// hold (`--config` itself, the journal, expectation files).
    public let key: String?
    /// The environment variable that gives the setting when no flag does; it wins over the file.
    public let environmentVariable: String?
    /// What the value looks like in the help (`file`, `duration`); `nil`: the flag's own name,
    /// or no value for a switch.
    public let valueName: String?
    /// Whether the flag is a switch (`--strict-payload`, with `--no-strict-payload` when
    /// `negatable`).
    public let isSwitch: Bool
    public let negatable: Bool
    /// Whether the flag may be given several times.
    public let repeatable: Bool
    /// Whether one flag takes several values (`--expectations a.yaml b.yaml`).
    public let takesSeveralValues: Bool
    /// The default, as a person reads it.
    public let defaultValue: String
    /// The help text `serve --help` shows.
    public let help: String
    /// A valid value other than the default, in YAML, for the tests.
    public let example: String?
    /// Settings this one needs, from any source (`--chain-out` needs `--chain`).
    public let needs: [ServeSetting]
    /// Reads and checks a value, whichever source gave it.
    let read: @Sendable (SettingInput) throws -> any Sendable
    /// Lays a value `read` returned onto a configuration.
    let apply: @Sendable (any Sendable, inout APNSMockConfiguration) -> Void
    /// What is wrong with this setting beside the others its source gives, or `nil`.
    let conflict: @Sendable (ServeSettingLayer) -> String?

    init<Value: Sendable>(
        _ flag: String, key: String?, environment: String? = nil, valueName: String? = nil, isSwitch: Bool = false,
        negatable: Bool = false, repeatable: Bool = false, severalValues: Bool = false, needs: [ServeSetting] = [],
        default defaultValue: String, example: String?, help: String,
        read: @escaping @Sendable (SettingInput) throws -> Value,
        apply: @escaping @Sendable (Value, inout APNSMockConfiguration) -> Void = { _, _ in },
        conflict: @escaping @Sendable (ServeSettingLayer) -> String? = { _ in nil }
    ) {
        self.flag = flag
        self.key = key
        self.environmentVariable = environment
        self.valueName = valueName
        self.isSwitch = isSwitch
        self.negatable = negatable
        self.repeatable = repeatable || severalValues
        self.takesSeveralValues = severalValues
        self.needs = needs
        self.defaultValue = defaultValue
        self.help = help
        self.example = example
        self.read = { input in try read(input) }
        self.apply = { value, configuration in
            if let value = value as? Value { apply(value, &configuration) }
        }
        self.conflict = conflict
    }

    public static func == (lhs: ServeSetting, rhs: ServeSetting) -> Bool { lhs.flag == rhs.flag }

    public var description: String { "--\(flag)" }

    /// The environment variable that supplies the admin token when `--admin-token` is not given.
    public static let adminTokenVariable = "APNS_MOCK_ADMIN_TOKEN"
    /// The directory relative paths in flags and `APNS_MOCK_*` variables are resolved against,
    /// when set (absolute): the client libraries set it to their caller's working directory,
    /// because they start the server in a directory of its own. A configuration file's paths
    /// resolve against the file's own directory.
    public static let baseDirectoryVariable = "APNS_MOCK_BASE_DIRECTORY"

    /// The base directory `environment` names, or nil.
    /// - Throws: `SpecError` when it is set but not an absolute path.
    public static func baseDirectory(_ environment: [String: String]) throws(SpecError) -> String? {
        guard let directory = environment[baseDirectoryVariable], !directory.isEmpty else { return nil }
        guard directory.hasPrefix("/") else {
            throw SpecError(path: baseDirectoryVariable, problem: "must be an absolute path; got '\(directory)'")
        }
        return directory
    }

    /// `--client-ca none`: ask for no client certificate, not even on the defaults.
    public static let noClientCA = "none"

    public static let config = ServeSetting(
        "config", key: nil, valueName: "file", default: "none", example: nil,
        help: "YAML configuration file (see apns-mock.example.yaml).", read: { try $0.path() })
    public static let host = ServeSetting(
        "host", key: "host", default: "127.0.0.1", example: "0.0.0.0",
        help: "Address the APNs listener binds (default 127.0.0.1).",
        read: { try $0.nonEmptyString() }, apply: { $1.host = $0 })
    public static let port = ServeSetting(
        "port", key: "port", repeatable: true, default: "2197", example: "[443, 2197]",
        help: "APNs port; 0 picks a free port. Repeat to serve several (e.g. --port 443 --port 2197; default 2197).",
        read: { input in
            let elements = try input.elements(allowsOne: true)
            guard !elements.isEmpty else { throw input.problem("must list at least one port") }
            return try elements.map { Int(try $0.integer(in: 0...65535)) }
        },
        apply: { ports, configuration in
            configuration.port = ports[0]
            configuration.additionalPorts = Array(ports.dropFirst())
        })
    public static let adminHost = ServeSetting(
        "admin-host", key: "adminHost", default: "127.0.0.1", example: "::1",
        help: "Address the admin API binds (default 127.0.0.1).",
        read: { try $0.nonEmptyString() }, apply: { $1.adminHost = $0 })
    public static let adminPort = ServeSetting(
        "admin-port", key: "adminPort", default: "2198", example: "0",
        help: "Admin API port; 0 picks a free port (default 2198).",
        read: { Int(try $0.integer(in: 0...65535)) }, apply: { $1.adminPort = $0 })
    public static let channelsPort = ServeSetting(
        "channels-port", key: "channelsPort", default: "2195 (a free port with --port 0)", example: "0",
        help:
            "Channel-management port (broadcast channels; Apple's is 2195 in the sandbox); 0 picks a free port (default 2195, or a free port with --port 0).",
        read: { Int(try $0.integer(in: 0...65535)) }, apply: { $1.channelsPort = $0 })
    public static let webPushPort = ServeSetting(
        "webpush-port", key: "webPushPort", default: "2199 (a free port with --port 0)", example: "0",
        help:
            "Web Push port (Safari and web apps' pushes, HTTP/1.1 or HTTP/2 over TLS; Apple's is web.push.apple.com:443); 0 picks a free port (default 2199, or a free port with --port 0).",
        read: { Int(try $0.integer(in: 0...65535)) }, apply: { $1.webPushPort = $0 })
    public static let advertiseURL = ServeSetting(
        "advertise-url", key: "advertiseUrl", environment: "APNS_MOCK_ADVERTISE_URL", valueName: "url",
        default: "the first APNs port's bound address", example: "https://localhost:32768",
        help:
            "The APNs URL GET /v1/info gives clients, when they reach the server by another address or port than it binds (a container's published port: https://localhost:32768).",
        read: { try $0.httpsURL() }, apply: { $1.advertisedAPNsURL = $0 })
    public static let advertiseChannelsURL = ServeSetting(
        "advertise-channels-url", key: "advertiseChannelsUrl", environment: "APNS_MOCK_ADVERTISE_CHANNELS_URL",
        valueName: "url", default: "the channel-management port's bound address",
        example: "https://localhost:32769",
        help: "The channel-management URL GET /v1/info gives clients, as --advertise-url for APNs.",
        read: { try $0.httpsURL() }, apply: { $1.advertisedChannelsURL = $0 })
    public static let advertiseWebPushURL = ServeSetting(
        "advertise-webpush-url", key: "advertiseWebPushUrl", environment: "APNS_MOCK_ADVERTISE_WEBPUSH_URL",
        valueName: "url", default: "the Web Push port's bound address", example: "https://localhost:32770",
        help:
            "The Web Push URL GET /v1/info gives clients and subscriptions' endpoints start with, as --advertise-url for APNs.",
        read: { try $0.httpsURL() }, apply: { $1.advertisedWebPushURL = $0 })
    public static let adminToken = ServeSetting(
        "admin-token", key: "adminToken", environment: adminTokenVariable, valueName: "token",
        default: "$\(adminTokenVariable), else none", example: "s3cret",
        help:
            "Bearer token every admin call but /health must present (authorization: Bearer TOKEN). Default: $\(adminTokenVariable), else none.",
        read: { input in
            let token = try input.string()
            guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
                throw input.problem("must be non-empty and without spaces")
            }
            return token
        },
        apply: { $1.adminToken = $0 })
    public static let adminInsecure = ServeSetting(
        "admin-insecure", key: "adminInsecure", isSwitch: true, default: "off", example: "true",
        help: "Allow an --admin-host other than loopback without a token (refused otherwise).",
        read: { try $0.bool() }, apply: { $1.adminInsecure = $0 })
    public static let tlsCert = ServeSetting(
        "tls-cert", key: "tlsCert", default: "certs/server.pem here, else a generated one", example: "server.pem",
        help:
            "PEM server certificate chain (default certs/server.pem here, else a development certificate generated once per user: see 'apns-mock ca').",
        read: { try $0.path() },
        apply: { path, configuration in
            configuration.tlsCertificatePath = path
            configuration.serverChain = nil
        })
    public static let tlsKey = ServeSetting(
        "tls-key", key: "tlsKey", default: "certs/server-key.pem, or the generated one", example: "server-key.pem",
        help: "PEM server private key (default certs/server-key.pem, or the generated one).",
        read: { try $0.path() },
        apply: { path, configuration in
            configuration.tlsKeyPath = path
            configuration.serverChain = nil
        })
    public static let chain = ServeSetting(
        "chain", key: "chain", valueName: "apple-like|untrusted-root", default: "none", example: "apple-like",
        help:
            "Serve a chain generated at start instead of --tls-cert/--tls-key (TEST ONLY): apple-like (leaf ← intermediate ← a root named like Apple's USERTrust RSA root, written as root.pem for the client to trust) or untrusted-root (a root nobody is given).",
        read: { input in
            let text = try input.string()
            guard let kind = ServerChainKind(rawValue: text) else {
                throw input.problem("must be \(ServerChainKind.spelled); got '\(text)'")
            }
            return kind
        },
        apply: { $1.serverChain = $0 },
        conflict: { source in
            guard source.gives(.tlsCert) || source.gives(.tlsKey) else { return nil }
            return
                "is served in place of \(source.name(of: .tlsCert)) and \(source.name(of: .tlsKey)): give one or the other"
        })
    public static let chainOut = ServeSetting(
        "chain-out", key: "chainOut", valueName: "dir", needs: [chain], default: "a new temporary directory",
        example: "chain",
        help:
            "Where --chain writes root.pem, intermediate.pem, server.pem and server-key.pem (default: a new temporary directory, named in the log).",
        read: { try $0.path() }, apply: { $1.serverChainDirectory = $0 })
    public static let environment = ServeSetting(
        "environment", key: "environment", default: "sandbox", example: "auto",
        help: "sandbox, production, or auto: from the TLS server name or :authority (default sandbox).",
        read: { try $0.choice(["sandbox": EnvironmentMode.sandbox, "production": .production, "auto": .auto]) },
        apply: { $1.environment = $0 })
    public static let maxConcurrentStreams = ServeSetting(
        "max-concurrent-streams", key: "maxConcurrentStreams", default: "1000", example: "10",
        help: "SETTINGS_MAX_CONCURRENT_STREAMS announced to clients (default 1000).",
        read: { UInt32(try $0.integer(in: 1...Int64(UInt32.max))) }, apply: { $1.http2.maxConcurrentStreams = $0 })
    public static let maxHeaderListSize = ServeSetting(
        "max-header-list-size", key: "maxHeaderListSize", default: "8000", example: "16000",
        help: "SETTINGS_MAX_HEADER_LIST_SIZE announced and enforced (default 8000).",
        read: { UInt32(try $0.integer(in: 1...Int64(UInt32.max))) }, apply: { $1.http2.maxHeaderListSize = $0 })
    public static let recordCapacity = ServeSetting(
        "record-capacity", key: "recordCapacity", default: "100000", example: "500",
        help: "Most requests recorded; the oldest go first (default 100000).",
        read: { Int(try $0.integer(in: 1...Int64(Int32.max))) }, apply: { $1.recordCapacity = $0 })
    public static let journal = ServeSetting(
        "journal", key: nil, valueName: "file", default: "none", example: nil,
        help: "Append every record, once its answer is decided, to this file as JSON Lines (created if missing).",
        read: { try $0.path() }, apply: { $1.journalPath = $0 })
    public static let restore = ServeSetting(
        "restore", key: nil, valueName: "file", default: "none", example: nil,
        help: "Load the records of a journal (or of a JSON Lines export) before serving; may be the --journal file.",
        read: { try $0.path() }, apply: { $1.restorePath = $0 })
    public static let threads = ServeSetting(
        "threads", key: "threads", default: "one per CPU the process may run on", example: "2",
        help: "Event-loop threads (default: one per CPU this process may run on, e.g. under taskset).",
        read: { Int(try $0.integer(in: 1...256)) }, apply: { $1.threads = $0 })
    public static let strictPayload = ServeSetting(
        "strict-payload", key: "strictPayload", isSwitch: true, negatable: true, default: "off", example: "true",
        help:
            "Reject payloads that are not a JSON object or whose lint finds an error (400 BadRequestPayload, the mock's own reason).",
        read: { try $0.bool() }, apply: { $1.strictPayload = $0 })
    public static let strictRegistry = ServeSetting(
        "strict-registry", key: "strictRegistry", isSwitch: true, negatable: true, default: "off", example: "true",
        help: "Unknown device tokens get BadDeviceToken, unknown key ids InvalidProviderToken.",
        read: { try $0.bool() }, apply: { $1.strictRegistry = $0 })
    public static let authStreamLimit = ServeSetting(
        "auth-stream-limit", key: "authStreamLimit", valueName: "on|off", default: "on", example: "false",
        help: "One stream per token connection until a push authenticates, as APNs does (default on).",
        read: { try $0.bool() }, apply: { $1.authStreamLimit = $0 })
    public static let environmentKeyReason = ServeSetting(
        "environment-key-reason", key: "environmentKeyReason",
        valueName: "BadEnvironmentKeyIdInToken|BadEnvironmentKeyInToken", default: "BadEnvironmentKeyIdInToken",
        example: "BadEnvironmentKeyInToken",
        help: "Reason for a key used in the wrong environment (default BadEnvironmentKeyIdInToken).",
        read: {
            try $0.choice([
                APNSReason.badEnvironmentKeyIdInToken.rawValue: APNSReason.badEnvironmentKeyIdInToken,
                APNSReason.badEnvironmentKeyInToken.rawValue: .badEnvironmentKeyInToken,
            ])
        },
        apply: { $1.environmentKeyReason = $0 })
    public static let clientCA = ServeSetting(
        "client-ca", key: "clientCA", valueName: "file|none",
        default: "certs/ca.pem with the default certificate, else none", example: "ca.pem",
        help:
            "PEM CA that signs provider (client) certificates, or none to ask for none (default: certs/ca.pem when the TLS certificate is the default certs/server.pem and certs/ca.pem exists, else none).",
        read: { input -> String? in
            guard try input.string() != noClientCA else { return nil }
            return try input.path()
        },
        apply: { path, configuration in
            configuration.clientCAPath = path
            configuration.askForClientCertificates = path != nil
        })
    public static let logLevel = ServeSetting(
        "log-level", key: "logLevel", default: "notice", example: "debug",
        help: "trace, debug, info, notice, warning, error or critical; logs go to stderr (default notice).",
        read: {
            try $0.choice([
                "trace": Logger.Level.trace, "debug": .debug, "info": .info, "notice": .notice, "warning": .warning,
                "error": .error, "critical": .critical,
            ])
        },
        apply: { $1.logLevel = $0 })
    public static let expectations = ServeSetting(
        "expectations", key: nil, valueName: "file-or-dir", severalValues: true, default: "none", example: nil,
        help:
            "Expectation files or directories whose setup: (keys, devices, faults, channels) is applied at start and by POST /v1/reset: several after one flag (--expectations a.yaml b.yaml), or the flag repeated.",
        read: { input in try input.elements(allowsOne: true).map { try $0.path() } })
    public static let seed = ServeSetting(
        "seed", key: "seed", default: "0", example: "42",
        help: "Default seed of fault rules' probability selections and delays (default 0).",
        read: { UInt64(try $0.integer(in: 0...Int64.max)) }, apply: { $1.seed = $0 })
    public static let throttle = ServeSetting(
        "throttle", key: "throttle", valueName: "R/W", default: "none", example: "3/10s",
        help: "Answer 429 TooManyRequests past R pushes to one device token within W (e.g. 3/10s).",
        read: { input in
            let text = try input.string()
            do throws(FaultRuleError) {
                return try ThrottleLimit(parsing: text)
            } catch {
                throw input.problem(error.message)
            }
        },
        apply: { $1.throttle = $0 })
    public static let behavior = ServeSetting(
        "behavior", key: "behaviors", valueName: "name", repeatable: true, default: "none",
        example: "[streams-after-rejection]",
        help:
            "Switch on an APNs connection behavior: streams-after-rejection, expired-token-poison, token-update-lockout[=DURATION], stream-limit-goaway. Repeatable.",
        read: { input in
            var behaviors: [ConnectionBehavior: Int64] = [:]
            for element in try input.elements(allowsOne: false) {
                let spec = try element.string()
                do throws(FaultRuleError) {
                    let (behavior, lockout) = try ConnectionBehavior.parse(spec: spec)
                    behaviors[behavior] = lockout ?? ConnectionBehavior.defaultLockoutMilliseconds
                } catch {
                    throw input.problem(error.message)
                }
            }
            return behaviors
        },
        apply: { behaviors, configuration in configuration.behaviors.merge(behaviors) { $1 } })
    public static let idleTimeout = ServeSetting(
        "idle-timeout", key: "idleTimeout", valueName: "duration", default: "none", example: "5m",
        help:
            "Send GOAWAY {\"reason\":\"IdleTimeout\"} to connections idle this long (e.g. 5m; a bare number is seconds).",
        read: { input -> Double in
            let text = try input.string()
            guard let seconds = DurationText.seconds(text), seconds > 0 else {
                throw input.problem("must be a duration such as 30s or 5m; got '\(text)'")
            }
            return seconds
        },
        apply: { $1.idleTimeout = .milliseconds(Int64($0 * 1000)) })
    public static let handshakeTimeout = ServeSetting(
        "handshake-timeout", key: "handshakeTimeout", valueName: "duration", default: "10s", example: "2s",
        help:
            "Close connections that have not finished the TLS handshake and the HTTP/2 preface after this long (default 10s; 0 turns it off).",
        read: { input -> Double in
            let text = try input.string()
            guard let seconds = DurationText.seconds(text), seconds >= 0 else {
                throw input.problem("must be a duration such as 10s (0 turns it off); got '\(text)'")
            }
            return seconds
        },
        apply: { $1.handshakeTimeout = $0 > 0 ? .milliseconds(Int64($0 * 1000)) : nil })
    public static let maxConnections = ServeSetting(
        "max-connections", key: "maxConnections", default: "none", example: "100",
        help: "Refuse APNs connections beyond this many.",
        read: { Int(try $0.integer(in: 1...1_000_000)) }, apply: { $1.maxConnections = $0 })
    public static let localizations = ServeSetting(
        "localizations", key: "localizations", valueName: "dir", default: "none", example: "Localizations",
        help: "An app's *.lproj/Localizable.strings and .xcstrings files: previews resolve loc-keys with them.",
        read: { try $0.path() }, apply: { $1.localizationsPath = $0 })
    public static let clock = ServeSetting(
        "clock", key: "clock", valueName: "mode", default: "system", example: "manual",
        help:
            "The server's clock: system (the wall clock), manual (stands still at the start time until POST /v1/clock moves it) or manual:<epoch ms> (starts there, for reproducible times).",
        read: { input in
            let text = try input.string()
            guard let mode = MockClock.Mode(parsing: text) else {
                throw input.problem("must be system, manual or manual:<epoch milliseconds>; got '\(text)'")
            }
            return mode
        },
        apply: { $1.clock = $0 })
    public static let locale = ServeSetting(
        "locale", key: "locale", valueName: "locale", default: "en", example: "fr",
        help: "The locale of devices without one in the registry (default en).",
        read: { input in
            let text = try input.string()
            guard PayloadAnalysisOptions.isValidLocale(text) else {
                throw input.problem("must be a locale such as en, fr or pt-BR; got '\(text)'")
            }
            return text
        },
        apply: { $1.locale = $0 })
    public static let payloadLimit = ServeSetting(
        "payload-limit", key: "payloadLimit", valueName: "bytes", default: "4096 (VoIP 5120)", example: "2048",
        help:
            "Payload limit for every push type in bytes, 256–5120 (2048 or 256 emulate the binary interface; default APNs's 4096, VoIP 5120).",
        read: {
            Int(
                try $0.integer(
                    in: Int64(PayloadAnalysisOptions.smallestPayloadLimit)...Int64(APNSPushType.largestPayloadLimit)))
        },
        apply: { $1.payloadLimit = $0 })
    public static let channelLimit = ServeSetting(
        "channel-limit", key: "channelLimit", valueName: "count", default: "10000", example: "5",
        help:
            "Most broadcast channels per app and environment; one more gets CannotCreateChannelConfig (default Apple's 10000).",
        read: { Int(try $0.integer(in: 0...Int64(Int32.max))) }, apply: { $1.channelLimit = $0 })
    public static let storedMessagesOutliveChannels = ServeSetting(
        "stored-messages-outlive-channels", key: "storedMessagesOutliveChannels", isSwitch: true, negatable: true,
        default: "off", example: "true",
        help:
            "A deleted storage channel's kept message still reaches a device that starts listening afterwards (APNs may deliver stored messages after a delete; default off).",
        read: { try $0.bool() }, apply: { $1.storedMessagesOutliveChannels = $0 })

    /// Every setting, in the order `serve --help` and the table list them.
    public static let all: [ServeSetting] = [
        config, host, port, adminHost, adminPort, channelsPort, webPushPort, advertiseURL, advertiseChannelsURL,
        advertiseWebPushURL, adminToken,
        adminInsecure, tlsCert, tlsKey, chain,
        chainOut, environment, maxConcurrentStreams, maxHeaderListSize, recordCapacity, journal, restore, threads,
        strictPayload, strictRegistry, authStreamLimit, environmentKeyReason, clientCA, logLevel, expectations, seed,
        throttle, behavior, idleTimeout, handshakeTimeout, maxConnections, localizations, locale, payloadLimit,
        channelLimit, storedMessagesOutliveChannels, clock,
    ]

    /// The keys of the settings a configuration file may hold: every setting's that has one.
    public static let keys: [String] = all.compactMap(\.key)

    /// The configuration file's keys: the settings', then `setup`.
    public static let fileKeys: [String] = keys + ["setup"]

    /// docs/COMMAND-LINE.md's settings table.
    public static var markdownTable: String {
        var lines = [
            "| flag | configuration key | default | what it does |",
            "|---|---|---|---|",
        ]
        for setting in all {
            var flag = "`--\(setting.flag)"
            if !setting.isSwitch { flag += " " + (setting.valueName ?? setting.flag.uppercased()) }
            flag = flag.replacing("|", with: "\\|") + "`"
            if setting.negatable { flag += ", `--no-\(setting.flag)`" }
            if setting.repeatable { flag += " …" }
            let key = setting.key.map { "`\($0)`" } ?? "—"
            let help = setting.help.replacing("|", with: "\\|")
            lines.append("| \(flag) | \(key) | \(setting.defaultValue) | \(help) |")
        }
        return lines.joined(separator: "\n")
    }
}
