import APNSMock
import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Crypto
import Foundation
import Testing

/// Provider authentication with real clients: curl with JWTs and with client certificates,
/// aioapns with a certificate ("Establishing a token-based connection to APNs",
/// "Establishing a certificate-based connection to APNs").
@Suite(.serialized) struct AuthenticationEndToEndTests {
    func curlPush(
        _ mock: RunningMock, token: String = E2E.randomToken(), extra: [String], port: Int? = nil,
        topic: String? = "com.example.app"
    ) async throws -> E2E.Output {
        var arguments = ["-sS", "--http2", "--cacert", E2E.caFile, "-w", "\n%{http_code}"] + extra
        if let topic { arguments += ["-H", "apns-topic: \(topic)"] }
        arguments += [
            "--data-binary", #"{"aps":{"alert":"auth"}}"#,
            "https://127.0.0.1:\(port ?? mock.endpoints.apnsPort)/3/device/\(token)",
        ]
        return try await E2E.run("curl", arguments)
    }

    func token(issuedAt: Date = Date(), keyID: String = E2E.keyID, teamID: String = E2E.teamID) throws -> String {
        try ProviderToken.make(
            privateKeyPEM: String(contentsOfFile: E2E.keyFile, encoding: .utf8), keyID: keyID, teamID: teamID,
            issuedAt: issuedAt)
    }

    @Test func noAuthorizationIsMissingProviderToken() async throws {
        try await E2E.withMock { mock in
            let output = try await curlPush(mock, extra: [])
            #expect(output.stdout == "{\"reason\":\"MissingProviderToken\"}\n403")
        }
    }

    @Test func tokenRulesWithCurl() async throws {
        try await E2E.withMock { mock in
            let expired = try await curlPush(
                mock, extra: ["-H", "authorization: bearer \(try token(issuedAt: Date().addingTimeInterval(-3700)))"])
            #expect(expired.stdout == "{\"reason\":\"ExpiredProviderToken\"}\n403")
            let wrongTeam = try await curlPush(
                mock, extra: ["-H", "authorization: bearer \(try token(teamID: "OTHERTEAM1"))"])
            #expect(wrongTeam.stdout == "{\"reason\":\"InvalidProviderToken\"}\n403")
            let good = try await curlPush(mock, extra: ["-H", E2E.authorizationHeader])
            #expect(good.stdout == "\n200")
            let record = try #require(mock.deliveries.all(matching: [.status(200)]).first)
            #expect(record.authentication?.signatureVerified == true)
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?status=200")
            let auth = (page["deliveries"] as? [[String: Any]])?.first?["auth"] as? [String: Any]
            #expect(auth?["method"] as? String == "token")
            #expect(auth?["keyId"] as? String == E2E.keyID)
            #expect(auth?["signatureVerified"] as? Bool == true)
        }
    }

    @Test func unknownKeysAreRefusedUnderStrictRegistry() async throws {
        try await E2E.withMock(
            E2E.mockConfiguration {
                $0.strictRegistry = true
                $0.keys = []
            }
        ) { mock in
            let output = try await curlPush(mock, extra: ["-H", E2E.authorizationHeader])
            #expect(output.stdout == "{\"reason\":\"InvalidProviderToken\"}\n403")
        }
    }

