import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `serve --chain`: a chain shaped like APNs's (leaf ← intermediate ← a root named like Apple's
/// USERTrust root), generated at start, that a client trusts through the root written for it;
/// and one under a root nobody has, which a client must refuse.
@Suite(.serialized) struct ServerChainTests {
    static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("chain-\(UUID().uuidString)").path
    }

    static func apnsPort(_ ready: String) throws -> String {
        try #require(ready.firstMatch(of: #/apns=https://127\.0\.0\.1:(\d+)/#), "ready line: \(ready)").1.description
    }

    /// A push through curl trusting `caFile`.
    static func push(port: String, caFile: String) async throws -> E2E.Output {
        try await E2E.run(
            "curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", caFile, "-H",
                "authorization: bearer \(try E2E.providerToken())", "-H", "apns-topic: com.example.app",
                "--data-binary", #"{"aps":{"alert":"hi"}}"#, "https://localhost:\(port)/3/device/\(E2E.randomToken())",
            ])
    }

    @Test func appleLikeChainIsTrustedThroughItsRoot() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (ready, process, err) = try await CLIHabitsTests.serve([
            "--port", "0", "--admin-port", "0", "--chain", "apple-like", "--chain-out", directory,
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = try Self.apnsPort(ready)
        let trusted = try await Self.push(port: port, caFile: directory + "/root.pem")
        #expect(trusted.status == 0 && trusted.stdout == "200", "\(trusted.stderr)")
        // The committed development CA does not vouch for this chain.
        let devCA = try await Self.push(port: port, caFile: E2E.caFile)
        #expect(devCA.status == 60, "\(devCA.stderr)")

        let shown = try await E2E.run(
            "openssl", ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost", "-showcerts"],
            stdin: "")
        #expect(shown.stdout.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1 == 2, "\(shown.stdout)")
        let issuers = shown.stdout.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("i:")
        }
        #expect(issuers.count == 2, "\(shown.stdout)")
        #expect(issuers.first?.contains("CN = apns-mock TEST ONLY - APNs server intermediate CA") == true, "\(issuers)")
        #expect(
            issuers.last?.contains("CN = apns-mock TEST ONLY - USERTrust RSA Certification Authority") == true,
            "\(issuers)")
        #expect(issuers.last?.contains("O = apns-mock TEST ONLY - The USERTRUST Network") == true, "\(issuers)")

        let stderr = try await CLIHabitsTests.stop(process, err)
        #expect(stderr.contains("a client must trust \(directory)/root.pem"), "\(stderr)")
    }

    @Test func untrustedRootFailsTheHandshakeAndTheConnectionLogSaysSo() async throws {
        let (ready, process, err) = try await CLIHabitsTests.serve([
            "--port", "0", "--admin-port", "0", "--chain", "untrusted-root",
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = try Self.apnsPort(ready)
        let adminPort = try CLIHabitsTests.adminPort(ready)
        let refused = try await Self.push(port: port, caFile: E2E.caFile)
        #expect(refused.status == 60, "curl's certificate verification error: \(refused.stderr)")
        var failure: [String: Any]?
        let deadline = Date().addingTimeInterval(10)
        while failure == nil && Date() < deadline {
            let log = try await E2E.run("curl", ["-sS", "http://127.0.0.1:\(adminPort)/v1/connections"])
            let object = try JSONSerialization.jsonObject(with: Data(log.stdout.utf8)) as? [String: Any]
            let events = (object?["connections"] as? [[String: Any]])?.flatMap {
                $0["events"] as? [[String: Any]] ?? []
            }
            failure = events?.first { $0["kind"] as? String == "handshakeFailed" }
            if failure == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let error = try #require(failure?["error"] as? String, "no handshakeFailed event")
        #expect(error.contains("unknown ca"), "\(error)")
        let stderr = try await CLIHabitsTests.stop(process, err)
        #expect(stderr.contains("its root was given to nobody"), "\(stderr)")
    }

    @Test func certsGenerateWritesAChainThatVerifies() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = try await E2E.run(
            CLITests.executable, ["certs", "generate", "--chain", "apple-like", "--out", directory])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("a client must trust \(directory)/root.pem"), "\(output.stdout)")
        let verified = try await E2E.run(
            "openssl",
            [
                "verify", "-CAfile", directory + "/root.pem", "-untrusted", directory + "/intermediate.pem",
                "-purpose", "sslserver", directory + "/server.pem",
            ])
        #expect(verified.stdout.contains(": OK"), "\(verified.stdout) \(verified.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/server-key.pem")[.posixPermissions]
        #expect(mode as? Int == 0o600)
    }
}
