/// The span a provider-behaviour report covers: requests received at or after `since` and
/// before `until` (epoch milliseconds); either open.
public struct ReportWindow: Sendable, Hashable {
    public var since: Int64?
    public var until: Int64?

    public init(since: Int64? = nil, until: Int64? = nil) {
        self.since = since
        self.until = until
    }

    /// Whether a request received at `time` falls in the window.
    public func contains(_ time: Int64) -> Bool {
        if let since, time < since { return false }
        if let until, time >= until { return false }
        return true
    }
}
