import APNSMock
import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Crypto
import Foundation
import InMemoryHTTP2Client
import Logging

/// `apns-mock-bench`: drives an in-memory nghttp2 client against the APNs server session (no
/// sockets, no TLS) for a fixed number of pushes. Under `valgrind --tool=callgrind` two runs
/// with different counts give a stable instructions-per-request figure (see bench/).
///
/// usage: apns-mock-bench [REQUESTS] [PAYLOAD_BYTES] [CONCURRENT] [READ] [RULES] [CAPACITY] [OFFLINE]
///   READ 1: afterwards read every record once through the store, as the admin API does (each
///   record's first read computes its lint and preview); READ 2: analyse every payload directly
///   (`PayloadAnalyzer` alone, nothing else read); READ 3: follow the store as an unfiltered event
///   stream does, rendering each record as its `delivery` event. RULES: that many fault rules, each on a
///   device token nobody pushes to (the cost of matching rules that do not act). CAPACITY: the
///   store's (default: REQUESTS, at least 1,000); below REQUESTS, every push past it evicts the
///   oldest record, as in a load test whose store is full. OFFLINE 1: the device pushed to is
///   registered offline, so every push is held (each replacing the last: one per app), as the
///   running server's store learns of it from the registry (issue 40: what the offline path costs).
@main
struct BenchCommand {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
        let total = arguments.first ?? 10_000
        let payloadBytes = arguments.dropFirst().first ?? 100
        let concurrent = arguments.dropFirst(2).first ?? 64
        let read = arguments.dropFirst(3).first ?? 0
        let ruleCount = arguments.dropFirst(4).first ?? 0
        let capacity = arguments.dropFirst(5).first ?? max(total, 1000)
        let offline = arguments.dropFirst(6).first == 1

        let keyPEM = try String(contentsOfFile: "certs/AuthKey_ABC123DEFG.p8", encoding: .utf8)
        let signingKey = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        let registry = Registry(keys: [
            ProviderKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: signingKey.publicKey)
        ])
        var logger = Logger(label: "apnsmock.bench")
        logger.logLevel = .error
        let store = DeliveryStore(capacity: capacity, conditions: registry)
        let deviceToken = String(repeating: "0123456789abcdef", count: 4)
        if offline {
            registry.observeDeviceConditions { [weak store] key, conditions in
                store?.setDeliveryConditions(conditions, inbox: key, now: WallClock.milliseconds())
            }
            registry.putDevice(
                DeviceRegistration(token: deviceToken, topic: "com.example.app", conditions: .init(presence: .offline)))
        }
        let faults = FaultControl()
        for number in 0..<ruleCount {
            let token = String(repeating: "cd", count: 31) + String(format: "%02x", number)
            try faults.addRule(
                json: .object([
                    ("match", .object([("token", .string(token))])),
                    (
                        "action",
                        .object([
                            (
                                "respond",
                                .object([("status", .number(410, text: "410")), ("reason", .string("Unregistered"))])
                            )
                        ])
                    ),
                ]), now: 0)
        }
        let context = APNSListenerContext(
            tls: try TLSServerContext(certificatePath: "certs/server.pem", privateKeyPath: "certs/server-key.pem"),
            settings: HTTP2Settings(), rules: ServiceRules(), environmentMode: .sandbox,
            store: store, registry: registry, authStreamLimit: false,
            logger: logger, faults: faults)
        let server = try InMemoryAPNSConnection(context: context)
        let client = InMemoryHTTP2Client()
        client.recordsFrames = false

        let token = try ProviderToken.make(privateKeyPEM: keyPEM, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let headers = [
            ("authorization", "bearer " + token), ("apns-topic", "com.example.app"), ("apns-push-type", "alert"),
            ("apns-priority", "10"),
        ]
        let path = "/3/device/" + deviceToken
        let payload = makePayload(bytes: payloadBytes)

        var toServer = client.output()
        toServer.removeFirst(24)  // the client preface; the server checks it before nghttp2
        var toClient: [UInt8] = []
        let start = Date()
        var submitted = 0
        var serverNanos: UInt64 = 0
        while client.closedCount < total {
            while submitted < total && submitted - client.closedCount < concurrent {
                client.submit(path: path, headers: headers, body: payload)
                submitted += 1
            }
            toServer += client.output()
            if !toServer.isEmpty {
                let t0 = DispatchTime.now().uptimeNanoseconds
                toServer.withUnsafeBufferPointer { _ = server.receive($0) }
                serverNanos &+= DispatchTime.now().uptimeNanoseconds &- t0
                toServer.removeAll(keepingCapacity: true)
            }
            toClient.removeAll(keepingCapacity: true)
            let t1 = DispatchTime.now().uptimeNanoseconds
            server.collectOutput(into: &toClient)
            serverNanos &+= DispatchTime.now().uptimeNanoseconds &- t1
            if !toClient.isEmpty { client.receive(toClient) }
        }
        let seconds = Date().timeIntervalSince(start)
        let accepted = store.query(DeliveryQuery(matcher: DeliveryMatcher([.status(200)]), limit: 1)).total
        print(
            "requests=\(total) accepted=\(accepted) payloadBytes=\(payload.count) seconds="
                + String(format: "%.3f", seconds) + " requestsPerSecond="
                + String(format: "%.0f", Double(total) / seconds) + " serverMicrosPerRequest="
                + String(format: "%.2f", Double(serverNanos) / 1000 / Double(total)))
        if accepted != total {
            FileHandle.standardError.write(Data("warning: only \(accepted) of \(total) pushes were accepted\n".utf8))
        }
        if read == 1 {
            // As the admin API reads: through a reader, which analyses each record once.
            let reader = DeliveryReader(store: store, analyses: PayloadAnalyses(capacity: store.capacity))
            var cursor: UInt64 = 0
            var findings = 0
            while true {
                let page = reader.query(DeliveryQuery(since: cursor, limit: 1000))
                findings += page.deliveries.reduce(0) { $0 + ($1.analysis?.findings.count ?? 0) }
                guard let next = page.next else { break }
                cursor = next
            }
            print("read=\(store.count) findings=\(findings)")
        } else if read == 3 {
            // As an unfiltered event stream reads: a page at a time, each record rendered as its
            // `delivery` event.
            let reader = DeliveryReader(store: store, analyses: PayloadAnalyses(capacity: store.capacity))
            let follower = reader.follower(DeliveryQuery(), after: 0)
            var eventBytes = 0
            while true {
                let step = follower.advance(limit: 1000)
                guard !step.new.isEmpty else { break }
                eventBytes += AdminRouter.events(step.new, identified: true).count
            }
            print("rendered=\(store.count) eventBytes=\(eventBytes)")
        } else if read == 2 {
            let context = PayloadContext(pushType: .alert, priority: "10", topic: "com.example.app")
            var findings = 0
            for _ in 0..<total {
                findings +=
                    PayloadAnalyzer.analyze(payload: payload, payloadSize: payload.count, context: context)
                    .findings.count
            }
            print("analysed=\(total) findings=\(findings)")
        }
    }

    /// A JSON object payload of about `bytes` bytes.
    static func makePayload(bytes: Int) -> [UInt8] {
        let frame = #"{"aps":{"alert":{"title":"Benchmark","body":""}}}"#
        let filler = String(repeating: "x", count: max(0, bytes - frame.utf8.count))
        return Array(#"{"aps":{"alert":{"title":"Benchmark","body":"\#(filler)"}}}"#.utf8)
    }
}
