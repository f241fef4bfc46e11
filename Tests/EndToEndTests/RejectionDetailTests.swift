import APNSMock
import APNSMockCore
import Foundation
import Testing

/// The mock says why (issue 20): a rejected request's record carries a `detail` in words beside
/// Apple's reason, which the wire answer never changes; `verify`'s near misses, `apns-mock
/// explain` and a `notice` log line show it. Pushed with curl over TLS and HTTP/2.
@Suite struct RejectionDetailTests {
    /// One push with curl, with `authorization` as given: `(HTTP status, apns-id sent)`.
    static func push(
        _ mock: RunningMock, token: String, authorization: String? = E2E.authorizationHeader,
        headers: [String] = ["apns-topic: com.example.app", "apns-push-type: alert"],
        payload: String = #"{"aps":{"alert":"hi"}}"#
    ) async throws -> (status: Int, apnsID: String) {
        let apnsID = E2E.newAPNSID()
        var arguments = ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", E2E.caFile]
        if let authorization { arguments += ["-H", authorization] }
        for header in headers + ["apns-id: \(apnsID)"] { arguments += ["-H", header] }
        arguments += ["--data-binary", payload, mock.endpoints.apnsURL + "/3/device/\(token)"]
        let output = try await E2E.run("curl", arguments, timeout: 30)
        return (Int(output.stdout) ?? 0, apnsID)
    }

    static func detail(_ mock: RunningMock, _ apnsID: String) throws -> String {
        let record = try #require(mock.deliveries.last(matching: [.apnsID(apnsID)]))
        return try #require(record.detail, "no detail for \(record.response?.reason?.rawValue ?? "?")")
    }

    static func token(issuedAt: Date, keyID: String = E2E.keyID) throws -> String {
        "authorization: bearer "
            + (try ProviderToken.make(
                privateKeyPEM: String(contentsOfFile: E2E.keyFile, encoding: .utf8), keyID: keyID, teamID: E2E.teamID,
                issuedAt: issuedAt))
    }

