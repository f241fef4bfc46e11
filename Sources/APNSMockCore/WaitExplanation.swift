/// What a person reads when a wait times out (`GET /v1/deliveries/wait` answering 408, its
/// `explanation`), the same from the CLI, the clients and MCP:
///
/// ```text
/// timed out after 10s: 0 of 1 record matched topic=com.example.app payload.aps.alert.titel=Hi
/// closest records:
///   #12  200  push  740f4707…78ad  com.example.app  alert  apns-id 8E1C…  (1 of 2 conditions hold)
///     payload.aps.alert.titel: expected Hi, got (none) (did you mean payload.aps.alert.title?)
/// dashboard: http://127.0.0.1:2198/#filter=topic%3Dcom.example.app%26payload.aps.alert.titel%3DHi
/// ```
public struct WaitExplanation: Sendable, Hashable {
    /// How one condition differs in a near miss.
    public struct Difference: Sendable, Hashable {
        public var field: String
        public var expected: String
        /// What the record has there; `nil`: nothing ("(none)").
        public var actual: String?
        /// The path the records have that is closest to a path none has.
        public var suggestion: String?

        public init(field: String, expected: String, actual: String?, suggestion: String? = nil) {
            self.field = field
            self.expected = expected
            self.actual = actual
            self.suggestion = suggestion
        }

        /// `field: expected X, got Y`, then ` (did you mean S?)` when there is a suggestion.
        public var text: String {
            "\(field): expected \(expected), got \(actual ?? "(none)")"
                + (suggestion.map { " (did you mean \($0)?)" } ?? "")
        }
    }

    /// A record close to matching.
    public struct NearMiss: Sendable, Hashable {
        /// The record's one-line summary (`RecordSummary`).
        public var summary: String
        /// The conditions that hold, of `of`.
        public var satisfied: Int
        public var of: Int
        public var differences: [Difference]

        public init(summary: String, satisfied: Int, of: Int, differences: [Difference]) {
            self.summary = summary
            self.satisfied = satisfied
            self.of = of
            self.differences = differences
        }
    }

    /// The wait's timeout as written (`10s`, `500ms`).
    public var timeout: String
    /// The records the wait wanted.
    public var wanted: Int
    /// The conditions waited on (`topic=com.example.app pushType=alert`); empty for none.
    public var conditions: String
    /// The summaries of the records that matched.
    public var matched: [String]
    /// How many records matched (`matched` may list fewer).
    public var matchedCount: Int
    public var nearMisses: [NearMiss]
    /// The dashboard filtered to the conditions.
    public var dashboard: String?

    public init(
        timeout: String, wanted: Int, conditions: String, matched: [String], matchedCount: Int? = nil,
        nearMisses: [NearMiss], dashboard: String?
    ) {
        self.timeout = timeout
        self.wanted = wanted
        self.conditions = conditions
        self.matched = matched
        self.matchedCount = matchedCount ?? matched.count
        self.nearMisses = nearMisses
        self.dashboard = dashboard
    }

    /// The lines, joined by newlines.
    public var text: String {
        var lines = [
            "timed out after \(timeout): \(matchedCount) of \(wanted) record\(wanted == 1 ? "" : "s") matched"
                + (conditions.isEmpty ? "" : " \(conditions)")
        ]
        lines += matched.map { "  matched: \($0)" }
        if !nearMisses.isEmpty {
            lines.append("closest records:")
            for miss in nearMisses {
                lines.append("  \(miss.summary)  (\(miss.satisfied) of \(miss.of) conditions hold)")
                lines += miss.differences.map { "    \($0.text)" }
            }
        } else if !conditions.isEmpty {
            lines.append("no recent record matches any of the conditions")
        }
        if let dashboard { lines.append("dashboard: \(dashboard)") }
        return lines.joined(separator: "\n")
    }

    /// The dashboard's address showing the records `queryString` matches:
    /// `http://<host>/#filter=<the query string, percent-encoded>`.
    public static func dashboardLink(host: String, queryString: String) -> String {
        "http://\(host)/" + (queryString.isEmpty ? "" : "#filter=" + PercentEncoding.encoded(queryString))
    }
}
