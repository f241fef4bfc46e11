import APNSMockCore
import Crypto
import Foundation
import Testing

@testable import APNSMockRegistry

/// `PUT /v1/keys/{keyId}` bodies (and `setup.keys` entries) read into `ProviderKey`s.
@Suite struct ProviderKeySpecTests {
    static let repositoryRoot: String = {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        return "/" + path.joined(separator: "/")
    }()
    static let committedPrivatePEM = try! String(
        contentsOfFile: repositoryRoot + "/certs/AuthKey_ABC123DEFG.p8", encoding: .utf8)
    static let committedPublicPEM = try! String(
        contentsOfFile: repositoryRoot + "/certs/AuthKey_ABC123DEFG.pub.pem", encoding: .utf8)

    static func body(_ fields: [String: any Sendable]) -> [UInt8] {
        Array(try! JSONSerialization.data(withJSONObject: fields))
    }

    static func decode(_ fields: [String: any Sendable], keyID: String = "ABC123DEFG") throws(SpecError) -> ProviderKey
    {
        try ProviderKeySpec.decode(json: body(fields), keyID: keyID)
    }

    @Test func publicKeyBodyWithDefaults() throws {
        let key = try Self.decode(["teamId": "DEF123GHIJ", "publicKey": Self.committedPublicPEM])
        #expect(key.keyID == "ABC123DEFG")
        #expect(key.teamID == "DEF123GHIJ")
        #expect(key.environment == .both)
        #expect(key.topics.isEmpty && !key.isTopicSpecific)
        #expect(key.relatedKeyID == nil)
        let expected = try P256.Signing.PublicKey(pemRepresentation: Self.committedPublicPEM)
        #expect(key.publicKeyX963 == Array(expected.x963Representation))
    }

