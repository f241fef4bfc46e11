import APNSMock
import Foundation
import Testing

/// The fault scenarios in `expectations/`: each file's setup (its fault rules included) is
/// applied as `serve --expectations` does, Node's http2 client pushes through it, and the
/// file's expectations must hold.
@Suite(.serialized) struct FaultScenarioTests {
    /// Runs `body` with a mock that has `name`'s setup applied, fault rules included.
    static func withMock<Result>(_ name: String, _ body: (RunningMock) async throws -> Result) async throws -> Result {
        let loaded = try ExpectationFile.load([VerifyCommandTests.file(name)], now: WallClock.milliseconds())
        return try await E2E.withMock(
            E2E.mockConfiguration { configuration in
                configuration.keys = []
                for file in loaded {
                    configuration.addSetup(
                        keys: file.setup.keys, devices: file.setup.devices, faults: file.setup.faults)
                }
            }, body)
    }

    static func run(_ name: String, pushes: Int, spec: [String: Any] = [:]) async throws -> [String: Any] {
        try await withMock(name) { mock in
            let token = try VerifyCommandTests.token(in: name)
            var full = spec
            full["pushes"] = Array(repeating: ["token": token], count: pushes)
            let result = try await FaultInjectionTests.nodeSequence(mock, full)
            let report = try await mock.verify(expectationFile: VerifyCommandTests.file(name))
            #expect(report.passed, "\(report)")
            return result
        }
    }

    static func statuses(_ result: [String: Any]) -> [Int] {
        (result["results"] as? [[String: Any]] ?? []).map { $0["status"] as? Int ?? 0 }
    }

    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func tokenRefreshStorm() async throws {
        let result = try await Self.run("fault-token-refresh-storm.yaml", pushes: 4)
        #expect(Self.statuses(result) == [429, 429, 429, 200])
    }

    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func unavailableThenRecovery() async throws {
        let result = try await Self.run("fault-503-then-recovery.yaml", pushes: 3)
        #expect(Self.statuses(result) == [503, 503, 200])
    }

    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func slowAnswers() async throws {
        let started = Date()
        let result = try await Self.run("fault-slow-answers.yaml", pushes: 2)
        #expect(Self.statuses(result) == [200, 200])
        #expect(Date().timeIntervalSince(started) >= 0.6)
    }

    /// A burst of six on a new token connection (one stream until the first accepted push, so
    /// the first streams are refused and retried too); the GOAWAY after the third push sends
    /// the rest to a new connection.
    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func goAwayMidBurst() async throws {
        let result = try await Self.run(
            "fault-goaway-mid-burst.yaml", pushes: 6, spec: ["burst": true, "retryRefused": true])
        #expect(Self.statuses(result) == Array(repeating: 200, count: 6), "\(result)")
        let goaways = result["goaways"] as? [[String: Any]] ?? []
        #expect(goaways.count == 1 && goaways.first?["debug"] as? String == #"{"reason":"Shutdown"}"#, "\(result)")
        #expect((result["sessions"] as? Int ?? 0) >= 2)
    }
}
