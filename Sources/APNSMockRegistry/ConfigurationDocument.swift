import APNSMockCore
import Foundation
import Logging

/// The settings of an apns-mock YAML configuration file (`apns-mock serve --config FILE`), each
/// `nil` when the file leaves it out. camelCase keys, the same names as the `serve` flags:
///
/// ```yaml
/// host: 127.0.0.1
/// port: [443, 2197]          # or one number
/// adminHost: 127.0.0.1
/// adminPort: 2198
/// adminToken: s3cret         # or APNS_MOCK_ADMIN_TOKEN; callers send authorization: Bearer s3cret
/// adminInsecure: false       # true: allow a non-loopback adminHost without a token
/// tlsCert: certs/server.pem  # paths are relative to this file's directory
/// tlsKey: certs/server-key.pem
/// chain: apple-like          # or untrusted-root: a chain generated at start, served instead
/// chainOut: chain            # where it is written (default: a new temporary directory)
/// environment: sandbox       # sandbox, production or auto
/// maxConcurrentStreams: 1000
/// maxHeaderListSize: 8000
/// recordCapacity: 100000
/// threads: 2                      # default: one per CPU the process may run on
/// strictPayload: false
/// strictRegistry: false
/// authStreamLimit: true
/// environmentKeyReason: BadEnvironmentKeyIdInToken   # or BadEnvironmentKeyInToken
/// clientCA: certs/client-ca.pem
/// logLevel: notice
/// seed: 42                       # fault rules' default seed
/// throttle: 3/10s                 # 429 TooManyRequests past 3 pushes per token in 10 s
/// behaviors: [streams-after-rejection, token-update-lockout=30s]
/// idleTimeout: 5m
/// maxConnections: 100
/// localizations: Localizations   # *.lproj/Localizable.strings and .xcstrings, for previews
/// locale: en                     # devices without their own locale
/// payloadLimit: 2048             # every push type's limit (default: APNs's 4096, VoIP 5120)
/// channelLimit: 10000            # broadcast channels per app and environment (Apple's: 10,000)
/// storedMessagesOutliveChannels: false  # a deleted channel's kept message may still be delivered
/// setup: {keys: […], devices: […], faults: […], channels: […], broadcastDisabled: […]}  # see SetupSection
/// ```
///
/// Unknown keys are errors, so a typo is never a silently ignored setting.
public struct ConfigurationDocument: Sendable {
    public var host: String?
    /// Every APNs port, the main one first.
    public var ports: [Int]?
    public var adminHost: String?
    public var adminPort: Int?
    /// The channel-management port.
    public var channelsPort: Int?
    public var adminToken: String?
    public var adminInsecure: Bool?
    /// Resolved against the file's directory.
    public var tlsCertificatePath: String?
    /// Resolved against the file's directory.
    public var tlsKeyPath: String?
    /// A generated chain served in place of `tlsCert` and `tlsKey`.
    public var chain: ServerChainKind?
    /// Where the generated chain is written; resolved against the file's directory.
    public var chainDirectory: String?
    public var environment: EnvironmentMode?
    public var maxConcurrentStreams: UInt32?
    public var maxHeaderListSize: UInt32?
    public var recordCapacity: Int?
    public var threads: Int?
    public var strictPayload: Bool?
    public var strictRegistry: Bool?
    public var authStreamLimit: Bool?
    public var environmentKeyReason: APNSReason?
    /// Resolved against the file's directory.
    public var clientCAPath: String?
    public var logLevel: Logger.Level?
    public var seed: UInt64?
    public var throttle: ThrottleLimit?
    /// Behaviors on at start, with `token-update-lockout`'s lockout (ms).
    public var behaviors: [ConnectionBehavior: Int64]?
    /// Seconds.
    public var idleTimeout: Double?
    /// `handshakeTimeout`, in seconds; 0 turns it off.
    public var handshakeTimeout: Double?
    public var maxConnections: Int?
    /// Resolved against the file's directory.
    public var localizationsPath: String?
    public var locale: String?
    public var payloadLimit: Int?
    /// Broadcast channels per app and environment.
    public var channelLimit: Int?
    public var storedMessagesOutliveChannels: Bool?
    /// How the server's clock starts (`clock:`).
    public var clock: MockClock.Mode?
    /// Keys and devices registered at start; empty when the file has no `setup`.
    public var setup = SetupSection()

