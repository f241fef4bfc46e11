import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Hummingbird

/// `GET /v1/report`: the provider-behaviour report over the whole run or a window. The route
/// gathers plain inputs (record summaries from the store, read and analysed outside its lock
/// as `DeliveryReader` does; connection facts from the connection log) and hands them to
/// `ProviderReportAnalyzer`, on the admin executor's bulk lane.
enum ReportRoutes {
    /// The parameters the route takes, as the document declares them.
    static let parameterNames = AdminOperation.getReport.parameters.filter { $0.location == .query }.map(\.name)

    /// `GET /v1/report`.
    static func report(
        reader: DeliveryReader, executor: AdminExecutor, connectionLog: ConnectionLog,
        now: @escaping @Sendable () -> Int64
    ) -> AdminRouter.Handler {
        { request, _ in
            let window: ReportWindow
            let generatedAt = now()
            do throws(AdminError) {
                window = try Self.window(AdminRouter.parameters(request), now: generatedAt)
            } catch {
                return AdminRouter.errorResponse(error)
            }
            let bytes = try await executor.run {
                let report = ProviderReportAnalyzer.report(
                    deliveries: reader.behaviorDeliveries(in: window),
                    connections: connectionLog.behaviorConnections(), window: window)
                return report.json(generatedAt: generatedAt)
            }
            return AdminRouter.json(status: .ok, bytes)
        }
    }

    /// The window of `since`, `until` (epoch milliseconds) and `window` (a duration back from
    /// `now`: `10m`, `30s`, or a bare number of seconds; not with `since`).
    static func window(_ parameters: [(String, String)], now: Int64) throws(AdminError) -> ReportWindow {
        var window = ReportWindow()
        var span: Double?
        var seen: Set<String> = []
        for (name, value) in parameters {
            guard parameterNames.contains(name) else {
                throw .badParameter(
                    "query parameter '\(name)' is not known here; GET /v1/report takes since, until (epoch ms) and window (a duration such as 10m)"
                )
            }
            guard seen.insert(name).inserted else {
                throw .badParameter("query parameter '\(name)' is given twice")
            }
            switch name {
            case "window":
                guard let seconds = DurationText.seconds(value) else {
                    throw .badParameter(
                        "query parameter 'window' must be a duration such as '10m', '30s' or '1h' (a bare number is seconds); got '\(value)'"
                    )
                }
                span = seconds
            default:
                guard !value.isEmpty, value.utf8.count <= 15, value.utf8.allSatisfy({ (48...57).contains($0) }),
                    let milliseconds = Int64(value)
                else {
                    throw .badParameter(
                        "query parameter '\(name)' must be a time in epoch milliseconds (digits only); got '\(value)'")
                }
                if name == "since" { window.since = milliseconds } else { window.until = milliseconds }
            }
        }
        if let span {
            guard window.since == nil else {
                throw .badParameter("query parameters 'window' and 'since' cannot be used together; give one")
            }
            // A window longer than the epoch is the whole run.
            let end = window.until ?? now
            window.since = max(0, end - Int64(min(span * 1000, Double(max(end, 0)))))
        }
        if let since = window.since, let until = window.until, since >= until {
            throw .badParameter("query parameter 'since' (\(since)) must be before 'until' (\(until))")
        }
        return window
    }
}
