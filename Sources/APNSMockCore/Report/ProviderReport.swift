/// The provider-behaviour report (`GET /v1/report`): for each provider identity that pushed
/// in the window, what it did and what Apple would frown on. `ProviderReportAnalyzer` builds
/// it from plain values; nothing here reads a clock or the store.
public struct ProviderReport: Sendable, Hashable {
    public var window: ReportWindow
    /// Requests the report read (in the window, excluding deliveries the mock made itself).
    public var deliveries: Int
    /// One entry per identity, by name.
    public var providers: [ProviderBehavior]

    public init(window: ReportWindow, deliveries: Int, providers: [ProviderBehavior]) {
        self.window = window
        self.deliveries = deliveries
        self.providers = providers
    }

    /// Every finding of every identity.
    public var findings: [BehaviorFinding] { providers.flatMap(\.findings) }

    /// The findings of `severity` or more serious.
    public func findings(atLeast severity: BehaviorSeverity) -> [BehaviorFinding] {
        findings.filter { $0.severity >= severity }
    }

    /// The identity `identity`'s entry, if it pushed.
    public func provider(_ identity: ProviderIdentity) -> ProviderBehavior? {
        providers.first { $0.identity == identity }
    }

    /// The report's JSON: `{"window":{…},"generatedAt":…,"deliveries":…,"findings":{"error":…,
    /// "warning":…,"info":…},"providers":[…]}`.
    /// - Parameter generatedAt: when the report was made, epoch milliseconds.
    public func json(generatedAt: Int64) -> [UInt8] {
        var json = JSONWriter(capacity: 1024 + providers.count * 2048)
        json.beginObject()
        json.key("window")
        json.beginObject()
        json.key("since")
        json.number(window.since)
        json.key("until")
        json.number(window.until)
        json.endObject()
        json.key("generatedAt")
        json.number(generatedAt)
        json.key("deliveries")
        json.number(deliveries)
        json.key("findings")
        json.beginObject()
        for severity in BehaviorSeverity.allCases.reversed() {
            json.key(escaping: severity.rawValue)
            json.number(findings.filter { $0.severity == severity }.count)
        }
        json.endObject()
        json.key("providers")
        json.beginArray()
        for provider in providers { provider.write(to: &json) }
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
