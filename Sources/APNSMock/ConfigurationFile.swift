import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport

/// A YAML configuration file (`apns-mock serve --config FILE`) and its mapping onto
/// `APNSMockConfiguration`.
///
/// Precedence: built-in defaults, then the file, then command-line flags. `apply(to:)` lays
/// the file over a configuration (the defaults, usually); the caller lays the flags over the
/// result. The schema is `ConfigurationDocument`'s; `apns-mock.example.yaml` at the
/// repository root shows every setting with its default.
public struct ConfigurationFile: Sendable {
    /// The file as the user named it.
    public let path: String
    /// What the file sets.
    public let document: ConfigurationDocument

    /// Reads and checks the file at `path`; relative paths in it are relative to its directory.
    /// `now` (epoch ms) dates devices whose `state` is given without a time.
    /// - Throws: `ConfigurationFileError`: one line naming the file, the key path and the problem.
    public init(contentsOf path: String, now: Int64 = APNSListenerContext.systemNow()) throws(ConfigurationFileError) {
        self.path = path
        document = try ConfigurationDocument.load(contentsOf: path, now: now)
    }

    /// Sets every setting the file holds; leaves the others as they are. `setup` keys, devices,
    /// fault rules and channels are added to those already in `configuration`.
    public func apply(to configuration: inout APNSMockConfiguration) {
        let document = document
        if let host = document.host { configuration.host = host }
        if let ports = document.ports, let first = ports.first {
            configuration.port = first
            configuration.additionalPorts = Array(ports.dropFirst())
        }
        if let adminHost = document.adminHost { configuration.adminHost = adminHost }
        if let adminPort = document.adminPort { configuration.adminPort = adminPort }
        if let channelsPort = document.channelsPort { configuration.channelsPort = channelsPort }
        if let adminToken = document.adminToken { configuration.adminToken = adminToken }
        if let adminInsecure = document.adminInsecure { configuration.adminInsecure = adminInsecure }
        if let path = document.tlsCertificatePath { configuration.tlsCertificatePath = path }
        if let path = document.tlsKeyPath { configuration.tlsKeyPath = path }
        if let chain = document.chain { configuration.serverChain = chain }
        if let path = document.chainDirectory { configuration.serverChainDirectory = path }
        if let environment = document.environment { configuration.environment = environment }
        if let streams = document.maxConcurrentStreams { configuration.http2.maxConcurrentStreams = streams }
        if let size = document.maxHeaderListSize { configuration.http2.maxHeaderListSize = size }
        if let capacity = document.recordCapacity { configuration.recordCapacity = capacity }
        if let threads = document.threads { configuration.threads = threads }
        if let strict = document.strictPayload { configuration.strictPayload = strict }
        if let strict = document.strictRegistry { configuration.strictRegistry = strict }
        if let limit = document.authStreamLimit { configuration.authStreamLimit = limit }
        if let reason = document.environmentKeyReason { configuration.environmentKeyReason = reason }
        if let path = document.clientCAPath { configuration.clientCAPath = path }
        if let level = document.logLevel { configuration.logLevel = level }
        if let seed = document.seed { configuration.seed = seed }
        if let throttle = document.throttle { configuration.throttle = throttle }
        if let behaviors = document.behaviors { configuration.behaviors = behaviors }
        if let seconds = document.idleTimeout { configuration.idleTimeout = .milliseconds(Int64(seconds * 1000)) }
        if let seconds = document.handshakeTimeout {
            configuration.handshakeTimeout = seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : nil
        }
        if let limit = document.maxConnections { configuration.maxConnections = limit }
        if let path = document.localizationsPath { configuration.localizationsPath = path }
        if let locale = document.locale { configuration.locale = locale }
        if let clock = document.clock { configuration.clock = clock }
        if let limit = document.payloadLimit { configuration.payloadLimit = limit }
        if let limit = document.channelLimit { configuration.channelLimit = limit }
        if let outlive = document.storedMessagesOutliveChannels {
            configuration.storedMessagesOutliveChannels = outlive
        }
        configuration.keys += document.setup.keys
        configuration.devices += document.setup.devices
        configuration.faults += document.setup.faults
        configuration.channels += document.setup.channels
        configuration.broadcastDisabled += document.setup.broadcastDisabled
    }

    /// The built-in defaults with this file laid over them.
    public var configuration: APNSMockConfiguration {
        var configuration = APNSMockConfiguration()
        apply(to: &configuration)
        return configuration
    }
}
