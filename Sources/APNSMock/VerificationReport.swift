import APNSMockCore

/// What `POST /v1/verify` answered for one expectation file, as `apns-mock verify` prints it
/// and writes it as JUnit XML.
public struct VerificationReport: Sendable {
    /// One expectation's result (a step of an `inOrder` expectation has the same shape).
    public struct Result: Sendable {
        public var name: String
        public var passed: Bool
        public var expected: String?
        public var matched: Int?
        public var within: String?
        public var note: String?
        public var match: String?
        /// The match as the dashboard's filter and a query string of `GET /v1/deliveries`
        /// (`DeliveryMatcher.queryString`); `nil` for an `inOrder` expectation.
        public var filter: String?
        /// The sequence numbers of the records that matched (the first ones, as the answer lists them).
        public var matchedSequences: [Int]
        public var nearMisses: [NearMiss]
        public var steps: [Result]
    }

    /// A record that came close, and where it differs.
    public struct NearMiss: Sendable {
        public var sequence: Int
        public var satisfied: Int
        public var of: Int
        /// (field, expected, actual) for each condition it does not satisfy.
        public var differences: [(field: String, expected: String, actual: String?)]
        public var summary: String
        /// The record's `detail`: why the mock refused it (or what a fault did), when it says.
        public var detail: String?
    }

    /// The file the expectations came from.
    public var file: String
    public var results: [Result]
    /// Seconds the verification took.
    public var seconds: Double
    /// The admin API's URL (`http://127.0.0.1:2198`) of the server verified, when known: then
    /// each failure in `text` and the JUnit XML links to its dashboard, at the records that show
    /// it (`dashboardLink(_:filter:record:)`).
    public var dashboard: String?

    public var passed: Bool { results.allSatisfy(\.passed) }

    /// Reads the admin API's answer.
    /// - Parameter dashboard: the admin API's URL, for links to its dashboard (`nil`: none).
    /// - Throws: `VerificationReportError` when the answer is not the documented shape.
    public init(file: String, answer: [UInt8], seconds: Double, dashboard: String? = nil) throws {
        guard let json = JSONValue.parse(answer), case .array(let results) = json["results"] ?? .null else {
            throw VerificationReportError(
                "the admin API's answer is not a verification result: \(String(decoding: answer.prefix(300), as: UTF8.self))"
            )
        }
        self.file = file
        self.seconds = seconds
        self.dashboard = dashboard
        self.results = results.map(Self.result)
    }

    private static func result(_ json: JSONValue) -> Result {
        func text(_ key: String) -> String? {
            guard let value = json[key], value != .null else { return nil }
            return value.scalarText
        }
        var nearMisses: [NearMiss] = []
        if case .array(let misses) = json["nearMisses"] ?? .null {
            for miss in misses {
                var differences: [(field: String, expected: String, actual: String?)] = []
                if case .array(let items) = miss["differences"] ?? .null {
                    for item in items {
                        let actual = item["actual"].flatMap { $0 == .null ? nil : $0.scalarText }
                        differences.append(
                            (item["field"]?.scalarText ?? "?", item["expected"]?.scalarText ?? "?", actual))
                    }
                }
                let record = miss["record"]
                let summary = ["token", "topic", "pushType", "apnsId"].compactMap { key -> String? in
                    guard let value = record?[key], value != .null, let text = value.scalarText else { return nil }
                    return "\(key)=\(text)"
                }
                let status = record?["response"]?["status"]?.scalarText.map { "status=\($0)" }
                let reason = record?["response"]?["reason"].flatMap { $0 == .null ? nil : $0.scalarText }
                let detail = record?["detail"].flatMap { $0 == .null ? nil : $0.scalarText }
                nearMisses.append(
                    NearMiss(
                        sequence: Int(miss["sequence"]?.scalarText ?? "") ?? 0,
                        satisfied: Int(miss["satisfied"]?.scalarText ?? "") ?? 0,
                        of: Int(miss["of"]?.scalarText ?? "") ?? 0, differences: differences,
                        summary: (summary + [status, reason.map { "reason=\($0)" }].compactMap { $0 })
                            .joined(separator: " "), detail: detail))
            }
        }
        var steps: [Result] = []
        if case .array(let items) = json["steps"] ?? .null { steps = items.map(result) }
        var matchedSequences: [Int] = []
        if case .array(let items) = json["matchedSequences"] ?? .null {
            matchedSequences = items.compactMap { $0.scalarText.flatMap { Int($0) } }
        }
        return Result(
            name: text("name") ?? "?", passed: json["passed"] == .bool(true), expected: text("expected"),
            matched: text("matched").flatMap { Int($0) }, within: text("within"), note: text("note"),
            match: json["match"].map(\.jsonText),
            filter: json["match"].flatMap { try? DeliveryMatcher(json: $0) }?.queryString,
            matchedSequences: matchedSequences, nearMisses: nearMisses, steps: steps)
    }

