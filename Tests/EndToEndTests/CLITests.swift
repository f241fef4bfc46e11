import APNSMock
import APNSMockRegistry
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `apns-mock` executable as a user runs it.
@Suite(.serialized) struct CLITests {
    /// The executable built beside the test bundle.
    static let executable: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("apns-mock").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return E2E.repositoryRoot + "/.build/debug/apns-mock"
    }()

    /// Stops cleanly (exit 0) on SIGTERM and on SIGINT (Ctrl-C).
    @Test(arguments: [SIGTERM, SIGINT])
    func serveOnDefaultsPrintsOneReadyLineAndStopsOnSignal(_ signal: Int32) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["serve", "--port", "0", "--admin-port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let started = Date()
        try process.run()
        let line = await E2E.firstLine(of: out)
        let ready = line
        // Bounded loosely: a ThreadSanitizer build on a busy machine took 21 s to start.
        #expect(Date().timeIntervalSince(started) < 60)
        let pattern =
            #/^apns-mock ready apns=https://127\.0\.0\.1:(\d+) admin=http://127\.0\.0\.1:(\d+) channels=https://127\.0\.0\.1:\d+ webpush=https://127\.0\.0\.1:\d+\n$/#
        let match = try #require(ready.wholeMatch(of: pattern), "ready line: \(ready)")
        let adminPort = String(match.2)
        #expect(match.1 != "0" && adminPort != "0")
        let health = try await E2E.run("curl", ["-sS", "http://127.0.0.1:\(adminPort)/health"])
        #expect(health.stdout == #"{"status":"ok"}"#)
        kill(process.processIdentifier, signal)
        let ending = await E2E.ending(of: process, within: 15)
        #expect(ending == E2E.Ending(reason: .exit, status: 0))
        if ending == nil { kill(process.processIdentifier, SIGKILL) }
        let rest = out.fileHandleForReading.readDataToEndOfFile()
        #expect(rest.isEmpty, "stdout holds only the ready line")
    }

    @Test(arguments: [
        (["serve", "--tls-cert", "/nonexistent/server.pem"], "--tls-cert: cannot read '/nonexistent/server.pem'"),
        (["serve", "--environment", "staging"], "--environment must be sandbox, production or auto"),
        (["serve", "--chain", "apple"], "--chain must be apple-like or untrusted-root; got 'apple'"),
        (["serve", "--chain", "apple-like", "--tls-cert", "x.pem"], "--chain is served in place of --tls-cert"),
        (["serve", "--chain-out", "/tmp/x"], "--chain-out needs --chain"),
        (["certs", "generate", "--chain", "apple", "--out", "/tmp/x"], "--chain must be apple-like or untrusted-root"),
        (["serve", "--bogus"], "Unknown option '--bogus'"),
        (
            ["serve", "--log-level", "loud"],
            "--log-level must be trace, debug, info, notice, warning, error or critical"
        ),
        (
            ["token", "--key", "/nonexistent.p8", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
            "--key: cannot read"
        ),
        (
            ["serve", "--config", "/nonexistent/apns-mock.yaml"],
            "/nonexistent/apns-mock.yaml: no such file or directory"
        ),
        (["serve", "--config", E2E.repositoryRoot + "/certs"], "/certs: is a directory, not a file"),
        (["serve", "--tls-cert", E2E.repositoryRoot + "/certs"], "/certs': is a directory, not a file"),
        (
            ["serve", "--tls-key", "/nonexistent/key.pem"],
            "--tls-key: cannot read '/nonexistent/key.pem': no such file"
        ),
        (
            ["serve", "--expectations", "/nonexistent/a.yaml"],
            "--expectations: /nonexistent/a.yaml: no such file or directory"
        ),
        (["serve", "--localizations", E2E.repositoryRoot + "/certs/ca.pem"], "/certs/ca.pem': is not a directory"),
        (
            ["token", "--key", E2E.repositoryRoot + "/certs", "--key-id", "ABC123DEFG", "--team-id", "DEF123GHIJ"],
            "/certs': is a directory, not a file"
        ),
        (["serve", "--auth-stream-limit", "maybe"], "--auth-stream-limit must be true or false; got 'maybe'"),
        (
            ["serve", "--environment-key-reason", "Nope"],
            "--environment-key-reason must be BadEnvironmentKeyIdInToken or BadEnvironmentKeyInToken"
        ),
        (["serve", "--client-ca", "/nonexistent/ca.pem"], "--client-ca: cannot read '/nonexistent/ca.pem'"),
        (["serve", "--threads", "0"], "--threads must be 1–256; got 0"),
        (["serve", "--admin-token", ""], "--admin-token must be non-empty and without spaces"),
        (["serve", "--throttle", "3"], "--throttle must be PUSHES/WINDOW such as 3/10s"),
        (["serve", "--behavior", "stream-limit"], "--behavior must be one of streams-after-rejection"),
        (["serve", "--idle-timeout", "0s"], "--idle-timeout must be a duration such as 30s or 5m; got '0s'"),
        (["serve", "--max-connections", "0"], "--max-connections must be 1–1000000; got 0"),
        (["serve", "--locale", "english"], "--locale must be a locale such as en, fr or pt-BR; got 'english'"),
        (["serve", "--payload-limit", "6000"], "--payload-limit must be 256–5120; got 6000"),
        (
            ["serve", "--localizations", "/nonexistent/l10n"],
            "localizations directory '/nonexistent/l10n': no such file or directory"
        ),
        (["export", "not-a-uuid"], "the apns-id must be a UUID"),
    ])
    func badInputIsOneClearLine(_ arguments: [String], _ message: String) async throws {
        let output = try await E2E.run(Self.executable, arguments)
        #expect(output.status != 0)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(!output.stderr.contains("Fatal error"))
        #expect(output.stdout.isEmpty)
    }

    /// The event-loop threads follow the CPUs the process may use (taskset), or `--threads`.
    @Test(arguments: [(["taskset", "-c", "0"], [String](), 1), ([], ["--threads", "3"], 3)])
    func eventLoopThreads(_ prefix: [String], _ flags: [String], _ expected: Int) async throws {
        guard prefix.isEmpty || FileManager.default.isExecutableFile(atPath: "/usr/bin/taskset") else { return }
        let process = Process()
        let command = prefix + [Self.executable, "serve", "--port", "0", "--admin-port", "0"] + flags
        process.executableURL = URL(fileURLWithPath: prefix.isEmpty ? command[0] : "/usr/bin/" + command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { E2E.end(process) }
        let line = await E2E.firstLine(of: out)
        #expect(line.hasPrefix("apns-mock ready"))
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task")
        let loops = tasks.filter { task in
            let name =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/task/\(task)/comm", encoding: .utf8))
            return name?.hasPrefix("NIO-SGLTN") ?? false
        }
        #expect(loops.count == expected, "event-loop threads: \(loops.count)")
    }

    /// A port another instance holds ends `serve` at once: one line on stderr naming the port
    /// and the flag, exit code 1, no ready line (issue #8: a taken admin port used to leave a
    /// silent process that answered pushes and ignored SIGINT and SIGTERM).
    @Test(arguments: ["apns", "admin"])
    func portInUseIsOneClearLineAndExit(_ taken: String) async throws {
        try await E2E.withMock { mock in
            let (port, flag, what) =
                taken == "apns"
                ? (mock.endpoints.apnsPort, "--port", "APNs") : (mock.endpoints.adminPort, "--admin-port", "admin")
            var arguments = [
                "serve", "--tls-cert", E2E.repositoryRoot + "/certs/server.pem", "--tls-key",
                E2E.repositoryRoot + "/certs/server-key.pem",
            ]
            arguments +=
                taken == "apns"
                ? ["--port", String(port), "--admin-port", "0"] : ["--port", "0", "--admin-port", String(port)]
            let started = Date()
            let output = try await E2E.run(Self.executable, arguments, timeout: 15)
            // At once, not after a hang: 12 s leaves room for a start under AddressSanitizer beside
            // every other suite (a CI run took over 5 s to start and fail).
            #expect(Date().timeIntervalSince(started) < 12)
            #expect(output.status == 1)
            #expect(output.stdout.isEmpty, "no ready line: \(output.stdout)")
            let lines = output.stderr.split(separator: "\n").map(String.init)
            #expect(lines == ["Error: \(what) port 127.0.0.1:\(port) is already in use (\(flag))"], "\(output.stderr)")
        }
    }

    /// A server without privileges (a container's non-root user) accepts APNs connections: an
    /// option set on each accepted socket once needed CAP_NET_ADMIN (SO_DEBUG for TCP_NODELAY),
    /// and every connection of a non-root server was closed at accept. Run as root, the test
    /// drops to `nobody` with setpriv.
    @Test func anUnprivilegedServerAcceptsPushes() async throws {
        guard getuid() == 0 else {
            // Not root: the other tests already run an unprivileged server.
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nobody-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["server.pem", "server-key.pem", "ca.pem"] {
            let target = directory.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: E2E.repositoryRoot + "/certs/" + name, toPath: target)
            chmod(target, 0o644)
        }
        chmod(directory.path, 0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(E2E.which("setpriv")))
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all", Self.executable, "serve",
            "--port", "0", "--admin-port", "0", "--tls-cert", directory.path + "/server.pem", "--tls-key",
            directory.path + "/server-key.pem", "--client-ca", "none",
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { E2E.end(process) }
        let line = await E2E.firstLine(of: out)
        let match = try #require(line.firstMatch(of: #/apns=(https://\S+) admin=(http://\S+)/#), "ready line: \(line)")
        let push = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "-d", "{}",
                "\(match.1)/3/device/\(E2E.randomToken())",
            ])
        #expect(push.stdout == "200", "curl: \(push.status) \(push.stderr)")
    }

    /// `serve --help` lists exactly the flags `ServeSetting.all` declares (a negatable switch
    /// with its `--no-` form), with the declared help text, and nothing else but --version
    /// and --help: an option added without its declaration fails here.
    @Test func helpListsEveryDeclaredSetting() async throws {
        let output = try await E2E.run(Self.executable, ["serve", "--help"], environment: ["COLUMNS": "400"])
        #expect(output.status == 0)
        var listed: [String] = []
        for line in output.stdout.split(separator: "\n") where line.hasPrefix("  -") {
            let names = line.dropFirst(2).prefix { $0 != " " }
            listed += names.split(separator: "/").flatMap { $0.split(separator: ",") }.map(String.init)
        }
        var declared: [String] = []
        for setting in ServeSetting.all {
            declared.append("--" + setting.flag)
            if setting.negatable { declared.append("--no-" + setting.flag) }
        }
        #expect(listed == declared + ["--version", "-h"], "\(listed)")
        let help = output.stdout.split(separator: "\n").joined(separator: " ").split(separator: " ").joined(
            separator: " ")
        for setting in ServeSetting.all {
            #expect(help.contains(setting.help), "--\(setting.flag)'s help is not its declaration's")
        }
    }

    /// The version a consumer package's `from:` names is the one the binary reports, followed by
    /// the commit it was built from (this checkout's: the test runs inside it).
    @Test func versionIsTheReleaseTagAndTheCommit() async throws {
        let output = try await E2E.run(Self.executable, ["--version"])
        #expect(output.status == 0)
        #expect(APNSMockVersion.current.wholeMatch(of: #/\d+\.\d+\.\d+/#) != nil)
        let match = try #require(
            output.stdout.wholeMatch(of: #/(\S+) \(commit ([0-9a-f]{12})(-dirty)?\)\n/#), "\(output.stdout)")
        #expect(match.1 == APNSMockVersion.current)
        let head = try await E2E.run("/usr/bin/git", ["rev-parse", "HEAD"])
        #expect(head.stdout.hasPrefix(String(match.2)), "\(head.stdout)")
        let serve = try await E2E.run(Self.executable, ["serve", "--version"])
        #expect(serve.stdout == output.stdout)
    }

    @Test func tokenCommandPrintsAVerifiableJWT() async throws {
        let output = try await E2E.run(
            Self.executable, ["token", "--key", E2E.keyFile, "--key-id", E2E.keyID, "--team-id", E2E.teamID])
        #expect(output.status == 0)
        let parts = output.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        #expect(parts.count == 3)
        func decode(_ part: Substring) -> [String: Any]? {
            var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            return Data(base64Encoded: text).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        }
        #expect(decode(parts[0])?["alg"] as? String == "ES256")
        #expect(decode(parts[0])?["kid"] as? String == E2E.keyID)
        #expect(decode(parts[1])?["iss"] as? String == E2E.teamID)
        let iat = try #require(decode(parts[1])?["iat"] as? Int)
        #expect(abs(iat - Int(Date().timeIntervalSince1970)) < 60)
    }

    @Test func certsGenerateWritesAWorkingCAAndServerCertificate() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apns-mock-certs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try await E2E.run(Self.executable, ["certs", "generate", "--out", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        let verify = try await E2E.run(
            "openssl",
            [
                "verify", "-x509_strict", "-CAfile", directory.appendingPathComponent("ca.pem").path,
                directory.appendingPathComponent("server.pem").path,
            ])
        #expect(verify.stdout.contains(": OK"), "\(verify.stdout) \(verify.stderr)")
    }
}
