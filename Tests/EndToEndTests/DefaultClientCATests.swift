import APNSMock
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `apns-mock serve` on the defaults (what `make run` starts, from the repository root) accepts
/// the committed sample provider certificates: with no `--client-ca`, the default TLS
/// certificate brings `certs/ca.pem` as the client CA; `--client-ca none` asks for none.
@Suite(.serialized) struct DefaultClientCATests {
    /// `apns-mock serve` in the repository root on free ports, with `arguments` after those.
    final class Server {
        let process = Process()
        let apnsPort: Int
        let adminURL: String

        init(_ arguments: [String]) async throws {
            process.executableURL = URL(fileURLWithPath: CLITests.executable)
            process.arguments = ["serve", "--port", "0", "--admin-port", "0"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let line = await E2E.firstLine(of: out)
            let ready = line
            let pattern =
                #/^apns-mock ready apns=https://127\.0\.0\.1:(\d+) admin=(http://127\.0\.0\.1:\d+) channels=https://127\.0\.0\.1:\d+ webpush=https://127\.0\.0\.1:\d+\n$/#
            guard let match = ready.wholeMatch(of: pattern), let port = Int(match.1) else {
                process.terminate()
                throw ServerError(description: "no ready line from apns-mock serve: '\(ready)'")
            }
            apnsPort = port
            adminURL = String(match.2)
        }

        func stop() { E2E.end(process) }
    }

    struct ServerError: Error, CustomStringConvertible {
        let description: String
    }

    /// A push with `certs/provider-sandbox.pem` and no authorization header: curl's body and status.
    static func pushWithSandboxCertificate(port: Int, device: String) async throws -> E2E.Output {
        let certs = E2E.repositoryRoot + "/certs/"
        return try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-w", "\n%{http_code}",
                "--cert", certs + "provider-sandbox.pem", "--key", certs + "provider-sandbox-key.pem",
                "-H", "apns-push-type: alert", "--data-binary", #"{"aps":{"alert":"defaults"}}"#,
                "https://localhost:\(port)/3/device/\(device)",
            ])
    }

    @Test func theDevelopmentCAIsUsedOnlyWithTheDefaultTLSCertificateAndWhenItExists() {
        var defaults = APNSMockConfiguration()
        #expect(defaults.useDevelopmentClientCA { $0 == "certs/ca.pem" })
        #expect(defaults.clientCAPath == "certs/ca.pem")

        var missing = APNSMockConfiguration()
        #expect(!missing.useDevelopmentClientCA { _ in false })
        #expect(missing.clientCAPath == nil)

        var otherCertificate = APNSMockConfiguration()
        otherCertificate.tlsCertificatePath = "/etc/apns-mock/server.pem"
        #expect(!otherCertificate.useDevelopmentClientCA { _ in true })
        #expect(otherCertificate.clientCAPath == nil)
    }

    @Test func theCommittedSandboxCertificateWorksOnTheDefaults() async throws {
        let server = try await Server([])
        defer { server.stop() }
        let device = E2E.randomToken()
        let output = try await Self.pushWithSandboxCertificate(port: server.apnsPort, device: device)
        #expect(output.stdout == "\n200", "\(output.stdout) \(output.stderr)")

        let records = try await E2E.run("curl", ["-sS", server.adminURL + "/v1/deliveries?token=\(device)"])
        let page = try JSONSerialization.jsonObject(with: Data(records.stdout.utf8)) as? [String: Any]
        let record = try #require((page?["deliveries"] as? [[String: Any]])?.first, "\(records.stdout)")
        let auth = record["auth"] as? [String: Any]
        #expect(auth?["method"] as? String == "certificate", "\(record)")
        #expect(record["topic"] as? String == "com.example.app")
        #expect((record["response"] as? [String: Any])?["status"] as? Int == 200)
    }

    @Test func clientCANoneAsksForNoCertificate() async throws {
        let server = try await Server(["--client-ca", "none"])
        defer { server.stop() }
        let output = try await Self.pushWithSandboxCertificate(port: server.apnsPort, device: E2E.randomToken())
        // No certificate was asked for, so curl sent none: a token connection without a token.
        #expect(output.stdout == "{\"reason\":\"MissingProviderToken\"}\n403", "\(output.stdout) \(output.stderr)")
    }

    /// Another TLS certificate is no reason to trust the development CA for clients.
    @Test func anotherTLSCertificateBringsNoClientCA() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apns-mock-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["server.pem", "server-key.pem"] {
            try FileManager.default.copyItem(
                atPath: E2E.repositoryRoot + "/certs/" + name, toPath: directory.appendingPathComponent(name).path)
        }
        let server = try await Server([
            "--tls-cert", directory.appendingPathComponent("server.pem").path,
            "--tls-key", directory.appendingPathComponent("server-key.pem").path,
        ])
        defer { server.stop() }
        let output = try await Self.pushWithSandboxCertificate(port: server.apnsPort, device: E2E.randomToken())
        #expect(output.stdout == "{\"reason\":\"MissingProviderToken\"}\n403", "\(output.stdout) \(output.stderr)")
    }
}
