import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Every setting of `apns-mock serve`, with the built-in defaults.
public struct APNSMockConfiguration: Sendable {
    /// APNs listener address; port 0 picks a free port.
    public var host = "127.0.0.1"
    public var port = 2197
    /// More APNs ports served the same way (APNs itself answers on 443 and 2197).
    public var additionalPorts: [Int] = []
    /// Channel-management port on `host` (Apple's: 2195 sandbox, 2196 production); 0 picks a
    /// free port. `nil`: 2195, or a free port when `port` is 0 (so that several mocks started
    /// with free ports do not collide).
    public var channelsPort: Int?
    /// The channel-management port the server binds (`channelsPort`, or its default).
    public var effectiveChannelsPort: Int { channelsPort ?? (port == 0 ? 0 : Self.defaultChannelsPort) }
    /// Apple's sandbox channel-management port.
    public static let defaultChannelsPort = 2195
    /// Web Push port on `host` (Apple's `web.push.apple.com` serves 443); 0 picks a free port.
    /// `nil`: 2199, or a free port when `port` is 0.
    public var webPushPort: Int?
    /// The Web Push port the server binds (`webPushPort`, or its default).
    public var effectiveWebPushPort: Int { webPushPort ?? (port == 0 ? 0 : Self.defaultWebPushPort) }
    /// The mock's Web Push port when none is given: beside the APNs (2197) and admin (2198) ports.
    public static let defaultWebPushPort = 2199
    /// Admin API address; port 0 picks a free port.
    public var adminHost = "127.0.0.1"
    public var adminPort = 2198
    /// Bearer token every admin call but `/health` must present (`authorization: Bearer …`);
    /// `nil`: none asked for.
    public var adminToken: String?
    /// Allows an admin address other than loopback without `adminToken`; refused otherwise.
    public var adminInsecure = false
    /// PEM server certificate (chain) and key.
    /// The APNs URL `GET /v1/info` gives clients instead of the bound one (`--advertise-url`).
    public var advertisedAPNsURL: String?
    /// The channel-management URL `GET /v1/info` gives instead of the bound one.
    public var advertisedChannelsURL: String?
    /// The Web Push URL `GET /v1/info` and subscriptions' endpoints use instead of the bound one.
    public var advertisedWebPushURL: String?
    public var tlsCertificatePath = "certs/server.pem"
    public var tlsKeyPath = "certs/server-key.pem"
    /// A chain generated at start and served in place of `tlsCertificatePath` and `tlsKeyPath`
    /// (`--chain`; see ``ServerChain``); `nil`: those files.
    public var serverChain: ServerChainKind?
    /// Where the generated chain is written (`--chain-out`); `nil`: a new temporary directory.
    public var serverChainDirectory: String?
    public var environment = EnvironmentMode.sandbox
    /// HTTP/2 SETTINGS announced to clients.
    public var http2 = HTTP2Settings()
    /// Most records kept; the oldest go first.
    public var recordCapacity = 100_000
    /// `--journal`: appends every record, once its answer is decided, to this file (JSON Lines).
    public var journalPath: String?
    /// `--restore`: loads the records of this journal before serving.
    public var restorePath: String?
    /// Event-loop threads for the APNs and admin listeners; `nil`: one per CPU this process may
    /// run on (its affinity mask, so `taskset -c 0 apns-mock serve` gets one). Takes effect only
    /// through `APNSMockApplication.useThreads(_:)` before the first application starts.
    public var threads: Int?
    /// Reject payloads that are not a JSON object, or whose lint finds an error (400
    /// BadRequestPayload).
    public var strictPayload = false
    /// Unknown device tokens get BadDeviceToken, unknown key ids InvalidProviderToken.
    public var strictRegistry = false
    /// One stream per token connection until a push passes authentication, then
    /// `http2.maxConcurrentStreams` (as APNs does). Off for load generators.
    public var authStreamLimit = true
    /// `BadEnvironmentKeyIdInToken` (default) or `BadEnvironmentKeyInToken`.
    public var environmentKeyReason = APNSReason.badEnvironmentKeyIdInToken
    /// PEM CA that signs provider (client) certificates; `nil`: no client certificates asked for.
    /// `apns-mock serve` fills it in with ``useDevelopmentClientCA()`` when no client CA is named.
    public var clientCAPath: String?
    /// Keys and devices registered at start (`setup:` in the configuration file).
    public var keys: [ProviderKey] = []
    public var devices: [DeviceRegistration] = []
    /// Broadcast channels created at start and again by `POST /v1/reset` (`setup.channels`).
    public var channels: [ChannelSpec] = []
    /// Apps whose broadcast capability is off at start and after `POST /v1/reset`
    /// (`setup.broadcastDisabled`).
    public var broadcastDisabled: [String] = []
    /// The most broadcast channels an app may have in one environment (`--channel-limit`;
    /// Apple's is 10,000): creating one more answers `CannotCreateChannelConfig`.
    public var channelLimit = ChannelDirectory.defaultLimit
    /// Whether a deleted storage channel's kept message still reaches a device that starts
    /// listening to it afterwards ("APNs may still deliver stored messages after you delete the
    /// channel"); off by default (`--stored-messages-outlive-channels`).
    public var storedMessagesOutliveChannels = false
    public var logLevel = Logger.Level.notice
    /// Fault rules installed at start and again by `POST /v1/reset` (`setup.faults`), as
    /// `POST /v1/faults` bodies.
    public var faults: [JSONValue] = []
    /// The seed of fault rules that name none (`--seed`): the same seed, the same selections.
    public var seed: UInt64 = 0
    /// `--throttle R/W`: 429 TooManyRequests past R pushes to one token within W.
    public var throttle: ThrottleLimit?
    /// APNs behaviors on at start (`--behavior`), with `token-update-lockout`'s lockout (ms).
    public var behaviors: [ConnectionBehavior: Int64] = [:]
    /// Idle connections get GOAWAY `{"reason":"IdleTimeout"}` after this long.
    public var idleTimeout: Duration?
    /// Connections that have not finished the TLS handshake and the HTTP/2 client preface this
    /// long after accept are closed (slow or half-open handshakes); `nil`: never.
    public var handshakeTimeout: Duration? = .seconds(10)
    /// Connections beyond this many are closed at accept.
    public var maxConnections: Int?
    /// How long SIGTERM waits for connections to finish their streams.
    public var shutdownGrace: Duration = .seconds(5)
    /// A directory of the app's `*.lproj/Localizable.strings` and `.xcstrings` files: previews
    /// resolve `loc-key`s with them (`--localizations`).
    public var localizationsPath: String?
    /// How the server's clock starts (`--clock`): the wall clock, or standing still until
    /// `/v1/clock` moves it.
    public var clock = MockClock.Mode.system
    /// The locale of devices that have none in the registry (`--locale`).
    public var locale = PayloadAnalysisOptions.defaultLocaleName
    /// A payload limit for every push type in place of APNs's (`--payload-limit`; 2048 or 256
    /// emulate the binary interface).
    public var payloadLimit: Int?

