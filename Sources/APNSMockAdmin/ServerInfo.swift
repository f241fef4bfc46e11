import APNSMockCore
import NIOConcurrencyHelpers

/// What `GET /v1/info` says of the running server, so that a client that knows only the admin
/// URL finds the rest, and the CA certificate `GET /v1/ca.pem` serves.
public final class ServerInfo: Sendable {
    /// Where the server listens, as URLs and ports.
    public struct Addresses: Sendable, Equatable {
        public var apnsURL: String
        public var apnsPorts: [Int]
        public var channelsURL: String
        public var channelsPort: Int
        /// The Web Push URL (advertised or bound): subscriptions' endpoints start with it.
        public var webPushURL: String
        public var webPushPort: Int
        public var adminURL: String
        public var adminPort: Int

        public init(
            apnsURL: String, apnsPorts: [Int], channelsURL: String, channelsPort: Int, webPushURL: String,
            webPushPort: Int, adminURL: String, adminPort: Int
        ) {
            self.apnsURL = apnsURL
            self.apnsPorts = apnsPorts
            self.channelsURL = channelsURL
            self.channelsPort = channelsPort
            self.webPushURL = webPushURL
            self.webPushPort = webPushPort
            self.adminURL = adminURL
            self.adminPort = adminPort
        }
    }

    let version: String
    let environment: String
    /// The CA a client trusts to reach the APNs ports (PEM); `nil` when apns-mock does not know it.
    let caCertificate: [UInt8]?
    /// Why there is no CA to serve, for the 404.
    let noCAReason: String
    private let addresses: NIOLockedValueBox<Addresses>

    public init(
        version: String, environment: String, caCertificate: [UInt8]?, noCAReason: String, addresses: Addresses
    ) {
        self.version = version
        self.environment = environment
        self.caCertificate = caCertificate
        self.noCAReason = noCAReason
        self.addresses = NIOLockedValueBox(addresses)
    }

    /// The Web Push URL subscriptions' endpoints start with (advertised or bound).
    public var webPushURL: String { addresses.withLockedValue { $0.webPushURL } }

    /// The addresses once every port is bound (the admin port is known only then).
    public func update(_ change: (inout Addresses) -> Void) { addresses.withLockedValue { change(&$0) } }

    /// `{"version", "environment", "apnsUrl", "apnsPorts", "channelsUrl", "channelsPort", "webPushUrl",
    /// "webPushPort", "adminUrl", "adminPort", "caUrl"}`.
    var json: [UInt8] {
        let now = addresses.withLockedValue { $0 }
        var writer = JSONWriter(capacity: 384)
        writer.beginObject()
        writer.key("version")
        writer.string(version)
        writer.key("environment")
        writer.string(environment)
        writer.key("apnsUrl")
        writer.string(now.apnsURL)
        writer.key("apnsPorts")
        writer.beginArray()
        for port in now.apnsPorts { writer.number(port) }
        writer.endArray()
        writer.key("channelsUrl")
        writer.string(now.channelsURL)
        writer.key("channelsPort")
        writer.number(now.channelsPort)
        writer.key("webPushUrl")
        writer.string(now.webPushURL)
        writer.key("webPushPort")
        writer.number(now.webPushPort)
        writer.key("adminUrl")
        writer.string(now.adminURL)
        writer.key("adminPort")
        writer.number(now.adminPort)
        writer.key("caUrl")
        if caCertificate != nil { writer.string("/v1/ca.pem") } else { writer.null() }
        writer.endObject()
        return writer.bytes
    }
}
