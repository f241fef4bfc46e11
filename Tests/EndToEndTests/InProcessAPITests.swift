import APNSMock
import APNSMockCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import Testing

/// The in-process API as a Swift server's tests use it: `RunningMock.start()` with certificates
/// of its own (nothing read from the working directory), a real HTTP/2 client trusting the
/// mock's CA, and `deliveries.wait` without HTTP.
@Suite struct InProcessAPITests {
    static func client(trusting caPEM: String) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(caPEM.utf8)))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    static func push(
        _ client: HTTPClient, _ mock: RunningMock, token device: String, jwt: String, title: String
    ) async throws -> HTTPClientResponse {
        var request = HTTPClientRequest(url: "\(mock.apnsURL)/3/device/\(device)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: "com.example.app")
        request.headers.add(name: "apns-push-type", value: "alert")
        request.body = .bytes(ByteBuffer(string: #"{"aps":{"alert":{"title":"\#(title)"}}}"#))
        return try await client.execute(request, timeout: .seconds(30))
    }

    @Test func pushThenWaitWithoutHTTP() async throws {
        let mock = try await RunningMock.start()
        let caPEM = try #require(mock.caCertificatePEM)
        let client = try Self.client(trusting: caPEM)
        defer {
            Task {
                try? await client.shutdown()
                await mock.stop()
            }
        }
        let signingKey = try mock.registerNewKey(keyID: "KEY1234567", teamID: "TEAM123456")
        let jwt = try ProviderToken.make(privateKeyPEM: signingKey, keyID: "KEY1234567", teamID: "TEAM123456")
        let device = E2E.randomToken()
        // The waiter is parked before the push arrives: the push wakes it.
        async let awaited = mock.deliveries.wait(
            count: 1, matching: [.token(device), .status(200), .payload("aps.alert.title", "Welcome")],
            timeout: .seconds(20))
        let response = try await Self.push(client, mock, token: device, jwt: jwt, title: "Welcome")
        #expect(response.status == .ok)
        let records = try await awaited
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(record.authentication?.method == .token)
        #expect(record.authentication?.keyID == "KEY1234567")
        #expect(record.apnsID.text.lowercased() == response.headers.first(name: "apns-id")?.lowercased())
        #expect(mock.deliveries.count == 1)
        #expect(mock.deliveries.last(matching: [.token(device)])?.topic == "com.example.app")
    }

    @Test func aWaitThatRunsOutSaysWhatItFound() async throws {
        let mock = try await RunningMock.start()
        defer { Task { await mock.stop() } }
        let error = await #expect(throws: DeliveryWaitTimeout.self) {
            try await mock.deliveries.wait(
                count: 2, matching: [.topic("com.example.none")], timeout: .milliseconds(200))
        }
        #expect(error?.found.isEmpty == true)
        #expect(
            error.map { "\($0)" }
                == "waited 0.2 seconds for 2 deliveries matching topic=com.example.none; 0 matched, of 0 recorded")
    }

    /// A provider certificate issued by the mock's own CA authenticates over curl, which reads
    /// the CA from `caCertificatePath`.
    @Test func providerCertificatesFromTheMocksCA() async throws {
        let mock = try await RunningMock.start()
        let caPath = try #require(mock.caCertificatePath)
        let (certificate, key) = try mock.issueProviderCertificate(topic: "com.example.app")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try certificate.write(to: directory.appendingPathComponent("c.pem"), atomically: true, encoding: .utf8)
        try key.write(to: directory.appendingPathComponent("k.pem"), atomically: true, encoding: .utf8)
        let device = E2E.randomToken()
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", caPath, "--cert", directory.appendingPathComponent("c.pem").path, "--key",
                directory.appendingPathComponent("k.pem").path, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                "apns-topic: com.example.app", "-d", #"{"aps":{"badge":3}}"#, "\(mock.apnsURL)/3/device/\(device)",
            ])
        #expect(output.stdout == "200", "\(output.stderr)")
        let record = try #require(try await mock.deliveries.wait(matching: [.token(device)]).first)
        #expect(record.authentication?.method == .certificate)
        #expect(try await mock.deliveries.wait(matching: [.payload("aps.badge", 3)]).count == 1)
        await mock.stop()
        #expect(!FileManager.default.fileExists(atPath: caPath), "stop() removes the certificates it made")
    }

    /// `verify(expectationFile:)` judges a file as `apns-mock verify` does, near misses included.
    @Test func verifyAnExpectationFileInProcess() async throws {
        let mock = try await RunningMock.start()
        defer { Task { await mock.stop() } }
        let device = E2E.randomToken()
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", try #require(mock.caCertificatePath), "-o", "/dev/null", "-w",
                "%{http_code}", "-H", "apns-topic: com.example.app", "-d", #"{"aps":{"alert":{"title":"Hi"}}}"#,
                "\(mock.apnsURL)/3/device/\(device)",
            ])
        #expect(output.stdout == "403")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let holds = directory.appendingPathComponent("holds.yaml").path
        try "expect:\n  - {name: one rejected push, match: {token: \(device), status: 403}, count: {exactly: 1}}\n"
            .write(toFile: holds, atomically: true, encoding: .utf8)
        let fails = directory.appendingPathComponent("fails.yaml").path
        try "expect:\n  - {name: an accepted push, match: {token: \(device), status: 200}, count: {atLeast: 1}}\n"
            .write(toFile: fails, atomically: true, encoding: .utf8)
        let passing = try await mock.verify(expectationFile: holds)
        #expect(passing.passed, "\(passing.text)")
        let failing = try await mock.verify(expectationFile: fails)
        #expect(!failing.passed)
        #expect(failing.text.contains("✘ an accepted push"), "\(failing.text)")
        #expect(failing.text.contains("status: expected \"200\", got \"403\""), "\(failing.text)")
        await #expect(throws: ExpectationFileError.self) {
            try await mock.verify(expectationFile: directory.appendingPathComponent("missing.yaml").path)
        }
    }

    @Test func resetForgetsRecordsAndRegistrations() async throws {
        let mock = try await RunningMock.start { $0.strictRegistry = true }
        defer { Task { await mock.stop() } }
        let device = E2E.randomToken()
        mock.register(DeviceRegistration(token: device, topic: "com.example.app"))
        #expect(mock.registry.device(device) != nil)
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", try #require(mock.caCertificatePath), "-o", "/dev/null", "-w",
                "%{http_code}", "-H", "apns-topic: com.example.app", "-d", "{}", "\(mock.apnsURL)/3/device/\(device)",
            ])
        // No authentication at all: 403 MissingProviderToken, recorded.
        #expect(output.stdout == "403")
        #expect(try await mock.deliveries.wait(matching: [.reason("MissingProviderToken")]).count == 1)
        #expect(mock.deliveries.removeAll(matching: [.status(200)]) == 0)
        #expect(mock.deliveries.count == 1)
        #expect(mock.deliveries.removeAll() == 1)
        #expect(mock.deliveries.count == 0)
        mock.reset()
        #expect(mock.deliveries.count == 0)
        #expect(mock.registry.device(device) == nil)
        #expect(throws: SpecError.self) { try mock.registerNewKey(keyID: "not an id") }
    }
}