    /// Each cause Apple reports with one reason, told apart by the detail.
    @Test func rejectionsSayWhy() async throws {
        let configuration = try E2E.mockConfiguration { $0.strictRegistry = true }
        try await E2E.withMock(configuration) { mock in
            let device = E2E.randomToken()
            let future = try await Self.push(
                mock, token: device, authorization: try Self.token(issuedAt: Date().addingTimeInterval(300)))
            #expect(future.status == 403)
            let futureDetail = try Self.detail(mock, future.apnsID)
            #expect(futureDetail.contains("in the future"), "\(futureDetail)")
            #expect(futureDetail.contains("iat"), "\(futureDetail)")

            let old = try await Self.push(
                mock, token: device, authorization: try Self.token(issuedAt: Date().addingTimeInterval(-7200)))
            #expect(old.status == 403)
            #expect(try Self.detail(mock, old.apnsID).contains("s old"))

            let unknownKey = try await Self.push(
                mock, token: device, authorization: try Self.token(issuedAt: Date(), keyID: "ZZZ999ZZZZ"))
            #expect(unknownKey.status == 403)
            let keyDetail = try Self.detail(mock, unknownKey.apnsID)
            #expect(keyDetail.contains("ZZZ999ZZZZ") && keyDetail.contains(E2E.keyID), "\(keyDetail)")

            let missing = try await Self.push(mock, token: device, authorization: nil)
            #expect(try Self.detail(mock, missing.apnsID).contains("no authorization header"))

            let priority = try await Self.push(
                mock, token: device, headers: ["apns-topic: com.example.app", "apns-priority: 7"])
            #expect(priority.status == 400)
            #expect(try Self.detail(mock, priority.apnsID).contains("apns-priority is '7'"))

            let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4100) + #""}}"#
            let tooLarge = try await Self.push(mock, token: device, payload: big)
            #expect(tooLarge.status == 413)
            let sizeDetail = try Self.detail(mock, tooLarge.apnsID)
            #expect(sizeDetail.contains("\(big.utf8.count) bytes") && sizeDetail.contains("4096"), "\(sizeDetail)")

            let unregistered = try await Self.push(mock, token: device)
            #expect(unregistered.status == 400, "strict registry: an unknown token")
            #expect(try Self.detail(mock, unregistered.apnsID).contains("--strict-registry"))

            // The wire answer is Apple's alone: the reason JSON carries no detail.
            let body = try await E2E.run(
                "curl",
                [
                    "-sS", "--http2", "--cacert", E2E.caFile, "-H", "apns-topic: com.example.app", "-d", "{}",
                    mock.endpoints.apnsURL + "/3/device/nothex",
                ])
            #expect(body.stdout == #"{"reason":"BadDeviceToken"}"#)
        }
    }

    /// A certificate connection: the topic asked for against the certificate's topics.
    @Test func aCertificatesTopicsAreNamed() async throws {
        try await E2E.withMock(E2E.mockConfiguration { $0.clientCAPath = E2E.caFile }) { mock in
            let apnsID = E2E.newAPNSID()
            let output = try await E2E.run(
                "curl",
                [
                    "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--http2", "--cacert", E2E.caFile,
                    "--cert", E2E.repositoryRoot + "/certs/provider-sandbox.pem",
                    "--key", E2E.repositoryRoot + "/certs/provider-sandbox-key.pem",
                    "-H", "apns-topic: com.example.other", "-H", "apns-id: \(apnsID)", "-d", #"{"aps":{}}"#,
                    mock.endpoints.apnsURL + "/3/device/\(E2E.randomToken())",
                ], timeout: 30)
            #expect(output.stdout == "400", "\(output.stderr)")
            let detail = try Self.detail(mock, apnsID)
            #expect(detail.contains("'com.example.other'") && detail.contains("certificate's topics"), "\(detail)")
        }
    }

    /// A fault rule's answer says which rule; a mode says which mode.
    @Test func faultsSayWhatTheyDid() async throws {
        try await E2E.withMock { mock in
            let device = E2E.randomToken()
            let (created, _) = try await FaultInjectionTests.adminPOST(
                mock, "/v1/faults",
                #"{"id":"gone","match":{"token":"\#(device)"},"action":{"respond":{"status":410,"reason":"Unregistered"}}}"#
            )
            #expect(created == 201)
            let gone = try await Self.push(mock, token: device)
            #expect(gone.status == 410)
            #expect(try Self.detail(mock, gone.apnsID) == "fault rule 'gone' answered 410 Unregistered")

            _ = try await FaultInjectionTests.adminPOST(mock, "/v1/modes/unavailable")
            let unavailable = try await Self.push(mock, token: E2E.randomToken())
            #expect(unavailable.status == 503)
            #expect(try Self.detail(mock, unavailable.apnsID).contains("unavailable mode"))
        }
    }

    /// `verify` prints a near miss's detail; `apns-mock explain` prints one request's.
    @Test func verifyAndExplainShowTheDetail() async throws {
        try await E2E.withMock { mock in
            let device = E2E.randomToken()
            let rejected = try await Self.push(
                mock, token: device, headers: ["apns-topic: com.example.app", "apns-priority: 7"])
            #expect(rejected.status == 400)

            let explained = try await E2E.run(
                CLITests.executable, ["explain", rejected.apnsID, "--admin", mock.endpoints.adminURL])
            #expect(explained.status == 0, "\(explained.stderr)")
            #expect(explained.stdout.contains("answer: 400 BadPriority"), "\(explained.stdout)")
            #expect(explained.stdout.contains("why: apns-priority is '7'; APNs accepts 10, 5 or 1"))
            let missing = try await E2E.run(
                CLITests.executable, ["explain", E2E.newAPNSID(), "--admin", mock.endpoints.adminURL])
            #expect(missing.status == 1)

            let file = NSTemporaryDirectory() + "detail-\(UUID().uuidString).yaml"
            try """
            expect:
              - name: the push is delivered
                match: {token: "\(device)", status: 200}
            """.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let verified = try await E2E.run(
                CLITests.executable, ["verify", file, "--admin", mock.endpoints.adminURL])
            #expect(verified.status == 1)
            #expect(
                verified.stdout.contains("why: apns-priority is '7'; APNs accepts 10, 5 or 1"),
                "\(verified.stdout)\(verified.stderr)")
        }
    }

    /// One `notice` line per rejection on standard error, saying the reason and the detail.
    @Test func aRejectionIsLogged() async throws {
        let log = NSTemporaryDirectory() + "rejections-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLITests.executable)
        process.arguments = ["serve", "--port", "0", "--admin-port", "0", "--channels-port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: E2E.repositoryRoot)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        defer { process.terminate() }
        let ready = await E2E.firstLine(of: out)
        let apns = try #require(ready.firstMatch(of: #/apns=(https://[^ ]+)/#)?.1, "ready line: \(ready)")
        let output = try await E2E.run(
            "curl",
            [
                "-sS", "--http2", "--cacert", E2E.caFile, "-H", E2E.authorizationHeader, "-H",
                "apns-topic: com.example.app",
                "-H", "apns-priority: 7", "-d", #"{"aps":{}}"#, "\(apns)/3/device/\(E2E.randomToken())",
            ])
        #expect(output.stdout == #"{"reason":"BadPriority"}"#)
        var text = ""
        for _ in 0..<50 where !text.contains("rejected:") {
            try await Task.sleep(for: .milliseconds(100))
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        #expect(text.contains("notice"), "\(text)")
        #expect(text.contains("rejected: 400 BadPriority — apns-priority is '7'"), "\(text)")
    }
}
