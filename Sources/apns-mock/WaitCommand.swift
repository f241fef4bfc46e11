import APNSMockAdmin
import APNSMockCore
import ArgumentParser

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `apns-mock wait [FIELD=VALUE…] --count N --timeout 10s`: blocks until N records match
/// (`GET /v1/deliveries/wait`). Exit 0 when they do, 1 when the timeout runs out first (the near
/// misses printed), 2 for bad input or an unreachable server.
struct WaitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait until requests that match are recorded (GET /v1/deliveries/wait).",
        discussion: """
            Filters are the query's fields, as for 'apns-mock deliveries'. Records stored before the \
            call count. Exit status: 0 the count was reached; 1 the timeout ran out first (the closest \
            records and how they differ are printed); 2 bad input or unreachable server.
            """)

    @Argument(help: ArgumentHelp("Filters, FIELD=VALUE.", valueName: "field=value")) var filters: [String] = []
    @Option(help: "How many matching records to wait for.") var count = 1
    @Option(
        help: ArgumentHelp(
            "How long to wait at most (500ms, 10s, 2m; a bare number is seconds; at most 300s).", valueName: "duration")
    )
    var timeout = "10s"
    @OptionGroup var options: AdminOptions

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--count must be at least 1; got \(count)") }
        guard let seconds = DurationText.seconds(timeout), seconds >= 0, seconds <= 300 else {
            throw ValidationError(
                "--timeout must be a duration of at most 300 s such as 10s or 500ms; got '\(timeout)'")
        }
    }

    func run() throws {
        let seconds = DurationText.seconds(timeout) ?? 10
        let query = AdminOptions.query("wait", filters, extra: [("count", String(count)), ("timeout", timeout)])
        let response = options.send(
            "wait", .waitForDeliveries, query: query, timeout: Int(seconds.rounded(.up)) + 30)
        guard response.status == 200 || response.status == 408 else {
            fail(response.status == 400 ? 2 : 1, "apns-mock wait: \(AdminOptions.message(response))")
        }
        if options.json {
            AdminOptions.printJSON(response)
        } else {
            // The server's words: each record's summary, or what a wait that timed out explains.
            let answer = JSONValue.parse(response.body)
            if response.status == 200 {
                print(DeliveriesCommand.summaries(answer).joined(separator: "\n"))
            } else {
                print(
                    answer?["explanation"]?.scalarText
                        ?? "timed out: \(DeliveriesCommand.summaries(answer).count) of \(count) matched")
            }
        }
        if response.status == 408 { throw ExitCode(1) }
    }
}