    public init() {}

    /// Adds keys, devices, fault rules and channels to the start-up setup (an expectation file's
    /// `setup:`); a key id, device token or fixed channel id given before is replaced.
    public mutating func addSetup(
        keys: [ProviderKey], devices: [DeviceRegistration], faults: [JSONValue] = [], channels: [ChannelSpec] = [],
        broadcastDisabled: [String] = []
    ) {
        self.faults += faults
        for channel in channels {
            if let id = channel.id { self.channels.removeAll { $0.id == id } }
            self.channels.append(channel)
        }
        for bundleID in broadcastDisabled where !self.broadcastDisabled.contains(bundleID) {
            self.broadcastDisabled.append(bundleID)
        }
        for key in keys {
            self.keys.removeAll { $0.keyID == key.keyID }
            self.keys.append(key)
        }
        for device in devices {
            self.devices.removeAll { $0.token == device.token }
            self.devices.append(device)
        }
    }

    /// Whether the server certificate is the default one (`certs/server.pem` with its key): the
    /// committed test certificate when run from the repository root, else the development
    /// credentials generated per user (``DevelopmentCredentials``).
    public var usesDefaultServerCertificate: Bool {
        let defaults = APNSMockConfiguration()
        return tlsCertificatePath == defaults.tlsCertificatePath && tlsKeyPath == defaults.tlsKeyPath
    }

    /// With the generated development credentials and no `clientCAPath`, ask clients for
    /// certificates signed by the generated CA (as `certs/ca.pem` is asked for in the repository).
    /// `false` when a configuration said `clientCA: null` (no client certificates asked for).
    public var askForClientCertificates = true

    /// The development CA, relative to the working directory: it signed the default
    /// `certs/server.pem` and the committed sample provider certificates (`certs/provider-*.pem`).
    public static let developmentClientCAPath = "certs/ca.pem"

    /// Asks for provider certificates signed by the development CA, as `apns-mock serve` does when
    /// neither `--client-ca` nor the configuration file names a client CA: sets `clientCAPath` to
    /// ``developmentClientCAPath`` when the TLS certificate is the default one (the path
    /// `certs/server.pem`) and that CA file exists. Otherwise leaves `clientCAPath` as it is.
    /// - Returns: whether it set `clientCAPath`.
    @discardableResult
    public mutating func useDevelopmentClientCA(
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> Bool {
        guard tlsCertificatePath == APNSMockConfiguration().tlsCertificatePath,
            fileExists(Self.developmentClientCAPath)
        else { return false }
        clientCAPath = Self.developmentClientCAPath
        return true
    }
}
