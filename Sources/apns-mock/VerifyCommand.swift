import APNSMock
import APNSMockCore
import APNSMockRegistry
import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore

/// `apns-mock verify`: checks expectation files against a running apns-mock.
///
/// Exit 0 when every expectation holds, 1 when one does not (with a report naming it, what was
/// expected, how many records matched and the closest records), 2 for a usage error, a file
/// that cannot be used, or an admin API that cannot be reached.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check expectation files (expectations/*.yaml) against a running apns-mock.",
        discussion: """
            Exit status: 0 every expectation holds; 1 at least one does not; 2 usage error, \
            unusable file, or unreachable server. See expectations/README.md for the file format.
            """)

    @Argument(
        help: ArgumentHelp("DeliveryExpectation files, or directories of *.yaml files.", valueName: "file-or-dir"))
    var paths: [String] = []
    @Option(help: "The admin API's URL (default http://127.0.0.1:2198).") var admin = "http://127.0.0.1:2198"
    @Option(help: "Bearer token for the admin API, if it requires one.") var adminToken: String?
    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file")) var junit: String?

    func run() async throws {
        guard !paths.isEmpty else { fail(2, "apns-mock verify: name at least one expectation file or directory") }
        let files: [ExpectationFile]
        do {
            files = try ExpectationFile.load(paths, now: WallClock.milliseconds())
        } catch {
            fail(2, "apns-mock verify: \(error)")
        }
        let base = admin.hasSuffix("/") ? String(admin.dropLast()) : admin
        guard URL(string: base + "/v1/verify")?.host != nil else {
            fail(2, "apns-mock verify: --admin must be a URL such as http://127.0.0.1:2198; got '\(admin)'")
        }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        var reports: [VerificationReport] = []
        var failure: (code: Int32, message: String)?
        for file in files {
            let body = JSONValue.object([("expect", .array(file.expectations.map(\.json)))]).jsonText
            var request = HTTPClientRequest(url: base + "/v1/verify")
            request.method = .POST
            request.headers.add(name: "content-type", value: "application/json")
            if let adminToken { request.headers.add(name: "authorization", value: "Bearer \(adminToken)") }
            request.body = .bytes(ByteBuffer(string: body))
            let started = Date()
            do {
                // Long enough for the longest `within` (at most 300 s) and the answer.
                let response = try await client.execute(request, timeout: .seconds(330))
                let bytes = Array(try await response.body.collect(upTo: 64 << 20).readableBytesView)
                guard response.status == .ok else {
                    failure = (
                        2,
                        "apns-mock verify: \(file.path): the admin API answered \(response.status.code): \(String(decoding: bytes, as: UTF8.self))"
                    )
                    break
                }
                reports.append(
                    try VerificationReport(file: file.path, answer: bytes, seconds: Date().timeIntervalSince(started)))
            } catch let error as VerificationReportError {
                failure = (2, "apns-mock verify: \(error)")
                break
            } catch {
                failure = (2, "apns-mock verify: cannot reach the admin API at \(base): \(error)")
                break
            }
        }
        try? await client.shutdown()
        if let failure { fail(failure.code, failure.message) }
        for report in reports { print(report.text) }
        if let junit {
            do {
                try VerificationReport.junit(reports).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                fail(2, "apns-mock verify: cannot write the JUnit report to \(junit): \(error.localizedDescription)")
            }
        }
        let passed = reports.allSatisfy(\.passed)
        let total = reports.map(\.results.count).reduce(0, +)
        let failed = reports.map { $0.results.filter { !$0.passed }.count }.reduce(0, +)
        print(passed ? "all \(total) expectations hold" : "\(failed) of \(total) expectations failed")
        if !passed { throw ExitCode(1) }
    }

    private func fail(_ code: Int32, _ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(code)
    }
}
