import APNSMock
import APNSMockCore
import Foundation
import Testing

/// Payload lint and previews end to end: real clients push the payloads of Apple's payload
/// documents (`../shared/seeds`), the admin API shows each record's findings and preview.
@Suite(.serialized) struct PayloadLintEndToEndTests {
    static let localizations = E2E.repositoryRoot + "/Tests/Fixtures/Localizations"

    /// One push for `node_payloads.mjs`.
    struct Push {
        var payload: String
        var headers: [String: String] = ["apns-push-type": "alert"]
        var token = E2E.randomToken()
    }

    /// Pushes each of `pushes` with Node's http2 on one session; the records, in order.
    static func pushWithNode(_ mock: RunningMock, _ pushes: [Push]) async throws -> [[String: Any]] {
        let spec = pushes.map { ["token": $0.token, "payload": $0.payload, "headers": $0.headers] as [String: Any] }
        let output = try await E2E.run(
            "node",
            [
                E2E.clientsDirectory + "/node_payloads.mjs", String(mock.endpoints.apnsPort), E2E.caFile,
                try E2E.providerToken(),
                String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self),
            ], timeout: 60)
        #expect(output.status == 0, "\(output.stderr)")
        let answers = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]], "\(output)")
        var records: [[String: Any]] = []
        for answer in answers {
            let id = try #require(answer["apnsId"] as? String, "\(answer)")
            let (status, record) = try await E2E.adminGET(mock, "/v1/deliveries/\(id)")
            #expect(status == 200)
            records.append(record)
        }
        return records
    }

    static func codes(_ record: [String: Any]) -> [String] {
        (record["lint"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
    }

    static func preview(_ record: [String: Any]) -> [String: Any]? { record["preview"] as? [String: Any] }

    /// One row of `Tests/Fixtures/SeedPayloads.json` (shared with the Core suite's `SeedPayloadTests`).
    struct SeedFixture {
        var source: String
        var payload: String
        var headers: [String: String]
        var localized: Bool
        var lint: [String]
        var preview: [String: Any]?
    }

    static func seedFixtures() throws -> [SeedFixture] {
        let file = E2E.repositoryRoot + "/Tests/Fixtures/SeedPayloads.json"
        let top = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        let rows = try #require(top?["fixtures"] as? [[String: Any]], "\(file) has no fixtures array")
        return try rows.map { row in
            SeedFixture(
                source: try #require(row["source"] as? String), payload: try #require(row["payload"] as? String),
                headers: row["headers"] as? [String: String] ?? [:], localized: row["localized"] as? Bool ?? false,
                lint: try #require(row["lint"] as? [String]), preview: row["preview"] as? [String: Any])
        }
    }

    /// `object` as compact JSON text with sorted keys, to compare regardless of key order.
    static func canonical(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Every example payload of the seed documents, pushed through Node's http2 client as a
    /// provider would send it: the record carries the fixture's lint codes and preview, exactly.
    /// Localized rows go to a mock started with `--localizations Tests/Fixtures/Localizations`,
    /// the others to one without strings.
    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func everySeedExampleThroughNode() async throws {
        let fixtures = try Self.seedFixtures()
        #expect(fixtures.count >= 34)
        try await E2E.withMock { plain in
            try await E2E.withMock(E2E.mockConfiguration { $0.localizationsPath = Self.localizations }) { localized in
                for (mock, rows) in [
                    (plain, fixtures.filter { !$0.localized }), (localized, fixtures.filter(\.localized)),
                ] {
                    #expect(!rows.isEmpty)
                    let records = try await Self.pushWithNode(
                        mock, rows.map { Push(payload: $0.payload, headers: $0.headers) })
                    try #require(records.count == rows.count)
                    for (fixture, record) in zip(rows, records) {
                        let bytes = fixture.payload.utf8.count
                        #expect(Self.codes(record) == fixture.lint, "\(fixture.source): \(record["lint"] ?? "none")")
                        if let expected = fixture.preview {
                            #expect(
                                (record["response"] as? [String: Any])?["status"] as? Int == 200, "\(fixture.source)")
                            let preview = try Self.canonical(Self.preview(record) ?? [:])
                            #expect(
                                preview == (try Self.canonical(expected)),
                                "\(fixture.source): \(preview) is not \(expected)")
                        } else {
                            #expect(record["preview"] is NSNull, "\(fixture.source): \(record["preview"] ?? "absent")")
                        }
                        #expect(record["payloadLimit"] as? Int == 4096)
                        #expect(record["payloadBytesRemaining"] as? Int == 4096 - bytes, "\(fixture.source)")
                    }
                }
                // The filter finds the flagged ones among all the records.
                let (_, errors) = try await E2E.adminGET(plain, "/v1/deliveries?lint=error")
                #expect(
                    errors["total"] as? Int
                        == fixtures.filter { row in
                            !row.localized && row.lint.contains { LintCode(rawValue: $0).severity == .error }
                        }.count)
            }
        }
    }

    /// Payloads iOS would show differently from what their author meant are flagged, each by
    /// its code, and `GET /v1/deliveries?lint=…` finds them.
    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func mistakesAreFlagged() async throws {
        try await E2E.withMock { mock in
            let pushes = [
                Push(payload: #"{"aps":{"alert":"You have mail","badge":"3"}}"#),
                Push(payload: #"{"aps":{"alert":"Smile \\U0001F600"}}"#),
                Push(payload: #"{"aps":{"alert":"hi","colour":"red"}}"#),
                Push(payload: #"{"aps":{"content-available":1}}"#, headers: ["apns-push-type": "background"]),
                Push(payload: #"{"aps":{"alert":"hi"}}"#, headers: [:]),
                Push(payload: #"{"aps":{"alert":"Payment received","interruption-level":"timeSensitive"}}"#),
            ]
            let records = try await Self.pushWithNode(mock, pushes)
            #expect(Self.codes(records[0]) == ["badge-not-integer"])
            #expect(Self.codes(records[1]) == ["alert-unsupported-escape"])
            #expect(Self.codes(records[2]) == ["aps-unknown-key"])
            #expect(Self.codes(records[3]) == ["background-priority-not-5"])
            #expect(Self.codes(records[4]) == ["push-type-header-missing"])
            #expect(Self.codes(records[5]) == ["interruption-level-invalid"])
            #expect(Self.preview(records[1])?["body"] as? String == #"Smile \U0001F600"#)
            let finding = try #require((records[0]["lint"] as? [[String: Any]])?.first)
            #expect(finding["severity"] as? String == "error" && finding["path"] as? String == "aps.badge")
            #expect((finding["message"] as? String)?.isEmpty == false)
            let (_, errors) = try await E2E.adminGET(mock, "/v1/deliveries?lint=error")
            #expect(errors["total"] as? Int == 4)
            let (_, warnings) = try await E2E.adminGET(mock, "/v1/deliveries?lint=warning")
            #expect(warnings["total"] as? Int == 2)
            let (_, byCode) = try await E2E.adminGET(mock, "/v1/deliveries?lint=badge-not-integer")
            #expect(byCode["total"] as? Int == 1)
            let (status, bad) = try await E2E.adminGET(mock, "/v1/deliveries?lint=wrong")
            #expect(status == 400)
            #expect(((bad["error"] as? [String: Any])?["message"] as? String)?.contains("lint") == true)
        }
    }

    /// `--localizations` with `.strings` (UTF-8 and UTF-16) and `.xcstrings`; the device's
    /// locale from the registry, else `--locale`; a missing key shows as itself with a warning;
    /// a wrong argument count is an error.
    @Test(.enabled(if: FaultInjectionTests.nodeAvailable, "node is not installed"))
    func localizedPreviews() async throws {
        let french = E2E.randomToken()
        let german = E2E.randomToken()
        try await E2E.withMock(
            E2E.mockConfiguration {
                $0.localizationsPath = Self.localizations
                $0.devices = [DeviceRegistration(token: german, locale: "de-AT")]
            }
        ) { mock in
            _ = try await E2E.run(
                "curl",
                [
                    "-sS", "-X", "PUT", "--data", #"{"locale":"fr"}"#, "-H", "content-type: application/json",
                    mock.endpoints.adminURL + "/v1/devices/\(french)",
                ])
            let invitation =
                #"{"aps":{"alert":{"title-loc-key":"GAME_TITLE","loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna","Frank"]}}}"#
            let records = try await Self.pushWithNode(
                mock,
                [
                    Push(payload: invitation), Push(payload: invitation, token: french),
                    Push(payload: invitation, token: german),
                    Push(payload: #"{"aps":{"alert":{"loc-key":"SALE","loc-args":["50"]}}}"#),
                    Push(payload: #"{"aps":{"alert":{"loc-key":"NO_SUCH_KEY"}}}"#),
                    Push(payload: #"{"aps":{"alert":{"loc-key":"GAME_PLAY_REQUEST_FORMAT","loc-args":["Jenna"]}}}"#),
                ])
            let bodies = records.map { Self.preview($0)?["body"] as? String }
            #expect(
                bodies == [
                    "Jenna and Frank have invited you to play Monopoly",
                    "Frank et Jenna vous invitent à jouer au Monopoly",
                    "Jenna und Frank laden dich zu Monopoly ein", "50% off today", "NO_SUCH_KEY",
                    "Jenna and  have invited you to play Monopoly",
                ])
            #expect(
                records[0..<3].map { Self.preview($0)?["title"] as? String } == [
                    "Game Request", "Invitation", "Spielanfrage",
                ])
            #expect(Self.codes(records[4]) == ["loc-key-not-found"])
            #expect(Self.codes(records[5]) == ["loc-args-count-mismatch"])
            // The expectation matcher reads the preview too.
            let (_, found) = try await E2E.adminGET(
                mock,
                "/v1/deliveries?preview.body=Frank%20et%20Jenna%20vous%20invitent%20%C3%A0%20jouer%20au%20Monopoly")
            #expect(found["total"] as? Int == 1)
        }
    }

    /// `--strict-payload` answers an error-level finding with 400 BadRequestPayload (the mock's
    /// own choice); without it the same push is delivered.
    @Test func strictPayloadRejectsLintErrors() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.strictPayload = true }) { strict in
            try await E2E.withMock { lenient in
                let body = #"{"aps":{"alert":"hi","badge":"3"}}"#
                let rejected = try await FaultInjectionTests.curlPush(strict, token: E2E.randomToken(), payload: body)
                #expect(rejected.status == 400 && rejected.body == #"{"reason":"BadRequestPayload"}"#, "\(rejected)")
                let warned = try await FaultInjectionTests.curlPush(
                    strict, token: E2E.randomToken(), payload: #"{"aps":{"alert":"hi","colour":"red"}}"#)
                #expect(warned.status == 200)
                let delivered = try await FaultInjectionTests.curlPush(lenient, token: E2E.randomToken(), payload: body)
                #expect(delivered.status == 200)
            }
        }
    }

    /// `--payload-limit 2048`: 413 above it, a warning within 5 % of it, bytes remaining on
    /// every record.
    @Test func payloadLimitEmulatesTheOlderLimits() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.payloadLimit = 2048 }) { mock in
            func payload(_ size: Int) -> String {
                let frame = #"{"aps":{"alert":""}}"#
                return #"{"aps":{"alert":""# + String(repeating: "x", count: size - frame.utf8.count) + #""}}"#
            }
            let over = try await FaultInjectionTests.curlPush(mock, token: E2E.randomToken(), payload: payload(2049))
            #expect(over.status == 413 && over.body == #"{"reason":"PayloadTooLarge"}"#)
            let token = E2E.randomToken()
            let near = try await FaultInjectionTests.curlPush(mock, token: token, payload: payload(2000))
            #expect(near.status == 200)
            let record = try #require(try await E2E.deliveries(mock, token: token).first)
            #expect(record["payloadLimit"] as? Int == 2048 && record["payloadBytesRemaining"] as? Int == 48)
            #expect(Self.codes(record) == ["payload-near-limit"])
        }
    }

    /// A fault rule can match on lint: a push with a string badge gets the rule's answer.
    @Test func faultRulesMatchOnLint() async throws {
        try await E2E.withMock { mock in
            let (created, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"match":{"lint":"badge-not-integer"},"action":{"respond":{"status":400,"reason":"BadPayloadForThisTest"}}}"#
            )
            #expect(created == 201)
            let bad = try await FaultInjectionTests.curlPush(
                mock, token: E2E.randomToken(), payload: #"{"aps":{"alert":"hi","badge":"3"}}"#)
            #expect(bad.status == 400 && bad.body.contains("BadPayloadForThisTest"))
            let good = try await FaultInjectionTests.curlPush(mock, token: E2E.randomToken())
            #expect(good.status == 200)
        }
    }

    /// `GET …/preview`, `GET …/simulator.apns` and `apns-mock export`: the Simulator file has
    /// the payload with `Simulator Target Bundle` = the topic (without a push-type suffix:
    /// `SimulatorPushFileTests`).
    @Test func previewRouteSimulatorFileAndExport() async throws {
        try await E2E.withMock { mock in
            let id = E2E.newAPNSID()
            let pushed = try await FaultInjectionTests.curlPush(
                mock, token: E2E.randomToken(),
                payload: #"{"aps":{"alert":{"title":"Call","body":"Ann is calling"}},"callId":7}"#,
                extra: ["-H", "apns-id: \(id)"])
            #expect(pushed.status == 200)
            let (status, preview) = try await E2E.adminGET(mock, "/v1/deliveries/\(id)/preview")
            #expect(
                status == 200 && preview["body"] as? String == "Ann is calling" && preview["title"] as? String == "Call"
            )
            let file = try await E2E.run(
                "curl", ["-sS", mock.endpoints.adminURL + "/v1/deliveries/\(id)/simulator.apns"])
            #expect(
                file.stdout
                    == #"{"Simulator Target Bundle":"com.example.app","aps":{"alert":{"title":"Call","body":"Ann is calling"}},"callId":7}"#
            )
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("call.apns").path
            let export = try await E2E.run(
                CLITests.executable, ["export", id, "--admin", mock.endpoints.adminURL, "--output", path])
            #expect(export.status == 0, "\(export.stderr)")
            let written = try String(contentsOfFile: path, encoding: .utf8)
            #expect(written == file.stdout + "\n")
            let missing = try await E2E.run(
                CLITests.executable, ["export", E2E.newAPNSID(), "--admin", mock.endpoints.adminURL, "--output", path])
            #expect(missing.status == 1 && missing.stderr.contains("no delivery with apnsId"), "\(missing.stderr)")
            // A rejected push has no preview, and says why.
            let rejectedID = E2E.newAPNSID()
            _ = try await FaultInjectionTests.curlPush(mock, token: "zz", extra: ["-H", "apns-id: \(rejectedID)"])
            let (notFound, error) = try await E2E.adminGET(mock, "/v1/deliveries/\(rejectedID)/preview")
            #expect(notFound == 404)
            #expect(
                ((error["error"] as? [String: Any])?["message"] as? String)?.contains("rejected (400 BadDeviceToken)")
                    == true)
        }
    }

    /// Localizations that cannot be read stop the server with a sentence naming the file.
    @Test func unreadableLocalizationsAreReportedInWords() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("l10n-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#""A" = "B""#.utf8).write(to: directory.appendingPathComponent("fr.lproj/Localizable.strings"))
        await #expect {
            try await E2E.withMock(E2E.mockConfiguration { $0.localizationsPath = directory.path }) { _ in }
        } throws: { error in
            "\(error)".contains("fr.lproj/Localizable.strings") && "\(error)".contains("line 1")
        }
        await #expect {
            try await E2E.withMock(E2E.mockConfiguration { $0.localizationsPath = directory.path + "/none" }) { _ in }
        } throws: { error in
            "\(error)".contains("/none': no such file or directory")
        }
    }
}