    // MARK: text

    /// The report for a person: one line per expectation, and for each failure what was
    /// expected, how many matched and the near misses with their differences; with `dashboard`,
    /// links to the dashboard: the expectation's match as the filter (opening the first record
    /// that matched, when one did), and each near miss.
    public var text: String {
        var lines = ["\(file): \(results.filter(\.passed).count) of \(results.count) expectations hold"]
        for result in results { lines += Self.lines(result, indent: "  ", dashboard: dashboard) }
        return lines.joined(separator: "\n")
    }

    /// The dashboard's address showing `filter` and record `record` (either may be absent), as
    /// the page reads its fragment (`#filter=…&record=…`, the filter percent-encoded once more).
    /// - Parameter admin: the admin API's URL (`http://127.0.0.1:2198`, a trailing `/` or none).
    public static func dashboardLink(_ admin: String, filter: String? = nil, record: Int? = nil) -> String {
        var parts: [String] = []
        if let filter, !filter.isEmpty { parts.append("filter=" + PercentEncoding.encoded(filter)) }
        if let record { parts.append("record=\(record)") }
        let base = admin.hasSuffix("/") ? String(admin.dropLast()) : admin
        return base + "/" + (parts.isEmpty ? "" : "#" + parts.joined(separator: "&"))
    }

    private static func lines(_ result: Result, indent: String, dashboard: String?) -> [String] {
        var lines = ["\(indent)\(result.passed ? "✔" : "✘") \(result.name)"]
        guard !result.passed || !result.steps.isEmpty else { return lines }
        if !result.steps.isEmpty {
            if let note = result.note { lines.append("\(indent)    in order: \(note)") }
            for step in result.steps { lines += Self.lines(step, indent: indent + "    ", dashboard: dashboard) }
            return lines
        }
        if let note = result.note {
            lines.append("\(indent)    \(note)")
            return lines
        }
        let window = result.within.map { " within \($0)" } ?? ""
        lines.append(
            "\(indent)    expected \(result.expected ?? "?") matching \(result.match ?? "{}")\(window); matched \(result.matched ?? 0)"
        )
        if let dashboard {
            // The records it matched (the first one open), or the filter to watch for the ones it did not.
            let link = dashboardLink(dashboard, filter: result.filter, record: result.matchedSequences.first)
            lines.append("\(indent)    dashboard: \(link)")
        }
        if !result.nearMisses.isEmpty {
            lines.append("\(indent)    closest records:")
            for miss in result.nearMisses {
                lines.append(
                    "\(indent)      #\(miss.sequence) (\(miss.satisfied) of \(miss.of) fields match) \(miss.summary)")
                for difference in miss.differences {
                    let actual = difference.actual.map { "\"\($0)\"" } ?? "nothing"
                    lines.append(
                        "\(indent)        \(difference.field): expected \"\(difference.expected)\", got \(actual)")
                }
                if let detail = miss.detail { lines.append("\(indent)        why: \(detail)") }
                if let dashboard {
                    lines.append("\(indent)        dashboard: \(dashboardLink(dashboard, record: miss.sequence))")
                }
            }
        } else if (result.matched ?? 0) == 0 {
            lines.append("\(indent)    no stored record matches any of its fields")
        }
        return lines
    }

    // MARK: JUnit

    /// JUnit XML for several reports: one `testsuite` per file, one `testcase` per expectation,
    /// a failure's text as `text` writes it (with its dashboard links).
    public static func junit(_ reports: [VerificationReport]) -> String {
        let tests = reports.map(\.results.count).reduce(0, +)
        let failures = reports.map { $0.results.filter { !$0.passed }.count }.reduce(0, +)
        let time = reports.map(\.seconds).reduce(0, +)
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="apns-mock verify" tests="\#(tests)" failures="\#(failures)" time="\#(format(time))">"#
        xml += "\n"
        for report in reports {
            let suiteFailures = report.results.filter { !$0.passed }.count
            xml +=
                #"  <testsuite name="\#(escape(report.file))" tests="\#(report.results.count)" failures="\#(suiteFailures)" time="\#(format(report.seconds))">"#
            xml += "\n"
            for result in report.results {
                xml += #"    <testcase classname="\#(escape(report.file))" name="\#(escape(result.name))""#
                if result.passed {
                    xml += "/>\n"
                    continue
                }
                let body = lines(result, indent: "", dashboard: report.dashboard).dropFirst().joined(separator: "\n")
                let message = result.note ?? "expected \(result.expected ?? "?"), matched \(result.matched ?? 0)"
                xml += ">\n"
                xml +=
                    #"      <failure message="\#(escape(message))" type="ExpectationFailed">\#(escape(body))</failure>"#
                xml += "\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func format(_ seconds: Double) -> String {
        String(Double(Int(seconds * 1000)) / 1000)
    }

    /// XML text with `& < > " '` escaped and characters XML 1.0 cannot hold dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
