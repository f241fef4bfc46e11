import APNSMock
import APNSMockCore
import APNSMockRegistry
import Foundation
import Testing

/// The example expectation files, each driven through by curl and checked by the real
/// `apns-mock verify`; and verify's failure report, JUnit output and exit codes.
@Suite(.serialized) struct VerifyCommandTests {
    static func file(_ name: String) -> String { E2E.repositoryRoot + "/expectations/" + name }

    /// Runs `body` with a mock that has `files`' setup applied, as `serve --expectations` does.
    static func withMock<Result>(_ files: [String], _ body: (RunningMock) async throws -> Result) async throws
        -> Result
    {
        let loaded = try ExpectationFile.load(files, now: WallClock.milliseconds())
        return try await E2E.withMock(
            E2E.mockConfiguration { configuration in
                configuration.keys = []
                for file in loaded {
                    configuration.addSetup(
                        keys: file.setup.keys, devices: file.setup.devices, channels: file.setup.channels,
                        broadcastDisabled: file.setup.broadcastDisabled)
                }
            }, body)
    }

    static func token(in file: String, key: String = "token") throws -> String {
        let text = try String(contentsOfFile: Self.file(file), encoding: .utf8)
        let match = try #require(text.firstMatch(of: #/token: ([0-9a-f]{16,})/#))
        return String(match.1)
    }

