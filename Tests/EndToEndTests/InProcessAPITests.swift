import APNSMock
import APNSMockCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
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

    /// Runs `body` with a client trusting `caPEM`, and shuts the client down before returning.
    static func withClient<Result>(trusting caPEM: String, _ body: (HTTPClient) async throws -> Result)
        async throws -> Result
    {
        let client = try client(trusting: caPEM)
        let result: Result
        do {
            result = try await body(client)
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        return result
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
        try await withRunningMock { mock in
            try await Self.withClient(trusting: try #require(mock.caCertificatePEM)) { client in
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
        }
    }

    @Test func aWaitThatRunsOutSaysWhatItFound() async throws {
        try await withRunningMock { mock in
            let error = await #expect(throws: DeliveryWaitTimeout.self) {
                try await mock.deliveries.wait(
                    count: 2, matching: [.topic("com.example.none")], timeout: .milliseconds(200))
            }
            #expect(error?.found.isEmpty == true)
            #expect(
                error.map { "\($0)" }
                    == "waited 0.2 seconds for 2 deliveries matching topic=com.example.none; 0 matched, of 0 recorded")
        }
    }

    /// A provider certificate issued by the mock's own CA authenticates over curl, which reads
    /// the CA from `caCertificatePath`.
    @Test func providerCertificatesFromTheMocksCA() async throws {
        let caPath = try await withRunningMock { mock in
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
                    "-sS", "--http2", "--cacert", caPath, "--cert", directory.appendingPathComponent("c.pem").path,
                    "--key", directory.appendingPathComponent("k.pem").path, "-o", "/dev/null", "-w", "%{http_code}",
                    "-H", "apns-topic: com.example.app", "-d", #"{"aps":{"badge":3}}"#,
                    "\(mock.apnsURL)/3/device/\(device)",
                ])
            #expect(output.stdout == "200", "\(output.stderr)")
            let record = try #require(try await mock.deliveries.wait(matching: [.token(device)]).first)
            #expect(record.authentication?.method == .certificate)
            #expect(try await mock.deliveries.wait(matching: [.payload("aps.badge", 3)]).count == 1)
            return caPath
        }
        #expect(!FileManager.default.fileExists(atPath: caPath), "stopping removes the certificates it made")
    }

    /// `verify(expectationFile:)` judges a file as `apns-mock verify` does, near misses included.
    @Test func verifyAnExpectationFileInProcess() async throws {
        try await withRunningMock { mock in
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
            // Links to this mock's dashboard: the match as its filter, the near miss opened.
            #expect(
                failing.text.contains("dashboard: \(mock.adminURL)/#filter=token%3D\(device)%26status%3D200"),
                "\(failing.text)")
            #expect(failing.text.contains("dashboard: \(mock.adminURL)/#record="), "\(failing.text)")
            await #expect(throws: ExpectationFileError.self) {
                try await mock.verify(expectationFile: directory.appendingPathComponent("missing.yaml").path)
            }
        }
    }

    @Test func resetForgetsRecordsAndRegistrations() async throws {
        func strict(_ configuration: inout APNSMockConfiguration) { configuration.strictRegistry = true }
        try await withRunningMock(configure: strict) { mock in
            let device = E2E.randomToken()
            mock.register(DeviceRegistration(token: device, topic: "com.example.app"))
            #expect(mock.registry.device(device) != nil)
            let output = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", try #require(mock.caCertificatePath), "-o", "/dev/null", "-w",
                    "%{http_code}", "-H", "apns-topic: com.example.app", "-d", "{}",
                    "\(mock.apnsURL)/3/device/\(device)",
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

    struct Planned: Error {}

    /// The servers `withRunningMock` started are down when it returns or rethrows: the admin
    /// port refuses connections and the certificates made for the run are gone.
    static func expectStopped(adminURL: String, caPath: String) async throws {
        #expect(!FileManager.default.fileExists(atPath: caPath), "the certificates made for the run are removed")
        let health = try await E2E.run("curl", ["-sS", "-o", "/dev/null", "--max-time", "5", adminURL + "/health"])
        #expect(health.status == 7, "curl reached \(adminURL) after the mock stopped: \(health.status)")
    }

    @Test func withRunningMockStopsTheMockBeforeReturning() async throws {
        let (adminURL, caPath, status) = try await withRunningMock { mock in
            let health = try await E2E.run(
                "curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", mock.adminURL + "/health"])
            return (mock.adminURL, try #require(mock.caCertificatePath), health.stdout)
        }
        #expect(status == "200")
        try await Self.expectStopped(adminURL: adminURL, caPath: caPath)
    }

    @Test func withRunningMockStopsTheMockBeforeRethrowing() async throws {
        var seen: (adminURL: String, caPath: String)?
        do {
            try await withRunningMock { mock in
                seen = (mock.adminURL, try #require(mock.caCertificatePath))
                throw Planned()
            }
            Issue.record("withRunningMock returned although its body threw")
        } catch is Planned {}
        let (adminURL, caPath) = try #require(seen)
        try await Self.expectStopped(adminURL: adminURL, caPath: caPath)
    }

    /// A `ManualClock` is the mock's time: records carry its readings, and it moves only when
    /// the test moves it.
    @Test func aManualClockIsTheMocksTime() async throws {
        let start: Int64 = WallClock.milliseconds()
        let clock = ManualClock(epochMilliseconds: start)
        try await withRunningMock(now: clock.now) { mock in
            let caPath = try #require(mock.caCertificatePath)
            func push(_ device: String) async throws {
                let output = try await E2E.run(
                    "curl",
                    [
                        "-sS", "--http2", "--cacert", caPath, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                        "apns-topic: com.example.app", "-d", "{}", "\(mock.apnsURL)/3/device/\(device)",
                    ])
                #expect(output.stdout == "403", "\(output.stderr)")
            }
            let first = E2E.randomToken()
            try await push(first)
            clock.advance(by: .milliseconds(1500))
            clock.advance(by: .microseconds(999))
            let second = E2E.randomToken()
            try await push(second)
            let records = try await mock.deliveries.wait(count: 2, matching: [.reason("MissingProviderToken")])
            #expect(records.first { $0.token == first }?.receivedAt == start)
            #expect(records.first { $0.token == second }?.receivedAt == start + 1500)
            #expect(clock.now() == start + 1500)
        }
    }
}
