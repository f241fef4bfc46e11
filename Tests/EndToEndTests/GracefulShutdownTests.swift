import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM ends the server gracefully: every live connection gets GOAWAY NO_ERROR
/// `{"reason":"Shutdown"}` naming the last stream processed, a request still sending its body
/// is answered, then the process exits 0.
@Suite(.serialized) struct GracefulShutdownTests {
    @Test(.enabled(if: E2E.which("node") != nil || E2E.clientsRequired, "node is not installed"))
    func sigtermSendsGoAwayAndAnswersTheStreamInFlight() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["serve", "--port", "0", "--admin-port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = await E2E.firstLine(of: out)
        let port = try #require(line.firstMatch(of: #/apns=https://127\.0\.0\.1:(\d+)/#)?.1, "ready line: \(line)")
        let output = try await E2E.run(
            "node",
            [
                E2E.clientsDirectory + "/node_sigterm.mjs", String(port), E2E.caFile, E2E.randomToken(),
                try E2E.providerToken(), String(process.processIdentifier),
            ], timeout: 30)
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "\(output.stdout) \(output.stderr)")
        let goaway = try #require(result["goaway"] as? [String: Any], "no GOAWAY: \(result)")
        #expect(goaway["errorCode"] as? Int == 0)
        #expect(goaway["lastStreamID"] as? Int == 1)
        #expect(goaway["debug"] as? String == #"{"reason":"Shutdown"}"#)
        #expect(result["status"] as? Int == 200, "the request in flight is answered: \(result)")
        #expect(result["closed"] as? Bool == true)
        let ending = await E2E.ending(of: process, within: 15)
        #expect(ending == E2E.Ending(reason: .exit, status: 0))
        if ending == nil { kill(process.processIdentifier, SIGKILL) }
        // One line says what the drain did: the connection, the stream answered after GOAWAY.
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            stderr.contains("shut down: closed 1 connection, answered 1 stream while draining, 1 record held"),
            "\(stderr)")
    }

    /// A parked wait and a verification still inside its `within` do not hold the exit until they
    /// time out: SIGTERM answers both 503 `shuttingDown` at once, and the process exits 0.
    @Test func sigtermEndsParkedWaitsAndVerifications() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["serve", "--port", "0", "--admin-port", "0", "--channels-port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = await E2E.firstLine(of: out)
        let admin = try #require(line.firstMatch(of: #/admin=(http://127\.0\.0\.1:\d+)/#)?.1, "ready line: \(line)")
        let token = E2E.randomToken()
        async let wait = E2E.run(
            "curl", ["-sS", "-w", "\n%{http_code}", "\(admin)/v1/deliveries/wait?count=1&timeout=300&token=\(token)"],
            timeout: 60)
        async let verification = E2E.run(
            "curl",
            [
                "-sS", "-w", "\n%{http_code}", "-H", "content-type: application/json", "--data",
                #"{"expect":[{"name":"a push that never comes","match":{"token":"\#(token)"},"count":{"exactly":1},"within":"300s"}]}"#,
                "\(admin)/v1/verify",
            ], timeout: 60)
        // Both parked: the waiters gauge counts them.
        var parked = 0
        for _ in 0..<200 where parked < 2 {
            let metrics = try await E2E.run("curl", ["-sS", "\(admin)/metrics"])
            parked =
                metrics.stdout.split(separator: "\n").first { $0.hasPrefix("apns_mock_waiters ") }
                .flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0
            if parked < 2 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(parked == 2)
        let signalled = Date()
        kill(process.processIdentifier, SIGTERM)
        let (waited, verified) = try await (wait, verification)
        for output in [waited, verified] {
            #expect(output.stdout.hasSuffix("\n503"), "\(output.stdout) \(output.stderr)")
            #expect(output.stdout.contains(#""code":"shuttingDown""#), "\(output.stdout)")
        }
        #expect(waited.stdout.contains("the wait ended with 0 of 1 matching records"), "\(waited.stdout)")
        let ending = await E2E.ending(of: process, within: 10 - Date().timeIntervalSince(signalled))
        #expect(ending == E2E.Ending(reason: .exit, status: 0), "still running 10 s after SIGTERM, or failed")
        if ending == nil { kill(process.processIdentifier, SIGKILL) }
        #expect(
            Date().timeIntervalSince(signalled) < 5, "exited \(Date().timeIntervalSince(signalled)) s after SIGTERM")
    }
}