    static func push(
        _ mock: RunningMock, token: String, topic: String = "com.example.app", pushType: String = "alert",
        priority: String = "10", payload: String
    ) async throws -> String {
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                E2E.authorizationHeader, "-H", "apns-topic: \(topic)", "-H", "apns-push-type: \(pushType)", "-H",
                "apns-priority: \(priority)", "--data-binary", payload, "\(mock.endpoints.apnsURL)/3/device/\(token)",
            ])
        return output.stdout
    }

    static func verify(_ mock: RunningMock?, _ arguments: [String]) async throws -> E2E.Output {
        let admin = mock?.endpoints.adminURL ?? "http://127.0.0.1:1"
        return try await E2E.run(CLITests.executable, ["verify", "--admin", admin] + arguments, timeout: 60)
    }

    @Test func welcomeAlertHolds() async throws {
        try await Self.withMock([Self.file("welcome-alert.yaml")]) { mock in
            let token = try Self.token(in: "welcome-alert.yaml")
            let status = try await Self.push(
                mock, token: token, payload: #"{"aps":{"alert":{"title":"Welcome","body":"Glad you are here"}}}"#)
            #expect(status == "200")
            let output = try await Self.verify(mock, [Self.file("welcome-alert.yaml")])
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains("✔ welcome push reaches the new user"))
            #expect(output.stdout.contains("all 3 expectations hold"))
        }
    }

    @Test func silentBackgroundRefreshHolds() async throws {
        try await Self.withMock([Self.file("silent-background-refresh.yaml")]) { mock in
            let token = try Self.token(in: "silent-background-refresh.yaml")
            let status = try await Self.push(
                mock, token: token, pushType: "background", priority: "5", payload: #"{"aps":{"content-available":1}}"#)
            #expect(status == "200")
            let output = try await Self.verify(mock, [Self.file("silent-background-refresh.yaml")])
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        }
    }

    @Test func unregisteredCleanupHoldsOnlyWhenTheProviderStops() async throws {
        try await Self.withMock([Self.file("unregistered-cleanup.yaml")]) { mock in
            let token = try Self.token(in: "unregistered-cleanup.yaml")
            #expect(try await Self.push(mock, token: token, payload: #"{"aps":{"alert":"hi"}}"#) == "410")
            let good = try await Self.verify(mock, [Self.file("unregistered-cleanup.yaml")])
            #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
            // A provider that keeps pushing after the 410 breaks the second step.
            #expect(try await Self.push(mock, token: token, payload: #"{"aps":{"alert":"again"}}"#) == "410")
            let bad = try await Self.verify(mock, [Self.file("unregistered-cleanup.yaml")])
            #expect(bad.status == 1, "\(bad.stdout)\(bad.stderr)")
            #expect(bad.stdout.contains("✘ the provider stops pushing to the token"), "\(bad.stdout)")
            #expect(bad.stdout.contains("expected none"), "\(bad.stdout)")
        }
    }

    @Test func liveActivityUpdateHolds() async throws {
        try await Self.withMock([Self.file("live-activity-update.yaml")]) { mock in
            let token = try Self.token(in: "live-activity-update.yaml")
            #expect(token.count == 160)
            let status = try await Self.push(
                mock, token: token, topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity",
                payload: #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{"home":2,"away":1}}}"#)
            #expect(status == "200")
            let output = try await Self.verify(mock, [Self.file("live-activity-update.yaml")])
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        }
    }

    /// The broadcast flow of `live-activity-broadcast.yaml`, as an app and a provider run it over
    /// curl: a push-to-start naming the file's channel, then one broadcast; `verify` holds.
    @Test func liveActivityBroadcastHolds() async throws {
        try await Self.withMock([Self.file("live-activity-broadcast.yaml")]) { mock in
            let token = try Self.token(in: "live-activity-broadcast.yaml")
            let channel = "bWF0Y2gtMjAyNi0xMS0yNQ=="
            let start = try await Self.push(
                mock, token: token, topic: "com.example.app.push-type.liveactivity", pushType: "liveactivity",
                payload: """
                    {"aps":{"timestamp":1700000000,"event":"start","content-state":{"home":0,"away":0},\
                    "attributes-type":"MatchAttributes","attributes":{"match":"A v B"},"alert":{"title":"Kick-off"},\
                    "input-push-channel":"\(channel)"}}
                    """)
            #expect(start == "200")
            let broadcast = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-o", "/dev/null", "-w", "%{http_code}", "-H",
                    E2E.authorizationHeader, "-H", "apns-channel-id: \(channel)", "-H", "apns-push-type: LiveActivity",
                    "-H", "apns-priority: 10", "-H", "apns-expiration: 0", "--data-binary",
                    #"{"aps":{"timestamp":1700000060,"event":"update","content-state":{"home":1,"away":0}}}"#,
                    "\(mock.endpoints.apnsURL)/4/broadcasts/apps/com.example.app",
                ])
            #expect(broadcast.stdout == "200", "\(broadcast.stderr)")
            let output = try await Self.verify(mock, [Self.file("live-activity-broadcast.yaml")])
            #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains("all 4 expectations hold"), "\(output.stdout)")
        }
    }

    @Test func aFailingExpectationReportsNearMissesAndWritesJUnit() async throws {
        try await Self.withMock([Self.file("welcome-alert.yaml")]) { mock in
            let token = try Self.token(in: "welcome-alert.yaml")
            _ = try await Self.push(mock, token: token, payload: #"{"aps":{"alert":{"title":"Welcom"}}}"#)
            _ = try await Self.push(mock, token: E2E.randomToken(), payload: #"{"aps":{"alert":{"title":"Welcome"}}}"#)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let junit = directory.appendingPathComponent("report.xml").path
            let started = Date()
            let output = try await Self.verify(mock, [Self.file("welcome-alert.yaml"), "--junit", junit])
            #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
            // `within: 5s`: verify waited for the push that never came.
            #expect(Date().timeIntervalSince(started) >= 4.5)
            let report = output.stdout
            #expect(report.contains("✘ welcome push reaches the new user"), "\(report)")
            #expect(report.contains("expected exactly 1"), "\(report)")
            #expect(report.contains("matched 0"), "\(report)")
            #expect(report.contains("closest records:"), "\(report)")
            #expect(report.contains(#"#1 (3 of 4 fields match)"#), "\(report)")
            #expect(report.contains(#"payload.aps.alert.title: expected "Welcome", got "Welcom""#), "\(report)")
            #expect(report.contains(#"token: expected"#), "the other device's push differs by token: \(report)")
            #expect(report.contains("✔ no push is rejected"))
            // The preview shows "Welcom": the preview expectation fails too, on its title.
            #expect(report.contains("✘ the welcome alert shows its title and passes lint"), "\(report)")
            #expect(report.contains(#"preview.title: expected "Welcome", got "Welcom""#), "\(report)")
            #expect(report.contains("2 of 3 expectations failed"), "\(report)")
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuites name="apns-mock verify" tests="3" failures="2""#), "\(xml)")
            #expect(xml.contains(#"<testcase classname=""#))
            #expect(xml.contains(#"name="welcome push reaches the new user">"#))
            #expect(xml.contains(#"<failure message="expected exactly 1, matched 0" type="ExpectationFailed">"#))
            #expect(xml.contains(#"name="no push is rejected"/>"#))
            #expect(xml.contains("&quot;Welcome&quot;"))
        }
    }

    /// A failure links to the dashboard of the server verified: the expectation's match as the
    /// page's filter (opening the first record that matched, for a count that is too high), each
    /// near miss as an opened record. The filter is the API's: it selects the records that
    /// matched, and the records are the ones the report names.
    @Test func aFailureLinksToTheDashboardAtTheRecordsThatShowIt() async throws {
        try await Self.withMock([Self.file("welcome-alert.yaml")]) { mock in
            let token = try Self.token(in: "welcome-alert.yaml")
            _ = try await Self.push(mock, token: token, payload: #"{"aps":{"alert":{"title":"Welcom"}}}"#)
            #expect(try await Self.push(mock, token: token, priority: "7", payload: #"{"aps":{"alert":"x"}}"#) == "400")
            let file = NSTemporaryDirectory() + "links-\(UUID().uuidString).yaml"
            try """
            expect:
              - name: the welcome alert
                match: {token: "\(token)", priority: 10, payload: {aps: {alert: {title: Welcome}}}}
              - name: nothing rejected
                match: {token: "\(token)", status: 400}
                count: {none: true}
            """.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let junit = file + ".xml"
            defer { try? FileManager.default.removeItem(atPath: junit) }
            let output = try await Self.verify(mock, [file, "--junit", junit])
            #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
            let admin = mock.endpoints.adminURL
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains("dashboard: \(admin)/#record=2"), "the JUnit failure's text has the links: \(xml)")
            let links = output.stdout.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "dashboard: ") else { return nil }
                return String(line[range.upperBound...])
            }
            // The first: its filter, then its near misses (the "Welcom" push #1, the rejected #2); the
            // second: its filter with the rejected push open.
            #expect(links.count == 4, "\(output.stdout)")
            #expect(links.allSatisfy { $0.hasPrefix(admin + "/#") }, "\(links)")
            #expect(Array(links.dropFirst().prefix(2)) == [admin + "/#record=1", admin + "/#record=2"], "\(links)")
            #expect(output.stdout.contains("#1 (2 of 3 fields match)"), "\(output.stdout)")
            let second = try #require(links.last)
            #expect(second.hasSuffix("&record=2"), "\(second)")
            // A filter is URL-encoded once for the fragment, and is a query string of the API.
            for (link, expected) in [(links[0], 0), (second, 1)] {
                let fragment = try #require(link.split(separator: "#", maxSplits: 1).last)
                let encoded = try #require(
                    fragment.split(separator: "&").first(where: { $0.hasPrefix("filter=") })?.dropFirst(7))
                let filter = try #require(String(encoded).removingPercentEncoding)
                #expect(filter.contains("token=\(token)"), "\(filter)")
                let (status, page) = try await E2E.adminGET(mock, "/v1/deliveries?" + filter)
                #expect(status == 200, "\(filter): \(page)")
                #expect(page["total"] as? Int == expected, "\(filter): \(page)")
            }
            #expect(links[0].contains("%26payload.aps.alert.title%3DWelcome"), "\(links[0])")
        }
    }

    @Test func unusableFilesAndServersExitTwoSayingWhich() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bad = directory.appendingPathComponent("bad.yaml").path
        try """
        expect:
          - name: fine
            match: {tokenPrefix: abcd}
          - name: broken
            match: {tokenPrefix: abcd}
            count: {exactly: many}
        """.write(toFile: bad, atomically: true, encoding: .utf8)
        let badFile = try await Self.verify(nil, [bad])
        #expect(badFile.status == 2)
        #expect(
            badFile.stderr.contains("bad.yaml:6: expect[1].count.exactly must be a whole number"), "\(badFile.stderr)")
        let unknown = directory.appendingPathComponent("unknown.yaml").path
        try "expect:\n  - name: x\n    match: {tokn: abcd}\n".write(toFile: unknown, atomically: true, encoding: .utf8)
        let unknownField = try await Self.verify(nil, [unknown])
        #expect(unknownField.status == 2)
        #expect(
            unknownField.stderr.contains("unknown.yaml:3: unknown matcher field 'expect[0].match.tokn'"),
            "\(unknownField.stderr)")
        let unreachable = try await Self.verify(nil, [Self.file("welcome-alert.yaml")])
        #expect(unreachable.status == 2)
        #expect(
            unreachable.stderr.contains("cannot reach the admin API at http://127.0.0.1:1"), "\(unreachable.stderr)")
        let missing = try await Self.verify(nil, [directory.appendingPathComponent("nope.yaml").path])
        #expect(missing.status == 2 && missing.stderr.contains("no such file or directory"))
        let none = try await E2E.run(CLITests.executable, ["verify"])
        #expect(none.status == 2)
    }

    /// `serve --expectations` applies the setup (the device registered as unregistered) and
    /// `POST /v1/reset` applies it again.
    @Test func serveAppliesTheSetupOfExpectationFiles() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = [
            "serve", "--port", "0", "--admin-port", "0", "--expectations", Self.file("unregistered-cleanup.yaml"),
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        let line = await E2E.firstLine(of: out)
        let ready = line
        let admin = try #require(ready.firstMatch(of: #/admin=(\S+)/#)).1
        let token = try Self.token(in: "unregistered-cleanup.yaml")
        let device = try await E2E.run("curl", ["-sS", "\(admin)/v1/devices/\(token)"])
        #expect(device.stdout.contains(#""state":"unregistered""#), "\(device.stdout)")
        _ = try await E2E.run("curl", ["-sS", "-X", "DELETE", "\(admin)/v1/devices/\(token)"])
        _ = try await E2E.run("curl", ["-sS", "-X", "POST", "\(admin)/v1/reset"])
        let restored = try await E2E.run("curl", ["-sS", "\(admin)/v1/devices/\(token)"])
        #expect(restored.stdout.contains(#""state":"unregistered""#), "\(restored.stdout)")
    }
}
