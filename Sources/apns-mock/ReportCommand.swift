import APNSMock
import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock report`: the provider-behaviour report of a running apns-mock.
///
/// Exit 0 when no finding is at or above `--fail-on`, 1 when one is, 2 for a usage error or an
/// admin API that cannot be reached.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "How each provider behaved against Apple's guidance (token cadence, 410s, retries, churn).",
        discussion: """
            Reads GET /v1/report of a running apns-mock and prints each provider's numbers and \
            findings (docs/REPORT.md lists every code). Exit status: 0 no finding at or above \
            --fail-on; 1 at least one; 2 usage error or unreachable server.
            """)

    @Option(help: "The admin API's URL (default: $APNS_MOCK_ADMIN_URL, else http://127.0.0.1:2198).")
    var admin: String?
    @Option(help: "Bearer token for the admin API, if it requires one (default: $APNS_MOCK_ADMIN_TOKEN).")
    var adminToken: String?
    @Option(
        help: ArgumentHelp(
            "Exit 1 when a finding of this severity or worse exists: warning or error (default error).",
            valueName: "severity"))
    var failOn = "error"
    @Option(
        help: ArgumentHelp(
            "Only requests received within this duration before now (10m, 30s, 1h; a bare number is seconds).",
            valueName: "duration"))
    var window: String?
    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file")) var junit: String?
    @Flag(help: "Print the admin API's JSON instead of the text report.") var json = false

    func run() async throws {
        guard let threshold = BehaviorSeverity(rawValue: failOn), threshold != .info else {
            fail(2, "apns-mock report: --fail-on must be warning or error; got '\(failOn)'")
        }
        if let window, DurationText.seconds(window) == nil {
            fail(2, "apns-mock report: --window must be a duration such as 10m, 30s or 1h; got '\(window)'")
        }
        var options = AdminOptions()
        options.admin = admin
        options.adminToken = adminToken
        let started = Date()
        // A bad --admin, an unreachable server or a 401 is exit 2 (in send).
        let response = options.send("report", .getReport, query: window.map { [("window", $0)] } ?? [], timeout: 120)
        guard response.status == 200 else {
            fail(
                2,
                "apns-mock report: the admin API answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
            )
        }
        let document: ProviderReportDocument
        do {
            document = try ProviderReportDocument(answer: response.body)
        } catch {
            fail(2, "apns-mock report: \(error)")
        }
        print(json ? String(decoding: response.body, as: UTF8.self) : document.text)
        if let junit {
            do {
                try document.junit(failOn: threshold, seconds: Date().timeIntervalSince(started))
                    .write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                fail(2, "apns-mock report: cannot write the JUnit report to \(junit): \(WriteProblem.describe(error))")
            }
        }
        if document.hasFindings(atLeast: threshold) { throw ExitCode(1) }
    }
}
