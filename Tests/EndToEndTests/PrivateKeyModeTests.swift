import Foundation
import Testing

/// Every private key the CLI writes is readable by its owner only (mode 0600).
@Suite(.serialized) struct PrivateKeyModeTests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-modes-\(UUID().uuidString)")
    }

    /// The permission bits of the file at `url`.
    static func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test func keysGenerateWritesTheP8WithMode0600() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(
            CLITests.executable,
            ["keys", "generate", "--key-id", "MODE123456", "--team-id", E2E.teamID, "--out", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        let key = directory.appendingPathComponent("AuthKey_MODE123456.p8")
        let mode = try Self.mode(key)
        #expect(mode == 0o600, "AuthKey_MODE123456.p8: \(String(mode, radix: 8))")
        #expect(try String(contentsOf: key, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func certsGenerateWritesBothCAAndServerKeysWithMode0600() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(CLITests.executable, ["certs", "generate", "--out", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        for name in ["ca-key.pem", "server-key.pem"] {
            let mode = try Self.mode(directory.appendingPathComponent(name))
            #expect(mode == 0o600, "\(name): \(String(mode, radix: 8))")
        }
    }

    @Test func certsGenerateClientWritesTheKeyAndTheBundleWithMode0600() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(
            CLITests.executable,
            ["certs", "generate", "--client", "--topic", "com.example.app", "--out", directory.path]
                + ProviderCertificateCLITests.caArguments)
        #expect(output.status == 0, "\(output.stderr)")
        // provider-bundle.pem holds the private key after the certificate.
        for name in ["provider-key.pem", "provider-bundle.pem"] {
            let url = directory.appendingPathComponent(name)
            let mode = try Self.mode(url)
            #expect(mode == 0o600, "\(name): \(String(mode, radix: 8))")
            #expect(try String(contentsOf: url, encoding: .utf8).contains("-----BEGIN PRIVATE KEY-----"))
        }
    }

    /// Regenerating over world-readable keys (an older apns-mock, a git checkout) leaves 0600 ones.
    @Test func regeneratingOverAWorldReadableKeyLeavesMode0600() async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let old = directory.appendingPathComponent("ca-key.pem")
        #expect(
            FileManager.default.createFile(
                atPath: old.path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(try Self.mode(old) == 0o644)
        let output = try await E2E.run(CLITests.executable, ["certs", "generate", "--out", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try Self.mode(old) == 0o600)
        #expect(try String(contentsOf: old, encoding: .utf8).hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
