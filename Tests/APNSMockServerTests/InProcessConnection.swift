import APNSMockCore
import Logging
import Testing

@testable import APNSMockServer

/// The server's HTTP/2 session and request processor joined to a test client, no sockets,
/// no TLS: bytes are carried by `pump()`.
final class InProcessConnection {
    let client = HTTP2TestClient()
    let server: HTTP2ServerSession
    var processor: APNSRequestProcessor
    let store: DeliveryStore
    private var prefaceStripped = false

    static let repositoryRoot: String = {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        return "/" + path.joined(separator: "/")
    }()

    init(
        settings: HTTP2Settings = HTTP2Settings(), policy: ValidationPolicy = ValidationPolicy(),
        environment: EnvironmentMode = .sandbox, capacity: Int = 1000
    ) throws {
        let tls = try TLSServerContext(
            certificatePath: Self.repositoryRoot + "/certs/server.pem",
            privateKeyPath: Self.repositoryRoot + "/certs/server-key.pem")
        store = DeliveryStore(capacity: capacity)
        let context = APNSListenerContext(
            tls: tls, settings: settings, rules: RequestRules(policy: policy), environmentMode: environment,
            store: store, logger: Logger(label: "test"), now: { 1_700_000_000_000 })
        server = try HTTP2ServerSession(settings: settings)
        processor = APNSRequestProcessor(context: context, connectionID: 1)
    }

    /// Moves bytes both ways until neither side has anything to send.
    func pump(rounds: Int = 20) {
        for _ in 0..<rounds {
            var toServer = client.output()
            if !prefaceStripped && toServer.count >= 24 {
                #expect(Array(toServer.prefix(24)) == Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8))
                toServer.removeFirst(24)
                prefaceStripped = true
            }
            if !toServer.isEmpty {
                _ = toServer.withUnsafeBufferPointer { server.receive($0) }
            }
            for ready in server.takeReadyRequests() {
                let answer = processor.answer(ready, serverName: nil, receivedAt: 1_700_000_000_000)
                server.respond(
                    streamID: ready.streamID, status: answer.status, headers: answer.headers, body: answer.body)
            }
            var toClient: [UInt8] = []
            server.collectOutput(into: &toClient)
            if !toClient.isEmpty { client.receive(toClient) }
            if toServer.isEmpty && toClient.isEmpty { return }
        }
    }
}
