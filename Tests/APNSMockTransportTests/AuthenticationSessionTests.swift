import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import CNGHTTP2
import Crypto
import InMemoryHTTP2Client
import Testing

@testable import APNSMockTransport

/// Authentication as the HTTP/2 session applies it: the one-stream start of token connections,
/// GOAWAY for a certificate of the other environment, 410 bodies, and the `auth` record.
@Suite struct AuthenticationSessionTests {
    static let token = String(repeating: "cd", count: 32)
    static let path = "/3/device/" + token
    static let payload = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
    static func headers(_ jwt: String = TestTokens.make()) -> [(String, String)] {
        [("authorization", "bearer " + jwt), ("apns-topic", "com.example.app"), ("apns-push-type", "alert")]
    }

    func maxConcurrentStreams(_ connection: InProcessConnection) -> UInt32 {
        nghttp2_session_get_remote_settings(connection.client.session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
    }

    @Test func tokenConnectionsStartWithOneStreamThenGetTheConfiguredLimit() throws {
        let connection = try InProcessConnection(authStreamLimit: true)
        connection.pump()
        #expect(maxConcurrentStreams(connection) == 1)
        let rejected = connection.client.submit(path: Self.path, headers: Self.headers("not.a.jwt"), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: rejected) == "403")
        #expect(maxConcurrentStreams(connection) == 1, "a rejected token does not open the connection up")
        let accepted = connection.client.submit(path: Self.path, headers: Self.headers(), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: accepted) == "200")
        #expect(maxConcurrentStreams(connection) == 1000)
    }

    @Test func streamLimitOffStartsAtTheConfiguredLimit() throws {
        let connection = try InProcessConnection(authStreamLimit: false)
        connection.pump()
        #expect(maxConcurrentStreams(connection) == 1000)
    }

    @Test func certificateConnectionsStartAtTheConfiguredLimit() throws {
        let identity = CertificateIdentity(
            subject: "UID=com.example.app", topics: ["com.example.app"], bundleID: "com.example.app",
            environment: .sandbox)
        let connection = try InProcessConnection(authentication: .certificate(identity), authStreamLimit: true)
        connection.pump()
        #expect(maxConcurrentStreams(connection) == 1000)
        let id = connection.client.submit(path: Self.path, headers: [], body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "200")
        let record = try #require(connection.store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.authentication?.method == .certificate)
        #expect(record.authentication?.certificateTopics == ["com.example.app"])
        #expect(record.topic == "com.example.app")
    }

    /// Seen from APNs: GOAWAY NO_ERROR, last-stream-id 0, `{"reason":"BadCertificateEnvironment"}`.
    @Test func certificateOfTheOtherEnvironmentGetsGoAway() throws {
        let identity = CertificateIdentity(
            subject: "UID=com.example.app", topics: ["com.example.app"], bundleID: "com.example.app",
            environment: .production)
        let connection = try InProcessConnection(authentication: .certificate(identity))
        let id = connection.client.submit(path: Self.path, headers: [], body: Self.payload)
        connection.pump()
        #expect(connection.client.goAwayReceived)
        #expect(connection.client.header(":status", on: id) == nil)
        #expect(connection.session.stepEnded() != .serving)
        let record = try #require(connection.store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.response?.goAway == true)
        #expect(record.reason == .badCertificateEnvironment)
        // Only a GOAWAY went out: no status (issue 18).
        #expect(record.status == nil)
        #expect(record.outcome == .goAway)
        #expect(connection.store.query(DeliveryQuery.where(status: 403)).total == 0)
    }

    @Test func unregisteredDeviceGets410WithTimestamp() throws {
        let registry = Registry(devices: [
            DeviceRegistration(token: Self.token, state: .unregistered(at: 1_650_000_000_123))
        ])
        let connection = try InProcessConnection(registry: registry)
        let id = connection.client.submit(path: Self.path, headers: Self.headers(), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: id) == "410")
        #expect(connection.client.bodies[id] == Array(#"{"reason":"Unregistered","timestamp":1650000000123}"#.utf8))
    }

    @Test func verifiedTokensAreRememberedAndTheRecordSaysHow() throws {
        let registry = Registry(keys: [
            ProviderKey(keyID: TestTokens.keyID, teamID: TestTokens.teamID, publicKey: TestTokens.key.publicKey)
        ])
        let connection = try InProcessConnection(registry: registry)
        let jwt = TestTokens.make()
        connection.client.submit(path: Self.path, headers: Self.headers(jwt), body: Self.payload)
        connection.pump()
        #expect(registry.snapshot().tokens[jwt]?.signatureVerified == true)
        let record = try #require(connection.store.query(DeliveryQuery.where()).deliveries.first)
        #expect(record.authentication?.signatureVerified == true)
        #expect(record.authentication?.keyID == TestTokens.keyID)
        #expect(record.authentication?.teamID == TestTokens.teamID)
        registry.removeKey(TestTokens.keyID)
        #expect(registry.snapshot().tokens[jwt] == nil, "removing a key forgets its tokens")
    }

    @Test func twentyMinuteRuleUsesTheInjectedClock() throws {
        let clock = TestClock()
        let connection = try InProcessConnection(clock: clock)
        let first = connection.client.submit(path: Self.path, headers: Self.headers(), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: first) == "200")
        let refreshed = TestTokens.make(issuedAt: 1_700_000_000)
        let early = connection.client.submit(path: Self.path, headers: Self.headers(refreshed), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: early) == "429")
        clock.advance(seconds: 20 * 60)
        let later = connection.client.submit(path: Self.path, headers: Self.headers(refreshed), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: later) == "200")
    }

    @Test func replacingAKeyRechecksTheConnectionsCurrentToken() throws {
        let registry = Registry(keys: [
            ProviderKey(keyID: TestTokens.keyID, teamID: TestTokens.teamID, publicKey: TestTokens.key.publicKey)
        ])
        let connection = try InProcessConnection(policy: ValidationPolicy(strictRegistry: true), registry: registry)
        let device = "/3/device/" + String(repeating: "ab", count: 8)
        let jwt = TestTokens.make()  // one token: ECDSA signatures differ on every signing
        let first = connection.client.submit(path: device, headers: Self.headers(jwt), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: first) == "400", "strict registry: unknown device")
        registry.putDevice(DeviceRegistration(token: String(repeating: "ab", count: 8)))
        let second = connection.client.submit(path: device, headers: Self.headers(jwt), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: second) == "200")
        // The same token, but its key now belongs to someone else: checked again, refused.
        registry.putKey(
            ProviderKey(
                keyID: TestTokens.keyID, teamID: TestTokens.teamID, publicKey: P256.Signing.PrivateKey().publicKey))
        let third = connection.client.submit(path: device, headers: Self.headers(jwt), body: Self.payload)
        connection.pump()
        #expect(connection.client.header(":status", on: third) == "403")
        #expect(connection.client.bodies[third] == Array(#"{"reason":"InvalidProviderToken"}"#.utf8))
    }
}
