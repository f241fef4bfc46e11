import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import InMemoryHTTP2Client
import Logging
import Synchronization
import Testing

@testable import APNSMockTransport

/// The server's HTTP/2 session and request processor joined to a test client, no sockets,
/// no TLS: bytes are carried by `pump()`. With a `driver`, the session's timers and closes are
/// recorded there, and a test fires the timers.
final class InProcessConnection {
    let client = HTTP2TestClient()
    let session: APNSSession
    let store: DeliveryStore
    let registry: Registry
    /// The listener context the session was made with (shared by ``sibling(connectionID:)``).
    let context: APNSListenerContext
    private var prefaceStripped = false
    /// The clock every request sees; tests move it.
    let clock: TestClock
    /// What the session asked of its connection (timers, closing); `nil`: nothing records it.
    let driver: RecordingDriver?

    static let repositoryRoot: String = {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        return "/" + path.joined(separator: "/")
    }()

    convenience init(
        settings: HTTP2Settings = HTTP2Settings(), policy: ValidationPolicy = ValidationPolicy(),
        environment: EnvironmentMode = .sandbox, capacity: Int = 1000, authentication: AuthenticationMode = .token,
        registry: Registry = Registry(), authStreamLimit: Bool = false, clock: TestClock = TestClock(),
        faults: FaultControl = FaultControl(), service: APNSService = .push, driver: RecordingDriver? = nil
    ) throws {
        let tls = try TLSServerContext(
            certificatePath: Self.repositoryRoot + "/certs/server.pem",
            privateKeyPath: Self.repositoryRoot + "/certs/server-key.pem")
        let context = APNSListenerContext(
            tls: tls, settings: settings, rules: ServiceRules(policy: policy), environmentMode: environment,
            store: DeliveryStore(capacity: capacity), registry: registry, authStreamLimit: authStreamLimit,
            logger: Logger(label: "test"), faults: faults, now: { clock.now })
        try self.init(
            context: context, clock: clock, connectionID: 1, authentication: authentication, service: service,
            driver: driver)
    }

    private init(
        context: APNSListenerContext, clock: TestClock, connectionID: UInt64, authentication: AuthenticationMode,
        service: APNSService = .push, driver: RecordingDriver? = nil
    ) throws {
        self.context = context
        store = context.store
        registry = context.registry
        self.clock = clock
        self.driver = driver
        session = try APNSSession(
            context: context, connectionID: connectionID, authentication: authentication, serverName: nil,
            service: service, logger: Logger(label: "test"))
        session.driver = driver
        driver?.session = session
    }

    /// Another connection to the same server: the same store, registry, faults and clock, a
    /// token-authenticated session of its own.
    func sibling(connectionID: UInt64 = 2) throws -> InProcessConnection {
        try InProcessConnection(context: context, clock: clock, connectionID: connectionID, authentication: .token)
    }

    /// Moves bytes both ways until neither side has anything to send; returns the HEADERS,
    /// DATA, RST_STREAM and GOAWAY frames the client got, in wire order (what the driver flushed
    /// for a close first).
    @discardableResult
    func pump(rounds: Int = 20) -> [ServerFrame] {
        var received: [UInt8] = []
        for _ in 0..<rounds {
            var toServer = client.output()
            if !prefaceStripped && toServer.count >= 24 {
                #expect(Array(toServer.prefix(24)) == Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8))
                toServer.removeFirst(24)
                prefaceStripped = true
            }
            if !toServer.isEmpty,
                case .readThenClose(let close) = toServer.withUnsafeBufferPointer({ session.receive($0) })
            {
                driver?.recordClose(close)
            }
            var toClient = driver?.takeFlushedOutput() ?? []
            session.collectOutput(into: &toClient)
            if !toClient.isEmpty { client.receive(toClient) }
            received += toClient
            if toServer.isEmpty && toClient.isEmpty { break }
        }
        return ServerFrame.frames(in: received)
    }
}

/// A settable clock (epoch milliseconds) shared with the server under test.
final class TestClock: Sendable {
    private let value: Mutex<Int64>

    init(_ start: Int64 = 1_700_000_000_000) { value = Mutex(start) }

    var now: Int64 { value.withLock { $0 } }

    func advance(seconds: Int64) { value.withLock { $0 += seconds * 1000 } }
}