    @Test func clientCertificateAuthentication() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.clientCAPath = E2E.caFile }) { mock in
            let certs = E2E.repositoryRoot + "/certs/"
            let sandboxCert = ["--cert", certs + "provider-sandbox.pem", "--key", certs + "provider-sandbox-key.pem"]
            // A single-topic certificate: apns-topic may be omitted; authorization is ignored.
            let ok = try await curlPush(
                mock, extra: sandboxCert + ["-H", "authorization: bearer nonsense"], topic: nil)
            #expect(ok.stdout == "\n200", "\(ok.stderr)")
            let outside = try await curlPush(mock, extra: sandboxCert, topic: "com.example.other")
            #expect(outside.stdout == "{\"reason\":\"BadTopic\"}\n400")
            let record = try #require(mock.deliveries.all(matching: [.status(200)]).first)
            #expect(record.authentication?.method == .certificate)
            #expect(record.topic == "com.example.app")

            // A production certificate on the sandbox environment: GOAWAY, no answer on the stream.
            let production = try await curlPush(
                mock,
                extra: ["--cert", certs + "provider-production.pem", "--key", certs + "provider-production-key.pem"])
            #expect(production.status != 0)
            #expect(!production.stdout.hasSuffix("200"))
            // Issue 18: the record says what went on the wire: a GOAWAY carrying the reason, no
            // HTTP status, so a `status=403` matcher does not count an answer no client received.
            let goAway = try #require(mock.deliveries.last(matching: [.outcome(.goAway)]))
            #expect(goAway.reason == .badCertificateEnvironment)
            #expect(goAway.response?.goAway == true)
            #expect(goAway.status == nil)
            #expect(mock.deliveries.all(matching: [.status(403)]).isEmpty)
            #expect(mock.deliveries.all(matching: [.reason("BadCertificateEnvironment")]).count == 1)
            let (_, page) = try await E2E.adminGET(mock, "/v1/deliveries?reason=BadCertificateEnvironment")
            let response = (page["deliveries"] as? [[String: Any]])?.first?["response"] as? [String: Any]
            #expect(response?["status"] is NSNull, "\(String(describing: response))")
            #expect(response?["goAway"] as? Bool == true)
            let (_, byStatus) = try await E2E.adminGET(mock, "/v1/deliveries?status=403")
            #expect(byStatus["total"] as? Int == 0)
        }
    }

    @Test func untrustedClientCertificateFinishesTheHandshakeThenGets403() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.clientCAPath = E2E.caFile }) { mock in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "apns-mock-selfsigned-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let cert = directory.appendingPathComponent("cert.pem").path
            let key = directory.appendingPathComponent("key.pem").path
            let made = try await E2E.run(
                "openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
                    "-subj",
                    "/UID=com.example.app/CN=Apple Push Services: com.example.app", "-keyout", key, "-out", cert,
                ])
            #expect(made.status == 0, "\(made.stderr)")
            let output = try await curlPush(mock, extra: ["--cert", cert, "--key", key])
            #expect(output.stdout == "{\"reason\":\"BadCertificate\"}\n403", "\(output.stderr)")
        }
    }

    @Test func unregisteredDeviceAnswers410WithTimestamp() async throws {
        let token = E2E.randomToken()
        try await E2E.withMock(
            E2E.mockConfiguration {
                $0.devices = [
                    DeviceRegistration(
                        token: token, topic: "com.example.app", state: .unregistered(at: 1_700_000_000_000))
                ]
            }
        ) { mock in
            let output = try await curlPush(mock, token: token, extra: ["-H", E2E.authorizationHeader])
            #expect(output.stdout == "{\"reason\":\"Unregistered\",\"timestamp\":1700000000000}\n410")
        }
    }

    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func aioapnsWithAClientCertificate() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock(E2E.mockConfiguration { $0.clientCAPath = E2E.caFile }) { mock in
            let device = E2E.randomToken()
            let apnsID = E2E.newAPNSID()
            let output = try await E2E.run(
                python,
                [
                    E2E.clientsDirectory + "/aioapns_push.py", "--client-cert",
                    E2E.repositoryRoot + "/certs/provider-sandbox-bundle.pem", String(mock.endpoints.apnsPort),
                    E2E.caFile,
                    "-", "-", "-", "com.example.app", device, apnsID,
                ])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains(#""status": "200""#), "\(output.stdout) \(output.stderr)")
            let record = try #require(mock.deliveries.all(matching: [.token(device)]).first)
            #expect(record.authentication?.method == .certificate)
            #expect(record.apnsID.text == apnsID)
        }
    }

    // MARK: the rest of APNS-REFERENCE §4, produced by curl doing the wrong thing

    /// A key made for one test, registered through the configuration.
    struct TestKey {
        let keyID: String
        let privateKeyPEM: String
        let key: ProviderKey

        init(keyID: String, environment: EnvironmentScope = .both, topics: [String] = [], related: String? = nil)
            throws
        {
            let made = ProviderToken.generateKey()
            self.keyID = keyID
            privateKeyPEM = made.privateKeyPEM
            key = ProviderKey(
                keyID: keyID, teamID: E2E.teamID,
                publicKey: try P256.Signing.PublicKey(pemRepresentation: made.publicKeyPEM), environment: environment,
                topics: topics, relatedKeyID: related)
        }

        func header(issuedAt: Date = Date()) throws -> String {
            "authorization: bearer "
                + (try ProviderToken.make(
                    privateKeyPEM: privateKeyPEM, keyID: keyID, teamID: E2E.teamID, issuedAt: issuedAt))
        }
    }

    /// Two pushes on one connection (curl reuses it across `--next`); the two status lines.
    func twoPushes(_ mock: RunningMock, first: String, second: String, topic: String = "com.example.app")
        async throws -> [String]
    {
        let url = "\(mock.endpoints.apnsURL)/3/device/\(E2E.randomToken())"
        func push(_ header: String) -> [String] {
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-w", "%{http_code} %{num_connects}\n", "-o", "/dev/null",
                "-H", header, "-H", "apns-topic: \(topic)", "--data-binary", "{}", url,
            ]
        }
        let output = try await E2E.run("curl", push(first) + ["--next"] + push(second))
        return output.stdout.split(separator: "\n").map(String.init)
    }

    @Test func newTokenWithinTwentyMinutesOnOneConnectionIs429() async throws {
        try await E2E.withMock { mock in
            let older = "authorization: bearer " + (try token(issuedAt: Date().addingTimeInterval(-30)))
            let lines = try await twoPushes(mock, first: older, second: E2E.authorizationHeader)
            // "200 1": answered on a new connection; "429 0": on the same one.
            #expect(lines == ["200 1", "429 0"])
            let rejected = try #require(mock.deliveries.all(matching: [.status(429)]).first)
            #expect(rejected.reason == .tooManyProviderTokenUpdates)
        }
    }

    @Test func unrelatedKeyOnAnEstablishedConnection() async throws {
        let topicKey = try TestKey(keyID: "TOPICKEY01", topics: ["com.example.app"])
        try await E2E.withMock(E2E.mockConfiguration { $0.keys.append(topicKey.key) }) { mock in
            let lines = try await twoPushes(mock, first: E2E.authorizationHeader, second: try topicKey.header())
            #expect(lines == ["200 1", "403 0"])
            #expect(mock.deliveries.all(matching: [.status(403)]).first?.reason == .unrelatedKeyIdInToken)
        }
    }

    @Test func keyOfTheOtherEnvironment() async throws {
        let productionKey = try TestKey(keyID: "PRODKEY001", environment: .production)
        try await E2E.withMock(E2E.mockConfiguration { $0.keys.append(productionKey.key) }) { mock in
            let output = try await curlPush(mock, extra: ["-H", try productionKey.header()])
            #expect(output.stdout == "{\"reason\":\"BadEnvironmentKeyIdInToken\"}\n403")
        }
    }

    @Test func topicOutsideATopicSpecificKey() async throws {
        let topicKey = try TestKey(keyID: "TOPICKEY01", topics: ["com.example.other"])
        try await E2E.withMock(E2E.mockConfiguration { $0.keys.append(topicKey.key) }) { mock in
            let output = try await curlPush(mock, extra: ["-H", try topicKey.header()])
            #expect(output.stdout == "{\"reason\":\"TopicDisallowed\"}\n400")
        }
    }

    @Test func deviceOfAnotherTopicOrEnvironment() async throws {
        let otherTopic = E2E.randomToken()
        let production = E2E.randomToken()
        try await E2E.withMock(
            E2E.mockConfiguration {
                $0.devices = [
                    DeviceRegistration(token: otherTopic, topic: "com.example.other"),
                    DeviceRegistration(token: production, environment: .production),
                ]
            }
        ) { mock in
            let wrongTopic = try await curlPush(mock, token: otherTopic, extra: ["-H", E2E.authorizationHeader])
            #expect(wrongTopic.stdout == "{\"reason\":\"DeviceTokenNotForTopic\"}\n400")
            let wrongEnvironment = try await curlPush(mock, token: production, extra: ["-H", E2E.authorizationHeader])
            #expect(wrongEnvironment.stdout == "{\"reason\":\"BadDeviceToken\"}\n400")
        }
    }
}