    @Test func privateKeyBodyKeepsOnlyThePublicHalf() throws {
        let key = try Self.decode([
            "teamId": "DEF123GHIJ", "privateKey": Self.committedPrivatePEM, "environment": "sandbox",
            "topics": ["com.example.app"], "relatedKeyId": "XYZ987WVUT",
        ])
        let expected = try P256.Signing.PublicKey(pemRepresentation: Self.committedPublicPEM)
        #expect(key.publicKeyX963 == Array(expected.x963Representation))
        #expect(key.environment == .sandbox)
        #expect(key.topics == ["com.example.app"])
        #expect(key.relatedKeyID == "XYZ987WVUT")
        var json = JSONWriter()
        ProviderKeySpec.write(key, to: &json)
        let text = String(decoding: json.bytes, as: UTF8.self)
        #expect(!text.contains("PRIVATE"))
        let rendered = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(rendered["keyId"] as? String == "ABC123DEFG")
        #expect(rendered["teamId"] as? String == "DEF123GHIJ")
        #expect(rendered["environment"] as? String == "sandbox")
        #expect(rendered["topics"] as? [String] == ["com.example.app"])
        #expect(rendered["relatedKeyId"] as? String == "XYZ987WVUT")
        let publicPEM = try #require(rendered["publicKey"] as? String)
        #expect(
            try P256.Signing.PublicKey(pemRepresentation: publicPEM).x963Representation == expected.x963Representation)
    }

    @Test func aFreshKeyAndShortIDs() throws {
        let privateKey = P256.Signing.PrivateKey()
        let key = try Self.decode(["teamId": "T1", "privateKey": privateKey.pemRepresentation], keyID: "K1")
        #expect(key.publicKeyX963 == Array(privateKey.publicKey.x963Representation))
        #expect(key.keyID == "K1" && key.teamID == "T1")
    }

    @Test func aMatchingKeyIdInTheBodyIsAccepted() throws {
        let key = try Self.decode(["keyId": "ABC123DEFG", "teamId": "DEF123GHIJ", "publicKey": Self.committedPublicPEM])
        #expect(key.keyID == "ABC123DEFG")
    }

    @Test(
        arguments: [
            (["publicKey": committedPublicPEM], "teamId is required"),
            (["teamId": "", "publicKey": committedPublicPEM], "teamId must not be empty"),
            (["teamId": 1_234_567_890, "publicKey": committedPublicPEM], "teamId must be a string; got a number"),
            (["teamId": "DEF-123", "publicKey": committedPublicPEM], "teamId must be letters and digits"),
            (
                ["teamId": "DEF123GHIJ", "publicKey": committedPublicPEM, "privateKey": committedPrivatePEM],
                "must have exactly one of publicKey or privateKey (PEM text); got publicKey and privateKey"
            ),
            (["teamId": "DEF123GHIJ"], "must have exactly one of publicKey or privateKey (PEM text); got none"),
            (["teamId": "DEF123GHIJ", "publicKey": "hello"], "publicKey is not a PEM EC P-256 public key"),
            (["teamId": "DEF123GHIJ", "publicKey": committedPrivatePEM], "publicKey holds a private key"),
            (["teamId": "DEF123GHIJ", "privateKey": "hello"], "privateKey is not a PEM EC P-256 private key"),
            (["teamId": "DEF123GHIJ", "privateKey": committedPublicPEM], "privateKey holds a public key"),
            (
                ["teamId": "DEF123GHIJ", "publicKey": committedPublicPEM, "environment": "prod"],
                "environment must be sandbox, production or both; got 'prod'"
            ),
            (
                ["teamId": "DEF123GHIJ", "publicKey": committedPublicPEM, "topics": "com.example.app"],
                "topics must be a list; got a string"
            ),
            (
                [
                    "teamId": "DEF123GHIJ", "publicKey": committedPublicPEM,
                    "topics": ["com.example.app", 7] as [any Sendable],
                ],
                "topics[1] must be a string; got a number"
            ),
            (["teamId": "DEF123GHIJ", "publicKey": committedPublicPEM, "topics": [""]], "topics[0] must not be empty"),
            (
                ["teamId": "DEF123GHIJ", "publicKey": committedPublicPEM, "relatedKeyId": "XYZ987WVUT"],
                "relatedKeyId is only for a topic-specific key"
            ),
            (
                ["teamId": "DEF123GHIJ", "publicKey": committedPublicPEM, "enviroment": "sandbox"],
                "enviroment is not a known field (did you mean 'environment'?); known fields: keyId, teamId"
            ),
            (
                ["keyId": "OTHER12345", "teamId": "DEF123GHIJ", "publicKey": committedPublicPEM],
                "keyId 'OTHER12345' does not match the key id 'ABC123DEFG' in the path"
            ),
            (
                ["teamId": "DEF123GHIJ", "publicKeyFile": "certs/AuthKey_ABC123DEFG.pub.pem"],
                "publicKeyFile is not a known field"
            ),
        ] as [([String: any Sendable], String)])
    func badBodiesNameTheField(_ fields: [String: any Sendable], _ message: String) {
        let error = #expect(throws: SpecError.self) { _ = try Self.decode(fields) }
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test func errorsNeverQuoteThePrivateKey() {
        let secret = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXNlY3JldC1zZWNyZXQ=\n-----END PRIVATE KEY-----"
        do {
            _ = try Self.decode(["teamId": "DEF123GHIJ", "privateKey": secret])
            Issue.record("a broken private key was accepted")
        } catch {
            #expect(error.path == "privateKey")
            #expect(!error.description.contains("c2VjcmV0"))
        }
    }

    @Test(arguments: [
        ("not json", "is not valid JSON"),
        ("[1, 2]", "must be an object of named fields; got a list"),
        ("", "is not valid JSON"),
    ])
    func bodiesThatAreNotAnObject(_ text: String, _ problem: String) {
        do {
            _ = try ProviderKeySpec.decode(json: Array(text.utf8), keyID: "ABC123DEFG")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.path == "")
            #expect(error.problem.contains(problem), "\(error)")
        }
    }

    @Test func idRules() {
        #expect(ProviderKeySpec.isValidID("ABC123DEFG"))
        #expect(ProviderKeySpec.isValidID("k"))
        #expect(!ProviderKeySpec.isValidID(""))
        #expect(!ProviderKeySpec.isValidID("ABC 123"))
        #expect(!ProviderKeySpec.isValidID("ABC_123"))
        #expect(!ProviderKeySpec.isValidID("ÄBC"))
    }

    @Test func setupEntriesReadKeyFilesRelativeToTheirDirectory() throws {
        let object = try SpecObject(
            SpecValue.parse(
                yaml: """
                    keyId: ABC123DEFG
                    teamId: DEF123GHIJ
                    privateKeyFile: certs/AuthKey_ABC123DEFG.p8
                    environment: production
                    """), path: "setup.keys[0]")
        let key = try ProviderKeySpec.decode(setup: object, baseDirectory: Self.repositoryRoot)
        let expected = try P256.Signing.PublicKey(pemRepresentation: Self.committedPublicPEM)
        #expect(key.publicKeyX963 == Array(expected.x963Representation))
        #expect(key.environment == .production)

        let missing = try SpecObject(
            SpecValue.parse(yaml: "{keyId: K1, teamId: T1, publicKeyFile: nowhere.pem}"), path: "setup.keys[1]")
        let error = #expect(throws: SpecError.self) {
            _ = try ProviderKeySpec.decode(setup: missing, baseDirectory: "/tmp")
        }
        #expect(
            error?.description
                == "setup.keys[1].publicKeyFile names a file that cannot be read: '/tmp/nowhere.pem': no such file or directory"
        )
    }
}
