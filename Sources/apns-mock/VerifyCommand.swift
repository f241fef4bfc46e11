import APNSMock
import APNSMockAdmin
import APNSMockCore
import APNSMockRegistry
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
            unusable file, or unreachable server. A failure links to the dashboard at --admin \
            (#filter=… its match, #record=… a near miss). See expectations/README.md for the file format.
            """)

    @Argument(
        help: ArgumentHelp("Expectation files (YAML), or directories of *.yaml files.", valueName: "file-or-dir"))
    var paths: [String] = []
    @Option(help: "The admin API's URL (default: $APNS_MOCK_ADMIN_URL, else http://127.0.0.1:2198).")
    var admin: String?
    @Option(help: "Bearer token for the admin API, if it requires one (default: $APNS_MOCK_ADMIN_TOKEN).")
    var adminToken: String?
    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file")) var junit: String?

    func run() async throws {
        guard !paths.isEmpty else { fail(2, "apns-mock verify: name at least one expectation file or directory") }
        let files: [ExpectationFile]
        do {
            files = try ExpectationFile.load(paths, now: WallClock.milliseconds())
        } catch {
            fail(2, "apns-mock verify: \(error)")
        }
        var options = AdminOptions()
        options.admin = admin
        options.adminToken = adminToken
        let base = options.base
        var reports: [VerificationReport] = []
        for file in files {
            let body = JSONValue.object([("expect", .array(file.expectations.map(\.json)))]).jsonText
            let started = Date()
            // Long enough for the longest `within` (at most 300 s) and the answer. A bad --admin,
            // an unreachable server or a 401 is exit 2 (in send).
            let response = options.send("verify", .verify, body: Array(body.utf8), timeout: 330)
            guard response.status == 200 else {
                fail(
                    2,
                    "apns-mock verify: \(file.path): the admin API answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
                )
            }
            do {
                // A failure links to the dashboard of the server verified, at the records that show it.
                reports.append(
                    try VerificationReport(
                        file: file.path, answer: response.body, seconds: Date().timeIntervalSince(started),
                        dashboard: base))
            } catch {
                fail(2, "apns-mock verify: \(error)")
            }
        }
        for report in reports { print(report.text) }
        if let junit {
            do {
                try VerificationReport.junit(reports).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                fail(2, "apns-mock verify: cannot write the JUnit report to \(junit): \(WriteProblem.describe(error))")
            }
        }
        let passed = reports.allSatisfy(\.passed)
        let total = reports.map(\.results.count).reduce(0, +)
        let failed = reports.map { $0.results.filter { !$0.passed }.count }.reduce(0, +)
        print(passed ? "all \(total) expectations hold" : "\(failed) of \(total) expectations failed")
        if !passed { throw ExitCode(1) }
    }

}
