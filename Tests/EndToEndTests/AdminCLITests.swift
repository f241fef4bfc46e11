import APNSMock
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The admin API from a shell (issue 29): the binary serves from any directory with credentials
/// of its own, and a CI script needs nothing but apns-mock's commands and curl.
@Suite(.serialized) struct AdminCLITests {
    static let environment = ["XDG_STATE_HOME": E2E.testStateDirectory]

    /// Runs `apns-mock ARGUMENTS` to completion.
    static func cli(_ arguments: [String], environment: [String: String] = [:]) async throws -> E2E.Output {
        try await E2E.run(CLITests.executable, arguments, environment: Self.environment.merging(environment) { $1 })
    }

    /// The shell script a CI job would run: start, trust the CA from the admin API, push, wait,
    /// list, fault rules (twice: idempotent), a mode, reset, and a failed wait (exit 1).
    @Test func aShellScriptWithOnlyTheCLIAndCurl() async throws {
        let output = try await E2E.run(
            "bash", [E2E.clientsDirectory + "/cli_flow.sh"], timeout: 120,
            environment: Self.environment.merging([
                "APNS_MOCK": CLITests.executable, "KEY": E2E.keyFile,
            ]) { $1 })
        #expect(output.status == 0, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
        #expect(output.stdout.hasSuffix("cli flow ok\n"), "\(output.stdout)")
    }

