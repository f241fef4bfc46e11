import APNSMock
import AsyncHTTPClient
import Foundation
import NIOSSL
import Testing
import WelcomeNotifier

@Suite struct WelcomeNotifierTests {
    static let device = "7f3a000000000000000000000000000000000000000000000000000000000001"

    @Test func aNewUserGetsOneWelcomeAlert() async throws {
        // A mock on free loopback ports, with a CA and server certificate of its own, stopped
        // before the test ends (also when it throws).
        try await withRunningMock { mock in
            // The key the app signs its provider tokens with; the mock checks every signature.
            let signingKey = try mock.registerNewKey(keyID: "TESTKEY001", teamID: "TESTTEAM01")

            // The app's HTTP client, trusting the mock's CA for this test only.
            let caPEM = try #require(mock.caCertificatePEM)
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(caPEM.utf8)))
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
            defer { Task { try? await client.shutdown() } }

            let notifier = try WelcomeNotifier(
                apnsURL: mock.apnsURL, topic: "com.example.app", keyID: "TESTKEY001", teamID: "TESTTEAM01",
                signingKeyPEM: signingKey, client: client)
            let apnsID = try await notifier.sendWelcome(to: Self.device, name: "Ada")

            // Wait for the delivery (no HTTP, no polling) and look at what APNs received.
            let records = try await mock.deliveries.wait(
                count: 1, matching: [.token(Self.device), .payload("aps.alert.title", "Welcome")], timeout: .seconds(10)
            )
            let record = try #require(records.first)
            #expect(record.status == 200)
            #expect(record.apnsID.text.lowercased() == apnsID.lowercased())
            #expect(record.authentication?.keyID == "TESTKEY001")
            #expect(String(decoding: record.payload, as: UTF8.self).contains("Glad you are here, Ada"))

            // The expectation file the team keeps beside its tests.
            let file = try #require(Bundle.module.path(forResource: "welcome-push", ofType: "yaml"))
            let report = try await mock.verify(expectationFile: file)
            #expect(report.passed, "\(report.text)")
        }
    }
}
