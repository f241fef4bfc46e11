import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Command-line habits: several files after one flag, errors that say why a file cannot be
/// read, and a shutdown that says what it drained.
@Suite(.serialized) struct CLIHabitsTests {
    /// `serve` in the repository root with `arguments`; the ready line, the process, and its stderr.
    static func serve(_ arguments: [String]) async throws -> (ready: String, process: Process, stderr: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["serve"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (await E2E.firstLine(of: out), process, err)
    }

    static func adminPort(_ ready: String) throws -> String {
        try #require(ready.firstMatch(of: #/admin=http://127\.0\.0\.1:(\d+)/#), "ready line: \(ready)").1.description
    }

    /// Sends SIGTERM and expects the exit, with status 0, within 15 s (else SIGKILL); returns what
    /// the process wrote on stderr.
    static func stop(_ process: Process, _ err: Pipe) async throws -> String {
        kill(process.processIdentifier, SIGTERM)
        let ending = await E2E.ending(of: process, within: 15)
        #expect(ending == E2E.Ending(reason: .exit, status: 0), "after SIGTERM")
        if ending == nil {
            kill(process.processIdentifier, SIGKILL)
            _ = await E2E.ending(of: process)
        }
        return String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// `--expectations a.yaml b.yaml` reads both, as the synopsis says; repeating the flag adds more.
    @Test func expectationsTakeSeveralFilesAfterOneFlag() async throws {
        let (ready, process, err) = try await Self.serve([
            "--expectations", "expectations/welcome-alert.yaml", "expectations/unregistered-cleanup.yaml",
            "--port", "0", "--admin-port", "0", "--expectations", "expectations/silent-background-refresh.yaml",
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = try Self.adminPort(ready)
        let devices = try await E2E.run("curl", ["-sS", "http://127.0.0.1:\(port)/v1/devices"])
        for prefix in ["7f3a", "9c1e", "5b1e"] {
            #expect(devices.stdout.contains(#""token":"\#(prefix)0000"#), "\(prefix): \(devices.stdout)")
        }
        _ = try await Self.stop(process, err)
    }

    /// SIGTERM logs one notice line: connections closed, streams answered while draining, records held.
    @Test func shutdownSaysWhatItDrained() async throws {
        let (ready, process, err) = try await Self.serve(["--port", "0", "--admin-port", "0"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let port = try #require(ready.firstMatch(of: #/apns=https://127\.0\.0\.1:(\d+)/#), "ready line: \(ready)").1
        let jwt = try E2E.providerToken()
        for _ in 0..<2 {
            let push = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", E2E.caFile, "-H",
                    "authorization: bearer \(jwt)", "-H", "apns-topic: com.example.app", "--data-binary",
                    #"{"aps":{"alert":"hi"}}"#, "https://localhost:\(port)/3/device/\(E2E.randomToken())",
                ])
            #expect(push.stdout == "200", "\(push.stderr)")
        }
        let stderr = try await Self.stop(process, err)
        let lines = stderr.split(separator: "\n").filter { $0.contains("shut down:") }
        #expect(lines.count == 1, "\(stderr)")
        let line = String(lines.first ?? "")
        #expect(line.contains("notice"), "\(line)")
        #expect(
            line.contains("shut down: closed 0 connections, answered 0 streams while draining, 2 records held"),
            "\(line)")
        #expect(line.contains("apnsmock.shutdown.records=2"), "\(line)")
    }

    /// A file the server may not read is "permission denied", not "cannot be read" (run as
    /// `nobody` with setpriv when the tests run as root, who may read anything).
    @Test(.enabled(if: getuid() == 0 && E2E.which("setpriv") != nil, "needs root and setpriv"))
    func anUnreadableConfigurationFileSaysPermissionDenied() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("denied-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        chmod(directory.path, 0o755)
        let file = directory.appendingPathComponent("apns-mock.yaml").path
        try "port: 0\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        let output = try await E2E.run(
            "setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", CLITests.executable, "serve", "--config", file,
            ])
        #expect(output.status != 0)
        #expect(output.stderr.contains("\(file): permission denied"), "\(output.stderr)")
    }
}
