import APNSMock
import APNSMockAdmin
import APNSMockRegistry
import APNSMockStore
import APNSMockTransport
import Foundation
import SwiftASN1
import Testing
import X509

/// `ProviderCertificates.issue` read back with `ProviderCertificate`.
@Suite struct ProviderCertificateIssueTests {
    static let caPEM = try! String(contentsOfFile: E2E.repositoryRoot + "/certs/ca.pem", encoding: .utf8)
    static let caKeyPEM = try! String(contentsOfFile: E2E.repositoryRoot + "/certs/ca-key.pem", encoding: .utf8)

    static func issue(
        topic: String = "com.example.app", kinds: [String]?, environment: ProviderCertificate.Environment,
        now: Date = Date()
    ) throws -> (certificate: Certificate, parsed: ProviderCertificate, keyPEM: String) {
        let issued = try ProviderCertificates.issue(
            topic: topic, kinds: kinds, environment: environment, caCertificatePEM: caPEM, caPrivateKeyPEM: caKeyPEM,
            now: now)
        let certificate = try Certificate(pemEncoded: issued.certificatePEM)
        return (certificate, try ProviderCertificate(certificate: certificate), issued.privateKeyPEM)
    }

    @Test func singleTopicSandboxRoundTrip() throws {
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        let (certificate, parsed, keyPEM) = try Self.issue(kinds: nil, environment: .sandbox, now: now)
        #expect(parsed.bundleID == "com.example.app")
        #expect(parsed.teamID == "DEF123GHIJ")
        #expect(parsed.topics == ["com.example.app"])
        #expect(parsed.topicKinds.isEmpty)
        #expect(!parsed.isMultiTopic)
        #expect(!parsed.isVoIPServices)
        #expect(parsed.environment == .sandbox)
        #expect(
            parsed.subject
                == "C=US,O=apns-mock test provider,OU=DEF123GHIJ,CN=Apple Development IOS Push Services: com.example.app,UID=com.example.app"
        )
        #expect(parsed.notValidBefore == now.addingTimeInterval(-3600))
        #expect(parsed.notValidAfter == now.addingTimeInterval(825 * 86_400))
        #expect(certificate.extensions[oid: ProviderCertificate.topicsExtension] == nil)
        #expect(certificate.extensions[oid: ProviderCertificate.sandboxExtension]?.value == [0x05, 0x00])