    /// The binary copied into an empty directory serves; a client that trusts the CA from
    /// `GET /v1/ca.pem` pushes with 200, and `GET /v1/info` names the addresses.
    @Test func theBinaryServesFromAnEmptyDirectory() async throws {
        let directory = NSTemporaryDirectory() + "apns-mock-anywhere-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = directory + "/apns-mock"
        try FileManager.default.copyItem(atPath: CLITests.executable, toPath: binary)
        let (ready, process) = try await ConfigurationFileTests.serve(
            ["--port", "0", "--admin-port", "0"], in: directory, executable: binary)
        defer { kill(process.processIdentifier, SIGTERM) }
        let line = try #require(ready, "no ready line")
        let match = try #require(
            line.firstMatch(of: #/apns=(https://127\.0\.0\.1:(\d+)) admin=(http://127\.0\.0\.1:\d+)/#))
        let admin = String(match.3)
        let ca = try await E2E.run("curl", ["-sS", "-f", admin + "/v1/ca.pem"])
        #expect(ca.stdout.hasPrefix("-----BEGIN CERTIFICATE-----"), "\(ca.stdout) \(ca.stderr)")
        let caFile = directory + "/trusted-ca.pem"
        try ca.stdout.write(toFile: caFile, atomically: true, encoding: .utf8)
        let push = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "-d", #"{"aps":{"alert":"hi"}}"#,
                String(match.1) + "/3/device/" + String(repeating: "ab", count: 32),
            ])
        #expect(push.stdout == "200", "\(push.stdout) \(push.stderr)")
        // What `apns-mock ca` prints here is what the server presents.
        let local = try await E2E.run(
            "bash", ["-c", "cd \"$0\" && ./apns-mock ca", directory], environment: Self.environment)
        #expect(local.stdout == ca.stdout)
        let info = try await E2E.run("curl", ["-sS", admin + "/v1/info"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any], "\(info.stdout)")
        #expect(json["apnsUrl"] as? String == String(match.1))
        #expect(json["adminUrl"] as? String == admin)
        #expect((json["apnsPorts"] as? [Int])?.first == Int(match.2))
        #expect(json["caUrl"] as? String == "/v1/ca.pem")
        #expect((json["version"] as? String)?.isEmpty == false)
    }

    /// A mistyped command is refused with the command it resembles, not read as serve's argument.
    /// `apns-mock devices put FILE` (issue 40's bulk call): a list in a file, counted; a bad entry
    /// refused with its index and field, exit 2.
    @Test func devicesPutRegistersAFileOfDevices() async throws {
        try await E2E.withMock { mock in
            let path = NSTemporaryDirectory() + "apns-mock-devices-\(UUID().uuidString).json"
            defer { try? FileManager.default.removeItem(atPath: path) }
            let tokens = (0..<2).map { _ in E2E.randomToken() }
            try Data(#"[{"token":"\#(tokens[0])","presence":"offline"},{"token":"\#(tokens[1])"}]"#.utf8)
                .write(to: URL(fileURLWithPath: path))
            let put = try await Self.cli(["devices", "put", path, "--admin", mock.endpoints.adminURL])
            #expect(put.status == 0, "\(put.stderr)")
            #expect(put.stdout == "2 devices: 2 created, 0 replaced\n", "\(put.stdout)")
            try Data(#"{"devices":[{"token":"\#(tokens[0])","presence":"away"}]}"#.utf8).write(
                to: URL(fileURLWithPath: path))
            let refused = try await Self.cli(["devices", "put", path, "--admin", mock.endpoints.adminURL])
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("devices[0].presence"), "\(refused.stderr)")
        }
    }

    @Test func aMistypedCommandGetsDidYouMean() async throws {
        let output = try await Self.cli(["server"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("'server' is not a command (did you mean 'serve'?)"), "\(output.stderr)")
    }

    @Test func tokenRefusesAKeyIdThatIsNotTenCharacters() async throws {
        let output = try await Self.cli(["token", "--key", E2E.keyFile, "--key-id", "ABC", "--team-id", "DEF123GHIJ"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("--key-id must be 10 letters or digits"), "\(output.stderr)")
    }

    /// `--age 65m` mints a token APNs calls expired.
    @Test func tokenAgeSetsTheIssueTime() async throws {
        let output = try await Self.cli([
            "token", "--key", E2E.keyFile, "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ", "--age", "65m",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let claims = try #require(output.stdout.split(separator: ".").dropFirst().first)
        var base64 = claims.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        let json = try #require(
            Data(base64Encoded: base64).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any])
        let iat = try #require(json["iat"] as? Int)
        let age = Int(Date().timeIntervalSince1970) - iat
        #expect((65 * 60 - 5)...(65 * 60 + 5) ~= age, "iat \(iat) is \(age) s ago")
    }

    /// A key file that is not PEM says so, not a library's error case name.
    @Test func tokenWithAFileThatIsNotAKeySaysWhatItIs() async throws {
        let output = try await Self.cli([
            "token", "--key", E2E.repositoryRoot + "/certs/ca.pem", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ",
        ])
        #expect(output.status != 0)
        #expect(output.stderr.contains("holds a CERTIFICATE, not an EC P-256 private key"), "\(output.stderr)")
        #expect(!output.stderr.contains("invalidPEMDocument"))
    }

    /// Each default is printed once by --help (the help text used to repeat ArgumentParser's).
    @Test(arguments: ["verify", "report", "explain", "export", "wait", "deliveries"])
    func helpPrintsEachDefaultOnce(_ command: String) async throws {
        let output = try await Self.cli([command, "--help"])
        #expect(output.stdout.components(separatedBy: "http://127.0.0.1:2198").count <= 2, "\(output.stdout)")
        #expect(!output.stdout.contains("DeliveryExpectation"))
    }

    /// A filter without '=' is bad input: exit 2.
    @Test func aFilterWithoutEqualsIsBadInput() async throws {
        let output = try await Self.cli(["deliveries", "status410", "--admin", "http://127.0.0.1:9"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("a filter is FIELD=VALUE"), "\(output.stderr)")
    }

    @Test func healthcheckFailsWhenNothingListens() async throws {
        let output = try await Self.cli(["healthcheck", "--admin", "http://127.0.0.1:9"])
        #expect(output.status == 1)
        #expect(output.stderr.contains("cannot reach"), "\(output.stderr)")
    }
}