    /// The top-level keys of the file: those `ServeSetting` declares, and `setup`.
    public static let fields = ServeSetting.fileKeys

    /// A document that sets nothing.
    public init() {}

    /// Reads the file at `path` (relative paths inside it are relative to its directory).
    /// - Throws: `ConfigurationFileError`: one line naming `path`, the key path and the problem.
    public static func load(contentsOf path: String, now: Int64) throws(ConfigurationFileError)
        -> ConfigurationDocument
    {
        let text: String
        do {
            text = try FileProblem.readText(path)
        } catch {
            throw ConfigurationFileError(file: path, problem: SpecError(path: "", problem: error.description))
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(yaml: text, file: path, baseDirectory: directory, now: now)
    }

    /// Reads YAML `text`; `file` names it in errors, `baseDirectory` anchors relative paths.
    /// - Throws: `ConfigurationFileError` naming `file`, the key path and the problem.
    public static func parse(yaml text: String, file: String, baseDirectory: String, now: Int64)
        throws(ConfigurationFileError) -> ConfigurationDocument
    {
        do throws(SpecError) {
            let root = try SpecValue.parse(yaml: text)
            guard case .object = root else {
                throw SpecError(
                    path: "",
                    problem: "must be a YAML mapping of settings (host: …, port: …); got \(root.kindDescription)")
            }
            return try decode(SpecObject(root, path: ""), baseDirectory: baseDirectory, now: now)
        } catch {
            throw ConfigurationFileError(file: file, problem: error)
        }
    }

    private static func decode(_ object: SpecObject, baseDirectory: String, now: Int64) throws(SpecError)
        -> ConfigurationDocument
    {
        try object.rejectUnknownFields(known: fields)
        var document = ConfigurationDocument()
        document.host = try nonEmptyString(object, "host")
        document.ports = try ports(object)
        document.adminHost = try nonEmptyString(object, "adminHost")
        document.adminPort = try object.integer("adminPort", in: 0...65535).map { Int($0) }
        document.channelsPort = try object.integer("channelsPort", in: 0...65535).map { Int($0) }
        document.adminToken = try nonEmptyString(object, "adminToken")
        document.adminInsecure = try object.bool("adminInsecure")
        document.tlsCertificatePath = try path(object, "tlsCert", baseDirectory)
        document.tlsKeyPath = try path(object, "tlsKey", baseDirectory)
        if let text = try object.string("chain") {
            guard let kind = ServerChainKind(rawValue: text) else {
                throw object.error("chain", "must be \(ServerChainKind.spelled); got '\(text)'")
            }
            document.chain = kind
        }
        document.chainDirectory = try path(object, "chainOut", baseDirectory)
        if document.chain != nil, document.tlsCertificatePath != nil || document.tlsKeyPath != nil {
            throw object.error("chain", "is served in place of tlsCert and tlsKey: give one or the other")
        }
        document.environment = try object.choice(
            "environment", ["sandbox": EnvironmentMode.sandbox, "production": .production, "auto": .auto])
        document.maxConcurrentStreams = try object.integer("maxConcurrentStreams", in: 1...Int64(UInt32.max)).map {
            UInt32($0)
        }
        document.maxHeaderListSize = try object.integer("maxHeaderListSize", in: 1...Int64(UInt32.max)).map {
            UInt32($0)
        }
        document.recordCapacity = try object.integer("recordCapacity", in: 1...Int64(Int32.max)).map { Int($0) }
        document.threads = try object.integer("threads", in: 1...256).map { Int($0) }
        document.strictPayload = try object.bool("strictPayload")
        document.strictRegistry = try object.bool("strictRegistry")
        document.authStreamLimit = try object.bool("authStreamLimit")
        document.environmentKeyReason = try object.choice(
            "environmentKeyReason",
            [
                APNSReason.badEnvironmentKeyIdInToken.rawValue: APNSReason.badEnvironmentKeyIdInToken,
                APNSReason.badEnvironmentKeyInToken.rawValue: .badEnvironmentKeyInToken,
            ])
        document.clientCAPath = try path(object, "clientCA", baseDirectory)
        document.logLevel = try object.choice(
            "logLevel",
            [
                "trace": Logger.Level.trace, "debug": .debug, "info": .info, "notice": .notice, "warning": .warning,
                "error": .error, "critical": .critical,
            ])
        document.seed = try object.integer("seed", in: 0...Int64.max).map { UInt64($0) }
        if let text = try object.string("throttle") {
            do throws(FaultRuleError) {
                document.throttle = try ThrottleLimit(parsing: text)
            } catch {
                throw object.error("throttle", error.message)
            }
        }
        if let specs = try object.strings("behaviors") {
            var behaviors: [ConnectionBehavior: Int64] = [:]
            for spec in specs {
                do throws(FaultRuleError) {
                    let (behavior, lockout) = try ConnectionBehavior.parse(spec: spec)
                    behaviors[behavior] = lockout ?? ConnectionBehavior.defaultLockoutMilliseconds
                } catch {
                    throw object.error("behaviors", error.message)
                }
            }
            document.behaviors = behaviors
        }
        if let text = try object.string("idleTimeout") {
            guard let seconds = DurationText.seconds(text), seconds > 0 else {
                throw object.error("idleTimeout", "must be a duration such as 30s or 5m; got '\(text)'")
            }
            document.idleTimeout = seconds
        }
        if let text = try object.string("handshakeTimeout") {
            guard let seconds = DurationText.seconds(text), seconds >= 0 else {
                throw object.error("handshakeTimeout", "must be a duration such as 10s (0 turns it off); got '\(text)'")
            }
            document.handshakeTimeout = seconds
        }
        document.maxConnections = try object.integer("maxConnections", in: 1...1_000_000).map { Int($0) }
        document.localizationsPath = try path(object, "localizations", baseDirectory)
        if let clock = try object.string("clock") {
            guard let mode = MockClock.Mode(parsing: clock) else {
                throw object.error("clock", "must be system, manual or manual:<epoch milliseconds>; got '\(clock)'")
            }
            document.clock = mode
        }
        if let locale = try object.string("locale") {
            guard PayloadAnalysisOptions.isValidLocale(locale) else {
                throw object.error("locale", "must be a locale such as en, fr or pt-BR; got '\(locale)'")
            }
            document.locale = locale
        }
        document.payloadLimit = try object.integer(
            "payloadLimit",
            in: Int64(PayloadAnalysisOptions.smallestPayloadLimit)...Int64(APNSPushType.largestPayloadLimit)
        ).map { Int($0) }
        document.channelLimit = try object.integer("channelLimit", in: 0...Int64(Int32.max)).map { Int($0) }
        document.storedMessagesOutliveChannels = try object.bool("storedMessagesOutliveChannels")
        if let setup = try object.object("setup") {
            document.setup = try SetupSection.decode(setup, baseDirectory: baseDirectory, now: now)
        }
        return document
    }

    private static func nonEmptyString(_ object: SpecObject, _ key: String) throws(SpecError) -> String? {
        guard let text = try object.string(key) else { return nil }
        guard !text.isEmpty else { throw object.error(key, "must not be empty") }
        return text
    }

    private static func path(_ object: SpecObject, _ key: String, _ baseDirectory: String) throws(SpecError)
        -> String?
    {
        try nonEmptyString(object, key).map { ProviderKeySpec.resolve($0, against: baseDirectory) }
    }

    /// `port: 2197` or `port: [443, 2197]`.
    private static func ports(_ object: SpecObject) throws(SpecError) -> [Int]? {
        guard let value = object.value("port") else { return nil }
        guard case .array(let elements) = value else {
            return [Int(try SpecObject.integer(value, path: object.path(of: "port"), in: 0...65535))]
        }
        guard !elements.isEmpty else { throw object.error("port", "must list at least one port") }
        var ports: [Int] = []
        for (index, element) in elements.enumerated() {
            let path = SpecError.join(object.path(of: "port"), index: index)
            ports.append(Int(try SpecObject.integer(element, path: path, in: 0...65535)))
        }
        return ports
    }
}
