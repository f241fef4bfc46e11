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
        let line = E2E.firstLine(of: out)
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
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!process.isRunning)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // One line says what the drain did: the connection, the stream answered after GOAWAY.
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            stderr.contains("shut down: closed 1 connection, answered 1 stream while draining, 1 record held"),
            "\(stderr)")
    }
}
