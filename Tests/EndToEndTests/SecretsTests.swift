import APNSMock
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// No secret leaves the mock (issue 22): a run with an admin token, provider tokens (good,
/// expired, badly signed), a client certificate and rejections at debug log level; then every
/// output it has — its log, the journal, the records, the event stream, the connection log, the verify
/// report, the OpenAPI document — is searched for the JWT signatures, the signing key's and the
/// client key's private bytes, and the admin token.
@Suite struct SecretsTests {
    static let adminToken = "s3cret-admin-token-\(UUID().uuidString)"

    /// The base64 lines of a PEM file's body (each is part of the secret).
    static func pemBodyLines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 16 }
    }

    @Test func noSecretInAnyOutput() async throws {
        let log = NSTemporaryDirectory() + "secrets-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let journal = NSTemporaryDirectory() + "secrets-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = [
            "serve", "--port", "0", "--admin-port", "0", "--channels-port", "0", "--log-level", "debug",
            "--admin-token", Self.adminToken, "--config", "apns-mock.example.yaml", "--journal", journal,
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        defer { process.terminate() }
        let ready = await E2E.firstLine(of: out)
        let apns = String(try #require(ready.firstMatch(of: #/apns=(https://[^ ]+)/#)?.1, "ready line: \(ready)"))
        let admin = String(try #require(ready.firstMatch(of: #/admin=(http://[^ ]+)/#)?.1))

        let pem = try String(contentsOfFile: E2E.keyFile, encoding: .utf8)
        let good = try ProviderToken.make(privateKeyPEM: pem, keyID: E2E.keyID, teamID: E2E.teamID)
        let expired = try ProviderToken.make(
            privateKeyPEM: pem, keyID: E2E.keyID, teamID: E2E.teamID, issuedAt: Date().addingTimeInterval(-7200))
        let forged = String(good.dropLast(8)) + "AAAAAAAA"
        let device = E2E.randomToken()
        for token in [good, expired, forged] {
            _ = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-H", "authorization: bearer \(token)",
                    "-H", "apns-topic: com.example.app", "-d", #"{"aps":{"alert":"hi"}}"#, "\(apns)/3/device/\(device)",
                ])
        }
        let certs = E2E.repositoryRoot + "/certs/"
        _ = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "--cert", certs + "provider-sandbox.pem",
                "--key", certs + "provider-sandbox-key.pem", "-d", #"{"aps":{"alert":"hi"}}"#,
                "\(apns)/3/device/\(device)",
            ])

        let bearer = ["-H", "authorization: Bearer \(Self.adminToken)"]
        var outputs: [String: String] = [:]
        for path in ["/v1/deliveries?limit=100", "/v1/connections", "/v1/openapi.yaml", "/v1/keys", "/v1/modes"] {
            outputs[path] = try await E2E.run("curl", ["-sS"] + bearer + [admin + path]).stdout
        }
        outputs["/v1/events"] =
            try await E2E.run("curl", ["-sSN", "--max-time", "2"] + bearer + [admin + "/v1/events?since=0"]).stdout
        let file = NSTemporaryDirectory() + "secrets-\(UUID().uuidString).yaml"
        try "expect:\n  - name: nothing\n    match: {token: \"\(E2E.randomToken())\"}\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let verify = try await E2E.run(
            CLITests.executable, ["verify", file, "--admin", admin, "--admin-token", Self.adminToken])
        outputs["verify"] = verify.stdout + verify.stderr
        kill(process.processIdentifier, SIGTERM)
        #expect(await E2E.ending(of: process) != nil, "the server exits after SIGTERM")
        outputs["log"] = try String(contentsOfFile: log, encoding: .utf8)
        outputs["journal"] = try String(contentsOfFile: journal, encoding: .utf8)
        #expect(outputs["journal"]?.split(separator: "\n").count == 4, "the journal has the pushes")
        #expect(outputs["log"]?.contains("rejected:") == true, "the log saw the rejections")
        #expect(outputs["/v1/deliveries?limit=100"]?.contains(#""total":4"#) == true, "\(outputs)")

        var secrets: [(String, String)] = [("the admin token", Self.adminToken)]
        for token in [good, expired, forged] {
            secrets.append(("a provider token's signature", String(token.split(separator: ".").last ?? "")))
        }
        for line in try Self.pemBodyLines(E2E.keyFile) { secrets.append(("the signing key", line)) }
        for line in try Self.pemBodyLines(certs + "provider-sandbox-key.pem") {
            secrets.append(("the client certificate's key", line))
        }
        for (name, output) in outputs {
            for (what, secret) in secrets where !secret.isEmpty {
                #expect(!output.contains(secret), "\(what) appears in \(name)")
            }
        }
    }
}
