import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The journal (`--journal`, `--restore`) and SIGTERM under load, as a user meets them: a real
/// `apns-mock serve`, real HTTP/2 clients (httpx from the test venv, h2load from Debian), a real
/// SIGKILL and SIGTERM (issue 22, "Nothing lost").
@Suite(.serialized) struct JournalTests {
    /// A started `apns-mock serve` and its ready line's addresses.
    struct Server {
        let process: Process
        let apns: String
        let admin: String
        let port: String
        let errors: URL

        init(_ arguments: [String]) async throws {
            process = Process()
            process.executableURL = URL(fileURLWithPath: CLITests.executable)
            process.arguments = ["serve", "--port", "0", "--admin-port", "0", "--channels-port", "0"] + arguments
            process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
            let out = Pipe()
            process.standardOutput = out
            errors = FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-\(UUID().uuidString).err")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            let ready = await E2E.firstLine(of: out)
            apns = String(try #require(ready.firstMatch(of: #/apns=(https://[^ ]+)/#)?.1, "ready line: \(ready)"))
            admin = String(try #require(ready.firstMatch(of: #/admin=(http://[^ ]+)/#)?.1))
            port = String(try #require(apns.split(separator: ":").last))
        }

        var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

        func stop() {
            E2E.end(process, signal: SIGKILL)
            try? FileManager.default.removeItem(at: errors)
        }
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("apns-mock-\(UUID().uuidString)-\(name)").path
    }

    /// The journal's lines, parsed (the last one may be cut off by the kill: skipped).
    static func journalRecords(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func adminJSON(_ url: String) async throws -> [String: Any] {
        let output = try await E2E.run("curl", ["-sS", "--max-time", "10", url], timeout: 20)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(url): \(output)")
    }

    @Test(
        "SIGKILL mid-load: every push answered 200 before the kill is in the journal, and a mock started with --restore answers for it",
        .enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func everyAnsweredPushSurvivesSIGKILL() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        let journal = Self.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let server = try await Server(["--journal", journal])
        defer { server.stop() }
        let output = try await E2E.run(
            python,
            [
                E2E.clientsDirectory + "/journal_kill.py", server.port, E2E.caFile,
                String(E2E.authorizationHeader.dropFirst("authorization: ".count)),
                // 4 s of load: on two busy cores (the whole end-to-end suite beside it, a debug
                // server) 2 s answered 15 pushes.
                String(server.process.processIdentifier), "4",
            ], timeout: 60)
        let killed = await E2E.ending(of: server.process)
        #expect(killed?.reason == .uncaughtSignal, "the server was killed: \(String(describing: killed))")
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "client: \(output.stdout) \(output.stderr)")
        #expect((result["errors"] as? [String])?.isEmpty == true, "client errors: \(result["errors"] ?? "")")
        let answered = try #require(result["answered"] as? [String])
        #expect(answered.count > 20, "the load ran: \(answered.count) pushes answered")
        #expect((result["failedAfterKill"] as? Int ?? 0) > 0, "pushes were in flight at the kill")

        let records = try Self.journalRecords(journal)
        let journaled = Set(records.compactMap { $0["apnsId"] as? String })
        let missing = answered.filter { !journaled.contains($0) }
        #expect(missing.isEmpty, "\(missing.count) of \(answered.count) answered pushes not in the journal")
        #expect(records.allSatisfy { ($0["response"] as? [String: Any])?["status"] as? Int == 200 })
        let sequences = records.compactMap { $0["sequence"] as? Int }
        #expect(Set(sequences).count == sequences.count, "each record once")

        // Started again from its journal, the mock answers for the pushes before the kill.
        let restarted = try await Server(["--journal", journal, "--restore", journal])
        defer { restarted.stop() }
        for apnsID in [answered.first!, answered[answered.count / 2], answered.last!] {
            let page = try await Self.adminJSON("\(restarted.admin)/v1/deliveries?apnsId=\(apnsID)")
            let found = try #require(page["deliveries"] as? [[String: Any]])
            #expect(found.count == 1, "\(apnsID) after --restore")
            #expect((found.first?["response"] as? [String: Any])?["status"] as? Int == 200)
        }
        #expect(restarted.standardError.contains("restored \(records.count) of \(records.count) records"))
        // New records are numbered after the restored ones.
        let push = try await HostileHTTP2Tests.push(restarted.apns, device: E2E.randomToken())
        #expect(push.status == "200")
        let newest = try await Self.adminJSON("\(restarted.admin)/v1/deliveries?limit=1&order=desc")
        let newestSequence = (newest["deliveries"] as? [[String: Any]])?.first?["sequence"] as? Int
        #expect(newestSequence == (sequences.max() ?? 0) + 1)
        let health = try await Self.adminJSON("\(restarted.admin)/health")
        let progress = try #require(health["journal"] as? [String: Any], "\(health)")
        #expect(progress["written"] as? Int == 1)
        #expect(progress["dropped"] as? Int == 0)
    }

    @Test(
        "A delayed answer is journaled once, answered, while a wait for it is open",
        .enabled(if: E2E.which("curl") != nil || E2E.clientsRequired, "curl is not installed"))
    func aDelayedAnswerIsJournaledOnceDecided() async throws {
        let journal = Self.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let server = try await Server(["--journal", journal])
        defer { server.stop() }
        let device = "de" + String(E2E.randomToken().dropFirst(2))
        let rule = try await E2E.run(
            "curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-X", "POST", "-H", "content-type: application/json",
                "--data",
                #"{"id":"slow","match":{"tokenPrefix":"de"},"action":{"delay":{"min":"400ms","max":"400ms"}}}"#,
                server.admin + "/v1/faults",
            ])
        #expect(rule.stdout == "201")
        let wait = Task {
            try await E2E.run(
                "curl", ["-sS", "\(server.admin)/v1/deliveries/wait?count=1&token=\(device)&status=200&timeout=10"],
                timeout: 20)
        }
        try await Task.sleep(for: .milliseconds(300))
        let push = try await HostileHTTP2Tests.push(server.apns, device: device)
        #expect(push.status == "200")
        #expect(push.seconds >= 0.35, "the delay held the answer: \(push.seconds) s")
        let waited = try await wait.value
        #expect(waited.stdout.contains(#""status":200"#), "the wait saw the answer: \(waited.stdout)")
        let lines = try Self.journalRecords(journal).filter { $0["token"] as? String == device }
        #expect(lines.count == 1, "journaled once, when decided, not while pending: \(lines.count)")
        #expect(lines.first?["outcome"] as? String == "answered")
        #expect(lines.first?["faultId"] as? String == "slow")
        #expect((lines.first?["response"] as? [String: Any])?["status"] as? Int == 200)
    }

    @Test(
        "SIGTERM while h2load pushes: the streams in flight are answered and journaled, then exit 0",
        .enabled(if: E2E.which("h2load") != nil || E2E.clientsRequired, "h2load is not installed"))
    func sigtermDrainsUnderLoad() async throws {
        let journal = Self.temporaryPath("journal.jsonl")
        let payload = Self.temporaryPath("payload.json")
        defer {
            try? FileManager.default.removeItem(atPath: journal)
            try? FileManager.default.removeItem(atPath: payload)
        }
        try Data(#"{"aps":{"alert":"load"}}"#.utf8).write(to: URL(fileURLWithPath: payload))
        let server = try await Server(["--journal", journal])
        defer { server.stop() }
        let load = Task {
            try await E2E.run(
                "h2load",
                [
                    "-n", "2000000", "-c", "4", "-m", "16", "-d", payload, "-H", E2E.authorizationHeader,
                    "-H", "apns-topic: com.example.app", "-H", "apns-push-type: alert",
                    "\(server.apns)/3/device/\(E2E.randomToken())",
                ], timeout: 60)
        }
        try await Task.sleep(for: .seconds(2))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(
            await E2E.ending(of: server.process) == E2E.Ending(reason: .exit, status: 0),
            "the server exits after SIGTERM")
        let output = try await load.value
        let report = output.stdout
        let counts = try #require(
            report.firstMatch(of: #/requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed/#),
            "h2load: \(report) \(output.stderr)")
        let succeeded = Int(counts.4)!
        #expect(succeeded > 100, "the load ran: \(report)")
        let statuses = try #require(report.firstMatch(of: #/status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/#))
        #expect(Int(statuses.1) == succeeded && Int(statuses.3) == 0 && Int(statuses.4) == 0, "\(report)")
        // Every request h2load saw answered is journaled; the drain wrote the queue out.
        let records = try Self.journalRecords(journal)
        #expect(records.count == succeeded, "journal \(records.count), h2load answered \(succeeded)")
        #expect(server.standardError.contains("\(succeeded) journaled"), "\(server.standardError)")
        #expect(server.standardError.contains("shut down:"))
    }

    /// A broadcast to a channel of 3,000 devices is answered at once and its deliveries are
    /// stored after the answer, in the background; a SIGTERM right after the 200 still waits for
    /// all of them, so the journal has every one (nothing the 200 promised is lost).
    @Test func aLargeBroadcastsDeliveriesAreAllJournaledBeforeTheEnd() async throws {
        let journal = Self.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let server = try await Server(["--journal", journal])
        defer { server.stop() }
        let created = try await E2E.run(
            "curl",
            [
                "-sS", "-X", "POST", "-H", "content-type: application/json", "--data",
                #"{"bundleId":"\#(BroadcastEndToEndTests.bundleID)","environment":"sandbox","messageStoragePolicy":0}"#,
                server.admin + "/v1/channels",
            ])
        let channel = try #require(
            (try? JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])?["channelId"]
                as? String, "\(created)")
        let path = channel.replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "+", with: "%2B")
        let devices = (0..<3000).map { String(format: "%08x", $0) + String(repeating: "ab", count: 28) }
        let body = #"{"tokens":["# + devices.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        let bodyFile = Self.temporaryPath("tokens.json")
        defer { try? FileManager.default.removeItem(atPath: bodyFile) }
        try Data(body.utf8).write(to: URL(fileURLWithPath: bodyFile))
        let subscribed = try await E2E.run(
            "curl",
            [
                "-sS", "-X", "POST", "-H", "content-type: application/json", "--data-binary", "@" + bodyFile,
                server.admin + "/v1/channels/\(path)/devices",
            ])
        #expect(subscribed.stdout.contains(#""subscribers":3000"#), "\(subscribed)")
        let answer = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                E2E.authorizationHeader, "-H", "apns-channel-id: \(channel)", "-H", "apns-push-type: LiveActivity",
                "-H", "apns-priority: 10", "-H", "apns-expiration: 0", "--data", BroadcastEndToEndTests.update,
                server.apns + "/4/broadcasts/apps/\(BroadcastEndToEndTests.bundleID)",
            ])
        #expect(answer.stdout == "200", "\(answer)")
        kill(server.process.processIdentifier, SIGTERM)
        #expect(
            await E2E.ending(of: server.process) == E2E.Ending(reason: .exit, status: 0),
            "the server exits after SIGTERM")
        let records = try Self.journalRecords(journal)
        let delivered = records.filter { $0["kind"] as? String == "push" && $0["viaChannel"] as? Bool == true }
        #expect(records.filter { $0["kind"] as? String == "broadcast" }.count == 1)
        #expect(delivered.count == 3000, "journal: \(records.count) records, \(delivered.count) deliveries")
        let missing = Set(devices).subtracting(delivered.compactMap { $0["token"] as? String })
        #expect(missing.isEmpty, "\(missing.count) devices have no delivery in the journal")
    }
}
