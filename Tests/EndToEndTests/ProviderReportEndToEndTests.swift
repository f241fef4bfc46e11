import APNSMock
import Foundation
import Testing

/// The provider-behaviour report (`GET /v1/report`, `apns-mock report`) after real clients
/// misbehave on purpose: Node's http2 minting a token per push, httpx retrying a 400, Node
/// pushing on after a 410, curl opening a connection per push; and a well-behaved Node client
/// that earns no warning.
@Suite(.serialized) struct ProviderReportEndToEndTests {
    static let nodeAvailable = E2E.which("node") != nil || E2E.clientsRequired
    static let identity = "team \(E2E.teamID) key \(E2E.keyID)"

    /// Runs `node_provider.mjs` with `steps`; returns its answers.
    static func node(_ mock: RunningMock, _ steps: [[String: Any]]) async throws -> [[String: Any]] {
        let spec = String(decoding: try JSONSerialization.data(withJSONObject: ["steps": steps]), as: UTF8.self)
        let output = try await E2E.run(
            "node",
            [
                E2E.clientsDirectory + "/node_provider.mjs", String(mock.endpoints.apnsPort), E2E.caFile, E2E.keyFile,
                E2E.keyID, E2E.teamID, spec,
            ])
        #expect(output.status == 0, "\(output.stderr)")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout)")
        return result["results"] as? [[String: Any]] ?? []
    }

