import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import HashTreeCollections
import InMemoryHTTP2Client
import Logging

/// The APNs server the session targets talk to: the listener context of a mock on the fixed
/// clock with the fixtures' key, devices and channel, and a few pushes a client sends to it.
enum FuzzServer {
    /// The server's TLS context (never used by an in-memory connection, which starts after TLS,
    /// but a listener context needs one): the committed development certificate.
    static let tls: TLSServerContext = {
        let certs = FuzzFixtures.packageRoot + "/certs/"
        do {
            return try TLSServerContext(
                certificatePath: certs + "server.pem", privateKeyPath: certs + "server-key.pem")
        } catch {
            fatalError("the fuzz targets need \(certs)server.pem: \(error)")
        }
    }()

    /// A new listener context (registry, metrics) over `store`, quiet, on the fixed clock,
    /// without the one-stream limit before a token is accepted (a client that sends several
    /// pushes at once gets them all answered, as `apns-mock-bench` does).
    static func makeContext(store: DeliveryStore) -> APNSListenerContext {
        var logger = Logger(label: "apnsmock.fuzz")
        logger.logLevel = .critical
        let registry = Registry(
            keys: [FuzzFixtures.key],
            devices: Array(FuzzFixtures.registry.devices.values),
            channels: [
                ChannelSpec(
                    id: FuzzFixtures.channelID,
                    scope: ChannelScope(bundleID: FuzzFixtures.topic, environment: .sandbox))
            ],
            now: FuzzFixtures.now)
        return APNSListenerContext(
            tls: tls, settings: HTTP2Settings(), rules: ServiceRules(), environmentMode: .sandbox,
            store: store, registry: registry, authStreamLimit: false, logger: logger,
            now: { FuzzFixtures.now })
    }

    /// One request a client sends.
    struct Push {
        var method = "POST"
        var path: String
        var headers: [(String, String)]
        var body: [UInt8]?
    }

    /// Pushes of several kinds: accepted (alert, background, Live Activity, broadcast), and
    /// rejected (an unregistered device, a wrong topic, a payload the lint complains about).
    static let pushes: [Push] = {
        let auth = ("authorization", "bearer " + FuzzFixtures.signedProviderToken)
        let device = "/3/device/" + FuzzFixtures.deviceToken
        func json(_ text: String) -> [UInt8] { Array(text.utf8) }
        return [
            Push(
                path: device,
                headers: [
                    auth, ("apns-topic", FuzzFixtures.topic), ("apns-push-type", "alert"), ("apns-priority", "10"),
                    ("apns-id", "123E4567-E89B-42D3-A456-426614174000"), ("apns-collapse-id", "game-42"),
                ],
                body: json(#"{"aps":{"alert":{"title":"Hello","body":"World"},"badge":3,"sound":"default"}}"#)),
            Push(
                path: device,
                headers: [
                    auth, ("apns-topic", FuzzFixtures.topic), ("apns-push-type", "background"), ("apns-priority", "5"),
                ],
                body: json(#"{"aps":{"content-available":1},"custom":{"id":7}}"#)),
            Push(
                path: "/3/device/" + FuzzFixtures.unregisteredToken,
                headers: [auth, ("apns-topic", FuzzFixtures.topic), ("apns-push-type", "alert")],
                body: json(#"{"aps":{"alert":"gone"}}"#)),
            Push(
                path: device,
                headers: [auth, ("apns-topic", "com.example.other"), ("apns-push-type", "alert")],
                body: json(#"{"aps":{"alert":"wrong topic"}}"#)),
            Push(
                path: device,
                headers: [auth, ("apns-topic", FuzzFixtures.topic), ("apns-push-type", "alert")],
                body: json(
                    #"{"aps":{"alert":{"loc-key":"GAME_TITLE","loc-args":[1]},"sound":{"critical":1}},"x":"\u00e9"}"#)),
            Push(
                path: device,
                headers: [
                    auth, ("apns-topic", FuzzFixtures.topic + ".push-type.liveactivity"),
                    ("apns-push-type", "liveactivity"), ("apns-priority", "10"),
                ],
                body: json(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":2}}}"#)),
            Push(
                path: "/4/broadcasts/apps/" + FuzzFixtures.topic,
                headers: [auth, ("apns-channel-id", FuzzFixtures.channelID), ("apns-push-type", "LiveActivity")],
                body: json(#"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"score":3}}}"#)),
        ]
    }()

    /// Runs `pushes` through `connection` with an nghttp2 client until every stream closed (or
    /// nothing moves), and returns the bytes the client sent after its 24-byte preface.
    @discardableResult
    static func exchange(_ pushes: [Push], with connection: InMemoryAPNSConnection) -> [UInt8] {
        let client = InMemoryHTTP2Client()
        for push in pushes {
            client.submit(method: push.method, path: push.path, headers: push.headers, body: push.body)
        }
        var sent: [UInt8] = []
        var toServer = Array(client.output().dropFirst(24))
        var rounds = 0
        while !toServer.isEmpty && rounds < 100 {
            rounds += 1
            sent += toServer
            toServer.withUnsafeBufferPointer { _ = connection.receive($0) }
            var toClient: [UInt8] = []
            connection.collectOutput(into: &toClient)
            if !toClient.isEmpty { client.receive(toClient) }
            toServer = client.output()
        }
        return sent
    }
}
