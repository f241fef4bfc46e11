import APNSMock
import APNSMockCore
import Crypto
import Foundation
import Logging
import Testing

/// Helpers for end-to-end tests: real processes, real TLS, ephemeral ports.
enum E2E {
    static let repositoryRoot: String = {
        var path = #filePath.split(separator: "/").map(String.init)
        path.removeLast(3)
        return "/" + path.joined(separator: "/")
    }()
    static let caFile = repositoryRoot + "/certs/ca.pem"
    /// `XDG_STATE_HOME` for apns-mock processes started outside the repository, where they
    /// generate their development credentials (kept for the whole run, as a user's are).
    static let testStateDirectory = NSTemporaryDirectory() + "apns-mock-test-state"
    static let keyFile = repositoryRoot + "/certs/AuthKey_ABC123DEFG.p8"
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let clientsDirectory = repositoryRoot + "/Tests/EndToEndTests/Clients"

    /// `make test` sets this; then a missing client is a failure, not a skip.
    static let clientsRequired = ProcessInfo.processInfo.environment["APNS_MOCK_E2E_REQUIRED"] == "1"

    /// Runs `body` with apns-mock started in this process, and stops it before returning, also
    /// when `body` throws.
    /// - Parameter configuration: the mock's; ``mockConfiguration(configure:)`` (free ports,
    ///   the committed certificates, the sample key) by default.
    @discardableResult
    static func withMock<Result>(
        _ configuration: APNSMockConfiguration? = nil, now: @escaping @Sendable () -> Int64 = WallClock.milliseconds,
        _ body: (RunningMock) async throws -> Result
    ) async throws -> Result {
        let configuration = try configuration ?? mockConfiguration()
        return try await withRunningMock(APNSMockApplication(configuration: configuration, now: now)) { mock in
            let result = try await body(mock)
            expectEveryRejectionExplained(mock)
            return result
        }
    }

    /// Every rejection a test provoked says why in its record (issue 20: the mock says why):
    /// an answer outside 2xx, or a GOAWAY instead of an answer, has a `detail`.
    static func expectEveryRejectionExplained(_ mock: RunningMock, sourceLocation: SourceLocation = #_sourceLocation) {
        let unexplained = mock.deliveries.all().filter { record in
            guard let response = record.response else { return false }
            let rejected = response.goAway || !(200...299).contains(response.status ?? 200)
            return rejected && record.detail == nil
        }
        #expect(
            unexplained.isEmpty,
            "rejections without a detail: \(unexplained.map { "#\($0.sequence) \($0.path) \($0.response?.reason?.rawValue ?? "")" })",
            sourceLocation: sourceLocation)
    }

    /// The tests' configuration: free ports, the committed certificates, the sample key.
    static func mockConfiguration(configure: (inout APNSMockConfiguration) -> Void = { _ in }) throws
        -> APNSMockConfiguration
    {
        var configuration = APNSMockConfiguration()
        configuration.port = 0
        configuration.adminPort = 0
        configuration.tlsCertificatePath = repositoryRoot + "/certs/server.pem"
        configuration.tlsKeyPath = repositoryRoot + "/certs/server-key.pem"
        configuration.logLevel = .warning
        configuration.keys = [try sampleKey()]
        configure(&configuration)
        return configuration
    }

    /// `authorization: bearer <token>` for curl, signed by the committed sample key.
    static var authorizationHeader: String { "authorization: bearer " + ((try? providerToken()) ?? "") }

    /// The committed sample key, registered so that signatures are verified end to end.
    static func sampleKey() throws -> ProviderKey {
        let pem = try String(contentsOfFile: repositoryRoot + "/certs/AuthKey_ABC123DEFG.pub.pem", encoding: .utf8)
        return ProviderKey(keyID: keyID, teamID: teamID, publicKey: try P256.Signing.PublicKey(pemRepresentation: pem))
    }

    static func providerToken() throws -> String {
        try ProviderToken.make(
            privateKeyPEM: String(contentsOfFile: keyFile, encoding: .utf8), keyID: keyID, teamID: teamID)
    }

    static func randomToken(bytes: Int = 32) -> String {
        (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    static func newAPNSID() -> String {
        var random = FastRandom()
        return APNSMessageID.generate(using: &random)
    }

    /// The full path of `name` on PATH, if any.
    static func which(_ name: String) -> String? {
        if name.hasPrefix("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to completion (killed after `timeout` seconds), output through files.
    static func run(
        _ executable: String, _ arguments: [String], stdin: String? = nil, timeout: Double = 60,
        environment: [String: String]? = nil
    ) async throws -> Output {
        let path = try #require(which(executable), "\(executable) is not installed (make test installs it)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apns-mock-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        var ending = await Self.ending(of: process, within: timeout)
        if ending == nil {
            Issue.record("\(executable) timed out after \(timeout)s")
            process.terminate()
            ending = await Self.ending(of: process, within: 10)
            if ending == nil { kill(process.processIdentifier, SIGKILL) }
            ending = await Self.ending(of: process, within: 10)
        }
        return Output(
            status: ending?.status ?? -1,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// How a process ended.
    struct Ending: Equatable {
        var reason: Process.TerminationReason
        var status: Int32
    }

    /// How `process` ended, waited for at most `seconds`; nil while it still runs.
    ///
    /// Polled, not `waitUntilExit()`: a thread of the test's cooperative pool (two here) blocked
    /// until a process ends stalls every in-process server's handlers meanwhile. And tests read
    /// `terminationStatus` and `terminationReason` only from here: Foundation traps (SIGILL, no
    /// message) when they are read while the process runs.
    static func ending(of process: Process, within seconds: Double = 30) async -> Ending? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { return nil }
        process.waitUntilExit()  // ended: returns at once
        return Ending(reason: process.terminationReason, status: process.terminationStatus)
    }

    /// Signals `process` from a `defer`, where nothing can be awaited; Foundation reaps it when it
    /// ends, and no thread waits for that.
    static func end(_ process: Process, signal: Int32 = SIGTERM) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// The first line `pipe` delivers (a server's ready line), or what came before it ended.
    ///
    /// Read on a thread of its own: a blocking read on the test's cooperative pool (two threads
    /// here) stalled every other test's timers while servers started under ThreadSanitizer.
    static func firstLine(of pipe: Pipe) async -> String {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: blockingFirstLine(of: pipe)) }.start()
        }
    }

    private static func blockingFirstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// GET on the admin API, decoded as a JSON object.
    static func adminGET(_ mock: RunningMock, _ pathAndQuery: String) async throws -> (Int, [String: Any]) {
        let output = try await run(
            "curl", ["-sS", "-w", "\n%{http_code}", mock.endpoints.adminURL + pathAndQuery])
        var lines = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.removeLast()) ?? 0
        let body = lines.joined(separator: "\n")
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        return (status, try #require(object, "admin answer is not a JSON object: \(body)"))
    }

    /// The deliveries for `token`, oldest first.
    static func deliveries(_ mock: RunningMock, token: String) async throws -> [[String: Any]] {
        let (status, body) = try await adminGET(mock, "/v1/deliveries?token=\(token)")
        #expect(status == 200)
        return body["deliveries"] as? [[String: Any]] ?? []
    }
}