    /// The report's entry for the sample key.
    static func provider(_ mock: RunningMock, query: String = "") async throws -> [String: Any] {
        let (status, report) = try await E2E.adminGET(mock, "/v1/report" + query)
        #expect(status == 200, "\(report)")
        let providers = report["providers"] as? [[String: Any]] ?? []
        return try #require(
            providers.first { ($0["identity"] as? [String: Any])?["name"] as? String == identity }, "\(report)")
    }

    static func findings(_ provider: [String: Any]) -> [String: [String: Any]] {
        let list = provider["findings"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["code"] as? String ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    static func curlPush(_ mock: RunningMock, token: String, pushType: String? = "alert") async throws -> String {
        var arguments = [
            "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
            E2E.authorizationHeader, "-H", "apns-topic: com.example.app", "-H", "apns-id: \(E2E.newAPNSID())",
        ]
        if let pushType { arguments += ["-H", "apns-push-type: \(pushType)"] }
        arguments += [
            "--data-binary", #"{"aps":{"alert":{"title":"Hi","body":"curl"}}}"#,
            "\(mock.endpoints.apnsURL)/3/device/\(token)",
        ]
        return try await E2E.run("curl", arguments).stdout
    }

    @Test(.enabled(if: nodeAvailable, "node is not installed"))
    func aClientThatMintsATokenPerPushIsReported() async throws {
        try await E2E.withMock { mock in
            // A new token for every push, each with its own iat, on one connection.
            let steps: [[String: Any]] = (0..<5).map { index in
                ["token": E2E.randomToken(), "mint": true, "iatOffset": -100 + index * 2]
            }
            let answers = try await Self.node(mock, steps)
            #expect(answers.map { $0["status"] as? Int } == [200, 429, 429, 429, 429], "\(answers)")
            let provider = try await Self.provider(mock)
            let findings = Self.findings(provider)
            let refreshed = try #require(findings["provider-token-refreshed-too-often"], "\(provider)")
            #expect(refreshed["severity"] as? String == "warning")
            #expect(refreshed["count"] as? Int == 4)
            #expect((refreshed["source"] as? String)?.contains("Establishing a token-based connection to APNs") == true)
            #expect((refreshed["examples"] as? [String])?.count == 3)
            let updates = try #require(findings["too-many-provider-token-updates"])
            #expect(updates["count"] as? Int == 4)
            #expect(updates["examples"] as? [String] == answers[1...3].map { $0["apnsId"] as? String ?? "" })
            let tokens = try #require(provider["providerTokens"] as? [String: Any])
            #expect(tokens["distinct"] as? Int == 5)
            #expect(tokens["shortestRefresh"] as? String == "2s")
        }
    }

    @Test(.enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON"))
    func aClientThatRetriesA400IsReported() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        try await E2E.withMock { mock in
            let apnsID = E2E.newAPNSID()
            let output = try await E2E.run(
                python,
                [
                    E2E.clientsDirectory + "/httpx_retry.py", String(mock.endpoints.apnsPort), E2E.caFile,
                    try E2E.providerToken(), E2E.randomToken(), apnsID, "7", "3",
                ])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.components(separatedBy: "BadPriority").count == 5, "\(output.stdout)")
            let findings = Self.findings(try await Self.provider(mock))
            let retried = try #require(findings["non-retryable-retried"], "\(findings.keys)")
            #expect(retried["severity"] as? String == "error")
            #expect(retried["count"] as? Int == 3)
            #expect((retried["message"] as? String)?.contains("3 after 400") == true)
            #expect((retried["examples"] as? [String])?.allSatisfy { $0.lowercased() == apnsID.lowercased() } == true)
            #expect(findings["retry-without-backoff"] == nil)
        }
    }

    @Test(.enabled(if: nodeAvailable, "node is not installed"))
    func aClientThatIgnoresA410IsReported() async throws {
        try await E2E.withMock { mock in
            let device = E2E.randomToken()
            let registered = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "content-type: application/json",
                    "--data", #"{"state":"unregistered"}"#, "\(mock.endpoints.adminURL)/v1/devices/\(device)",
                ])
            #expect(registered.stdout == "201")
            let answers = try await Self.node(
                mock, (0..<4).map { _ in ["token": device, "apnsId": E2E.newAPNSID(), "pauseMs": 20] })
            #expect(answers.map { $0["status"] as? Int } == [410, 410, 410, 410])
            let provider = try await Self.provider(mock)
            let after = try #require(Self.findings(provider)["push-after-unregistered"], "\(provider)")
            #expect(after["severity"] as? String == "error")
            #expect(after["count"] as? Int == 3)
            #expect(after["examples"] as? [String] == answers[1...3].map { $0["apnsId"] as? String ?? "" })
            #expect((after["source"] as? String) == "Handling notification responses from APNs")
        }
    }

    @Test func aClientThatOpensAConnectionPerPushIsReported() async throws {
        try await E2E.withMock { mock in
            for _ in 0..<6 { #expect(try await Self.curlPush(mock, token: E2E.randomToken()) == "200") }
            // curl has closed its connections; wait until the server has seen the last close.
            for _ in 0..<100 {
                let (_, open) = try await E2E.adminGET(mock, "/v1/connections?state=open")
                if (open["connections"] as? [Any])?.isEmpty == true { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let provider = try await Self.provider(mock, query: "?window=10m")
            let churn = try #require(Self.findings(provider)["connection-churn"], "\(provider)")
            #expect(churn["severity"] as? String == "warning")
            #expect(churn["count"] as? Int == 6)
            #expect((churn["source"] as? String)?.contains("Troubleshooting push notifications") == true)
            let connections = try #require(provider["connections"] as? [String: Any])
            #expect(connections["opened"] as? Int == 6)
            #expect(connections["pushesPerConnection"] as? Int == 1)
            #expect(connections["peakOpenedPerMinute"] as? Int == 6)
        }
    }

    /// The same report in process, for Swift tests: `mock.providerReport()`.
    @Test func theReportInProcess() async throws {
        try await E2E.withMock { mock in
            #expect(try await Self.curlPush(mock, token: E2E.randomToken(), pushType: nil) == "200")
            let report = mock.providerReport()
            let provider = try #require(report.provider(.token(teamID: E2E.teamID, keyID: E2E.keyID)))
            #expect(provider.pushes == 1)
            #expect(provider.findings.map(\.code) == [.pushTypeMissing])
            #expect(mock.providerReport(window: ReportWindow(until: 1)).providers.isEmpty)
        }
    }

    @Test(.enabled(if: nodeAvailable, "node is not installed"))
    func aWellBehavedClientHasNoWarning() async throws {
        try await E2E.withMock { mock in
            let steps: [[String: Any]] = (0..<10).map { _ in
                ["token": E2E.randomToken(), "apnsId": E2E.newAPNSID(), "pauseMs": 10]
            }
            let answers = try await Self.node(mock, steps)
            #expect(answers.allSatisfy { $0["status"] as? Int == 200 }, "\(answers)")
            let provider = try await Self.provider(mock)
            let findings = provider["findings"] as? [[String: Any]] ?? []
            #expect(findings.isEmpty, "\(findings)")
            #expect(provider["pushes"] as? Int == 10)
            let connections = try #require(provider["connections"] as? [String: Any])
            #expect(connections["opened"] as? Int == 1)
            #expect(connections["refusedStreams"] as? Int == 0)
            #expect(connections["maxConcurrentStreams"] as? Int == 1000)
            #expect((provider["providerTokens"] as? [String: Any])?["distinct"] as? Int == 1)
            let (_, report) = try await E2E.adminGET(mock, "/v1/report")
            #expect(report["findings"] as? [String: Int] == ["error": 0, "warning": 0, "info": 0])
        }
    }

    @Test func badWindowsAreRefusedWithTheAdminError() async throws {
        try await E2E.withMock { mock in
            for query in ["?since=yesterday", "?window=ten", "?since=5&until=3", "?window=1m&since=1", "?limit=3"] {
                let (status, body) = try await E2E.adminGET(mock, "/v1/report" + query)
                #expect(status == 400, "\(query)")
                #expect((body["error"] as? [String: Any])?["code"] as? String == "badParameter", "\(query)")
            }
        }
    }

    // MARK: the command

    static func report(_ mock: RunningMock?, _ arguments: [String]) async throws -> E2E.Output {
        let admin = mock?.endpoints.adminURL ?? "http://127.0.0.1:1"
        return try await E2E.run(CLITests.executable, ["report", "--admin", admin] + arguments, timeout: 60)
    }

    @Test func theCommandFailsOnAWarningAndWritesJUnit() async throws {
        try await E2E.withMock { mock in
            #expect(try await Self.curlPush(mock, token: E2E.randomToken(), pushType: nil) == "200")
            let junit = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).xml")
            defer { try? FileManager.default.removeItem(at: junit) }
            let failing = try await Self.report(mock, ["--fail-on", "warning", "--junit", junit.path])
            #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
            #expect(
                failing.stdout.contains("\(Self.identity): 1 push on 1 connection (1 per connection"),
                "\(failing.stdout)")
            #expect(failing.stdout.contains("! warning push-type-missing: 1 push of 1 had no apns-push-type header"))
            let xml = try String(contentsOf: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuite name="\#(Self.identity)""#), "\(xml)")
            #expect(xml.contains(#"<testcase classname="\#(Self.identity)" name="push-type-missing">"#))
            #expect(xml.contains(#"<failure message="1 push of 1 had no apns-push-type header" type="warning">"#))
            #expect(xml.contains(#"<testcase classname="\#(Self.identity)" name="push-after-unregistered"/>"#))

            let passing = try await Self.report(mock, ["--fail-on", "error", "--window", "10m"])
            #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
            let json = try await Self.report(mock, ["--json"])
            #expect(json.status == 0)
            #expect(json.stdout.hasPrefix(#"{"window":{"since":null,"until":null}"#), "\(json.stdout)")
        }
    }

    @Test func theCommandExits2WhenItCannotWork() async throws {
        let unreachable = try await Self.report(nil, [])
        #expect(unreachable.status == 2)
        #expect(unreachable.stderr.contains("cannot reach the admin API"), "\(unreachable.stderr)")
        try await E2E.withMock { mock in
            let usage = try await Self.report(mock, ["--fail-on", "info"])
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("--fail-on must be warning or error"), "\(usage.stderr)")
            let window = try await Self.report(mock, ["--window", "soon"])
            #expect(window.status == 2)
        }
    }
}