        // Apple-like shape: RSA 2048 key matching the PKCS#8 key, signed by the CA, client-auth leaf.
        let key = try Certificate.PrivateKey(pemEncoded: keyPEM)
        #expect(keyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(key.publicKey == certificate.publicKey)
        let ca = try Certificate(pemEncoded: Self.caPEM)
        #expect(certificate.issuer == ca.subject)
        #expect(certificate.signatureAlgorithm == .ecdsaWithSHA256)
        #expect(ca.publicKey.isValidSignature(certificate.signature, for: certificate))
        #expect(try certificate.extensions.basicConstraints == .notCertificateAuthority)
        #expect(certificate.extensions[oid: .X509ExtensionID.basicConstraints]?.critical == true)
        #expect(try certificate.extensions.keyUsage == KeyUsage(digitalSignature: true, keyEncipherment: true))
        #expect(certificate.extensions[oid: .X509ExtensionID.keyUsage]?.critical == true)
        #expect(try certificate.extensions.extendedKeyUsage == ExtendedKeyUsage([.clientAuth]))
        #expect(try certificate.extensions.subjectKeyIdentifier != nil)
        #expect(
            try certificate.extensions.authorityKeyIdentifier?.keyIdentifier
                == ca.extensions.subjectKeyIdentifier?.keyIdentifier)
    }

    @Test func multiTopicRoundTripWithVoIPMarker() throws {
        let (certificate, parsed, _) = try Self.issue(
            kinds: ["app", "voip", "complication"], environment: .production)
        #expect(parsed.topics == ["com.example.app", "com.example.app.voip", "com.example.app.complication"])
        #expect(
            parsed.topicKinds == [
                "com.example.app": ["app"], "com.example.app.voip": ["voip"],
                "com.example.app.complication": ["complication"],
            ])
        #expect(parsed.isMultiTopic)
        #expect(parsed.isVoIPServices)
        #expect(parsed.environment == .production)
        #expect(parsed.subject.contains("CN=Apple Push Services: com.example.app"))
        #expect(certificate.extensions[oid: ProviderCertificate.voipServicesExtension]?.value == [0x05, 0x00])
        // The DER layout Apple uses: SEQUENCE { UTF8String, SEQUENCE { UTF8String }, … }.
        let value = try #require(certificate.extensions[oid: ProviderCertificate.topicsExtension]?.value)
        #expect(Array(value.prefix(4)) == [0x30, UInt8(value.count - 2), 0x0C, 15])
    }

    @Test func kindsWithoutVoIPHaveNoVoIPMarkerAndRepeatsCollapse() throws {
        let (certificate, parsed, _) = try Self.issue(
            topic: "org.sample.watch", kinds: ["complication", "app", "complication"], environment: .sandbox)
        #expect(parsed.topics == ["org.sample.watch.complication", "org.sample.watch"])
        #expect(!parsed.isVoIPServices)
        #expect(certificate.extensions[oid: ProviderCertificate.voipServicesExtension] == nil)
        #expect(parsed.subject.contains("CN=Apple Push Services: org.sample.watch"))
    }

    @Test(arguments: [
        (ProviderCertificate.Environment.sandbox, true, false),
        (.production, false, true),
        (.both, true, true),
    ])
    func environmentRoundTrip(_ environment: ProviderCertificate.Environment, _ sandbox: Bool, _ production: Bool)
        throws
    {
        let (_, parsed, _) = try Self.issue(kinds: ["app"], environment: environment)
        #expect(parsed.environment == environment)
        #expect(parsed.allows(environment: .sandbox) == sandbox)
        #expect(parsed.allows(environment: .production) == production)
    }

    @Test func badArgumentsAreClearErrors() throws {
        func message(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            message { _ = try Self.issue(kinds: ["app", "fax"], environment: .sandbox) }
                == "unknown topic kind 'fax': use app, voip or complication")
        #expect(message { _ = try Self.issue(kinds: [], environment: .sandbox) }.contains("at least one kind"))
        #expect(
            message { _ = try Self.issue(kinds: nil, environment: .unspecified) }
                == "environment must be sandbox, production or both")
        #expect(message { _ = try Self.issue(topic: "", kinds: nil, environment: .sandbox) }.contains("bundle ID"))
        #expect(
            message {
                _ = try ProviderCertificates.issue(
                    topic: "a.b", kinds: nil, environment: .sandbox, caCertificatePEM: "nope",
                    caPrivateKeyPEM: Self.caKeyPEM)
            }.hasPrefix("the CA certificate is not PEM: it has no '-----BEGIN …-----' line"))
        // A key where the CA's certificate belongs, and the reverse: named, never a library's error case.
        let wrongKey = message {
            _ = try ProviderCertificates.issue(
                topic: "a.b", kinds: nil, environment: .sandbox, caCertificatePEM: Self.caPEM,
                caPrivateKeyPEM: Self.caPEM)
        }
        #expect(wrongKey == "the CA private key holds a CERTIFICATE, not an EC P-256 private key", "\(wrongKey)")
        #expect(!wrongKey.contains("invalidPEMDocument"))
        let otherKey = try String(contentsOfFile: E2E.repositoryRoot + "/certs/server-key.pem", encoding: .utf8)
        #expect(
            message {
                _ = try ProviderCertificates.issue(
                    topic: "a.b", kinds: nil, environment: .sandbox, caCertificatePEM: Self.caPEM,
                    caPrivateKeyPEM: otherKey)
            } == "the CA private key does not belong to the CA certificate")
    }
}

