import APNSMock
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile HTTP/2 and TLS clients against a running `apns-mock serve` (issue 22): rapid reset
/// (CVE-2023-44487), a CONTINUATION flood, SETTINGS and PING floods, 10,000 streams in a burst,
/// a 2 MiB body, a zero flow-control window, random bytes after the preface, a TLS handshake that
/// never finishes. During each attack a well-behaved client (curl) is answered promptly; after
/// it the server is alive, its memory bounded and the records stored before are all there, and
/// the server said what it did with the error code RFC 9113 names: GOAWAY ENHANCE_YOUR_CALM for
/// the floods (rapid reset, CONTINUATION, unread SETTINGS/PING acknowledgements), RST_STREAM
/// REFUSED_STREAM for streams over the limit, PROTOCOL_ERROR or FRAME_SIZE_ERROR for garbage.
/// Attacks by `Clients/hostile_h2.py` (Python `h2` from the test venv, raw frames where the
/// attack needs them).
@Suite(.serialized) struct HostileHTTP2Tests {
    static func rss(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0  // kB
    }

    static func push(_ apns: String, device: String) async throws -> (status: String, seconds: Double) {
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "--max-time", "10", "--http2",
                "--cacert", E2E.caFile, "-H", E2E.authorizationHeader, "-H", "apns-topic: com.example.app",
                "-d", #"{"aps":{"alert":"hi"}}"#, "\(apns)/3/device/\(device)",
            ], timeout: 20)
        let parts = output.stdout.split(separator: " ")
        return (String(parts.first ?? ""), Double(parts.last ?? "") ?? 99)
    }

    @Test(
        .enabled(if: PythonClientTests.python != nil || E2E.clientsRequired, "set APNS_MOCK_PYTHON (make test does)"))
    func attacksLeaveTheServerServing() async throws {
        let python = try #require(PythonClientTests.python, "APNS_MOCK_PYTHON is not set")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = [
            "serve", "--port", "0", "--admin-port", "0", "--channels-port", "0", "--handshake-timeout", "2s",
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        let ready = await E2E.firstLine(of: out)
        let apns = String(try #require(ready.firstMatch(of: #/apns=(https://[^ ]+)/#)?.1, "ready line: \(ready)"))
        let admin = String(try #require(ready.firstMatch(of: #/admin=(http://[^ ]+)/#)?.1))
        let port = String(try #require(apns.split(separator: ":").last))
        let device = E2E.randomToken()
        for _ in 0..<5 { #expect(try await Self.push(apns, device: device).status == "200") }
        let startRSS = Self.rss(process.processIdentifier)
        // Under AddressSanitizer (make test-asan) freed memory waits in a 256 MB quarantine before
        // reuse, so RSS grows by about that much whatever the server keeps; the bound stays tight
        // for the ordinary build.
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
        let rssBound = startRSS + (asan ? 450_000 : 150_000)
        let client = E2E.repositoryRoot + "/Tests/EndToEndTests/Clients/hostile_h2.py"
        let attacks = [
            "rapid-reset", "continuation-flood", "settings-flood", "ping-flood", "stream-burst", "big-body",
            "zero-window", "garbage", "slow-handshake",
        ]
        var pushes = 5
        for attack in attacks {
            let running = Task {
                try await E2E.run(
                    python,
                    [
                        client, "127.0.0.1", port, E2E.caFile, attack,
                        String(E2E.authorizationHeader.dropFirst("authorization: ".count)),
                    ],
                    timeout: 90)
            }
            try await Task.sleep(for: .milliseconds(100))
            let during = try await Self.push(apns, device: device)
            #expect(during.status == "200", "\(attack): a well-behaved client during the attack: \(during)")
            #expect(during.seconds < 5, "\(attack): answered in \(during.seconds) s")
            let output = try await running.value
            #expect(output.status == 0, "\(attack): \(output.stderr)")
            let result =
                (try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]) ?? [:]
            let goAway = result["goaway"] as? [String: Any]
            let code = goAway?["code"] as? Int
            switch attack {
            case "rapid-reset", "continuation-flood", "settings-flood", "ping-flood":
                // RFC 9113 §7: ENHANCE_YOUR_CALM, "excessive load"; the debug data says which.
                #expect(code == 11, "\(attack): GOAWAY ENHANCE_YOUR_CALM: \(result)")
                #expect(result["closed"] as? Bool == true, "\(attack): \(result)")
                let debug = goAway?["debug"] as? String ?? ""
                let expected = [
                    "rapid-reset": "rapid reset", "continuation-flood": "CONTINUATION flood",
                    "settings-flood": "control frame flood", "ping-flood": "control frame flood",
                ]
                #expect(debug.contains(expected[attack]!), "\(attack): \(debug)")
            case "stream-burst":
                // Streams over the announced limit: a stream error REFUSED_STREAM each (RFC 9113
                // §5.1.2), the connection goes on.
                let resets = result["resets"] as? [String: Int] ?? [:]
                #expect((resets["7"] ?? 0) > 1000, "RST_STREAM REFUSED_STREAM: \(result)")
                #expect(goAway == nil, "\(result)")
            case "garbage":
                // A frame larger than SETTINGS_MAX_FRAME_SIZE (§4.2) or one that is no frame (§5.4.1).
                #expect(code == 1 || code == 6, "GOAWAY PROTOCOL_ERROR or FRAME_SIZE_ERROR: \(result)")
            case "slow-handshake":
                #expect(result["closed"] as? Bool == true, "the handshake timeout closed it: \(result)")
                #expect((result["seconds"] as? Double ?? 99) < 15, "\(result)")
            case "big-body":
                #expect(result["answers"] as? Int == 1, "413 before the body ends: \(result)")
            default:
                break
            }
            let after = try await Self.push(apns, device: device)
            #expect(after.status == "200", "\(attack): a client after the attack: \(after)")
            pushes += 2
            #expect(
                Self.rss(process.processIdentifier) < rssBound,
                "\(attack): RSS \(Self.rss(process.processIdentifier)) kB from \(startRSS) kB")
        }
        let page = try await E2E.run("curl", ["-sS", "\(admin)/v1/deliveries?token=\(device)&limit=1"])
        #expect(page.stdout.contains(#""total":\#(pushes)"#), "every well-behaved push is recorded: \(page.stdout)")
        let log = try await E2E.run("curl", ["-sS", "\(admin)/v1/connections"])
        #expect(log.stdout.contains("handshake timeout"), "the connection log says why the slow one closed")
    }
}