/// `apns-mock certs generate --client` as a user runs it, checked with openssl.
@Suite(.serialized) struct ProviderCertificateCLITests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-provider-\(UUID().uuidString)")
    }

    static let caArguments = [
        "--ca", E2E.repositoryRoot + "/certs/ca.pem", "--ca-key", E2E.repositoryRoot + "/certs/ca-key.pem",
    ]

    @Test func generateClientWritesAVerifiableMultiTopicCertificate() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(
            CLITests.executable,
            [
                "certs", "generate", "--client", "--topic", "com.example.app", "--topics", "app,voip,complication",
                "--environment", "both", "--team-id", "TEAM123456", "--name", "multi", "--out", directory.path,
            ] + Self.caArguments)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("multi.pem, multi-key.pem, multi-bundle.pem"), "\(output.stdout)")
        let certificate = directory.appendingPathComponent("multi.pem").path
        let key = directory.appendingPathComponent("multi-key.pem").path
        let bundle = directory.appendingPathComponent("multi-bundle.pem").path

        let verify = try await E2E.run(
            "openssl", ["verify", "-x509_strict", "-purpose", "sslclient", "-CAfile", E2E.caFile, certificate])
        #expect(verify.status == 0 && verify.stdout.contains(": OK"), "\(verify.stdout) \(verify.stderr)")

        let text = try await E2E.run("openssl", ["x509", "-in", certificate, "-noout", "-text"])
        for expected in [
            "UID = com.example.app", "OU = TEAM123456", "1.2.840.113635.100.6.3.1", "1.2.840.113635.100.6.3.2",
            "1.2.840.113635.100.6.3.4", "1.2.840.113635.100.6.3.6", "com.example.app.complication",
            "TLS Web Client Authentication", "Public-Key: (2048 bit)",
        ] {
            #expect(text.stdout.contains(expected), "missing \(expected)")
        }

        let keyText = try String(contentsOfFile: key, encoding: .utf8)
        #expect(keyText.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(
            try String(contentsOfFile: bundle, encoding: .utf8)
                == String(contentsOfFile: certificate, encoding: .utf8) + keyText)
        let bundleKey = try await E2E.run("openssl", ["pkey", "-in", bundle, "-noout"])
        #expect(bundleKey.status == 0, "\(bundleKey.stderr)")

        // The .p12 recipe from the help and certs/README.md.
        let p12 = directory.appendingPathComponent("multi.p12").path
        let export = try await E2E.run(
            "openssl", ["pkcs12", "-export", "-in", certificate, "-inkey", key, "-out", p12, "-passout", "pass:test"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(FileManager.default.fileExists(atPath: p12))
    }

    @Test func generateClientDefaultsToSingleTopicSandbox() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(
            CLITests.executable,
            ["certs", "generate", "--client", "--topic", "com.example.app", "--out", directory.path] + Self.caArguments)
        #expect(output.status == 0, "\(output.stderr)")
        let path = directory.appendingPathComponent("provider.pem").path
        let parsed = try ProviderCertificate(
            certificate: Certificate(pemEncoded: String(contentsOfFile: path, encoding: .utf8)))
        #expect(parsed.topics == ["com.example.app"])
        #expect(parsed.environment == .sandbox)
        let verify = try await E2E.run(
            "openssl", ["verify", "-x509_strict", "-purpose", "sslclient", "-CAfile", E2E.caFile, path])
        #expect(verify.stdout.contains(": OK"), "\(verify.stdout) \(verify.stderr)")
    }

    @Test(arguments: ["provider-sandbox.pem", "provider-production.pem"])
    func committedSamplesVerifyAsClientCertificates(_ name: String) async throws {
        let verify = try await E2E.run(
            "openssl",
            [
                "verify", "-x509_strict", "-purpose", "sslclient", "-CAfile", E2E.caFile,
                E2E.repositoryRoot + "/certs/" + name,
            ])
        #expect(verify.status == 0 && verify.stdout.contains(": OK"), "\(verify.stdout) \(verify.stderr)")
    }

    @Test(arguments: [
        (["--client"], "--client needs --topic"),
        (["--client", "--topic", "com.a", "--topics", "app,fax"], "unknown topic kind 'fax'"),
        (
            ["--client", "--topic", "com.a", "--environment", "staging"],
            "--environment must be sandbox, production or both"
        ),
        (["--client", "--topic", "com.a", "--ca", "/nonexistent/ca.pem"], "--ca: cannot read '/nonexistent/ca.pem'"),
        (["--client", "--topic", "com.a", "--ca-key", "/nonexistent/ca-key.pem"], "--ca-key: cannot read"),
        (["--topic", "com.a"], "--topic needs --client"),
    ])
    func badInputIsOneClearLine(_ arguments: [String], _ message: String) async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = arguments
        if arguments.contains("--client") {
            if !arguments.contains("--ca") { arguments += ["--ca", E2E.caFile] }
            if !arguments.contains("--ca-key") { arguments += ["--ca-key", E2E.repositoryRoot + "/certs/ca-key.pem"] }
        }
        let output = try await E2E.run(
            CLITests.executable, ["certs", "generate"] + arguments + ["--out", directory.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        #expect(!output.stderr.contains("Fatal error"))
        #expect(output.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }
}
