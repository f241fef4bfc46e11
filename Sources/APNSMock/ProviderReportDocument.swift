import APNSMockCore

/// What `GET /v1/report` answered, as `apns-mock report` prints it, judges it (`--fail-on`)
/// and writes it as JUnit XML.
public struct ProviderReportDocument: Sendable {
    /// One finding as the answer gives it.
    public struct Finding: Sendable {
        public var code: String
        public var severity: BehaviorSeverity
        public var count: Int
        public var message: String
        public var threshold: String
        public var source: String
        public var examples: [String]
    }

    /// One provider identity.
    public struct Provider: Sendable {
        public var name: String
        /// One line of its numbers.
        public var numbers: String
        public var findings: [Finding]
    }

    public var deliveries: Int
    public var since: Int64?
    public var until: Int64?
    public var providers: [Provider]

    /// Reads the admin API's answer.
    /// - Throws: `VerificationReportError` when the answer is not the documented shape.
    public init(answer: [UInt8]) throws {
        guard let json = JSONValue.parse(answer), case .array(let providers) = json["providers"] ?? .null else {
            throw VerificationReportError(
                "the admin API's answer is not a provider report: \(String(decoding: answer.prefix(300), as: UTF8.self))"
            )
        }
        func integer(_ value: JSONValue?) -> Int64? { value?.scalarText.flatMap { Int64($0) } }
        deliveries = Int(integer(json["deliveries"]) ?? 0)
        since = integer(json["window"]?["since"])
        until = integer(json["window"]?["until"])
        self.providers = providers.map { provider in
            var findings: [Finding] = []
            if case .array(let items) = provider["findings"] ?? .null {
                for item in items {
                    var examples: [String] = []
                    if case .array(let ids) = item["examples"] ?? .null { examples = ids.compactMap(\.scalarText) }
                    findings.append(
                        Finding(
                            code: item["code"]?.scalarText ?? "?",
                            severity: item["severity"]?.scalarText.flatMap(BehaviorSeverity.init(rawValue:)) ?? .error,
                            count: Int(integer(item["count"]) ?? 0), message: item["message"]?.scalarText ?? "",
                            threshold: item["threshold"]?.scalarText ?? "", source: item["source"]?.scalarText ?? "",
                            examples: examples))
                }
            }
            return Provider(
                name: provider["identity"]?["name"]?.scalarText ?? "?", numbers: Self.numbers(provider),
                findings: findings)
        }
    }

    /// `40 pushes on 40 connections (1 per connection, up to 40 opened in a minute); 40 provider tokens …`.
    private static func numbers(_ provider: JSONValue) -> String {
        func text(_ value: JSONValue?) -> String? {
            guard let value, value != .null else { return nil }
            return value.scalarText
        }
        func count(_ value: JSONValue?, _ word: String, _ plural: String? = nil) -> String {
            let number = text(value) ?? "0"
            return "\(number) \(number == "1" ? word : plural ?? word + "s")"
        }
        let connections = provider["connections"]
        var line =
            "\(count(provider["pushes"], "push", "pushes")) on \(count(connections?["opened"], "connection")) (\(text(connections?["pushesPerConnection"]) ?? "0") per connection, up to \(text(connections?["peakOpenedPerMinute"]) ?? "0") opened in a minute, up to \(count(connections?["peakConcurrentStreams"], "stream")) at once)"
        if let tokens = provider["providerTokens"], tokens != .null {
            line += "; \(count(tokens["distinct"], "provider token"))"
            if let shortest = text(tokens["shortestRefresh"]) { line += ", shortest refresh \(shortest)" }
            if let longest = text(tokens["longestUse"]) { line += ", longest use \(longest)" }
        }
        return line
    }

    /// Every finding of every provider.
    public var findings: [Finding] { providers.flatMap(\.findings) }

    /// Whether a finding of `severity` or more serious exists.
    public func hasFindings(atLeast severity: BehaviorSeverity) -> Bool {
        findings.contains { $0.severity >= severity }
    }

    // MARK: text

    /// The report for a person: a heading, then each provider's numbers and findings.
    public var text: String {
        let window: String
        switch (since, until) {
        case (nil, nil): window = "the whole run"
        case (let since?, nil): window = "since \(since)"
        case (nil, let until?): window = "until \(until)"
        case (let since?, let until?): window = "\(since)–\(until)"
        }
        let counts = BehaviorSeverity.allCases.reversed().map { severity in
            "\(findings.filter { $0.severity == severity }.count) \(severity.rawValue)"
        }
        var lines = [
            "provider report over \(window): \(deliveries) \(deliveries == 1 ? "request" : "requests") from \(providers.count) \(providers.count == 1 ? "provider" : "providers"); findings: \(counts.joined(separator: ", "))"
        ]
        for provider in providers {
            lines.append("\(provider.name): \(provider.numbers)")
            if provider.findings.isEmpty { lines.append("  no findings") }
            for finding in provider.findings { lines += Self.lines(finding, indent: "  ") }
        }
        return lines.joined(separator: "\n")
    }

    private static func mark(_ severity: BehaviorSeverity) -> String {
        switch severity {
        case .error: "✘"
        case .warning: "!"
        case .info: "·"
        }
    }

    private static func lines(_ finding: Finding, indent: String) -> [String] {
        var lines = [
            "\(indent)\(mark(finding.severity)) \(finding.severity.rawValue) \(finding.code): \(finding.message)"
        ]
        lines.append("\(indent)    threshold: \(finding.threshold)")
        lines.append("\(indent)    source: \(finding.source)")
        if !finding.examples.isEmpty {
            lines.append("\(indent)    examples: \(finding.examples.joined(separator: ", "))")
        }
        return lines
    }

    // MARK: JUnit

    /// JUnit XML: one `testsuite` per provider, one `testcase` per finding code the report
    /// knows; a case fails when the provider has a finding of that code at `failOn` or above.
    public func junit(failOn: BehaviorSeverity, seconds: Double) -> String {
        let codes = BehaviorCode.all.map(\.rawValue)
        let failures = findings.filter { $0.severity >= failOn }.count
        let tests = providers.count * codes.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml +=
            #"<testsuites name="apns-mock report" tests="\#(tests)" failures="\#(failures)" time="\#(String(Double(Int(seconds * 1000)) / 1000))">"#
        xml += "\n"
        for provider in providers {
            let suiteFailures = provider.findings.filter { $0.severity >= failOn }.count
            let name = VerificationReport.escape(provider.name)
            xml += #"  <testsuite name="\#(name)" tests="\#(codes.count)" failures="\#(suiteFailures)">"#
            xml += "\n"
            for code in codes {
                xml += #"    <testcase classname="\#(name)" name="\#(code)""#
                guard let finding = provider.findings.first(where: { $0.code == code }) else {
                    xml += "/>\n"
                    continue
                }
                let body = VerificationReport.escape(Self.lines(finding, indent: "").joined(separator: "\n"))
                xml += ">\n"
                if finding.severity >= failOn {
                    xml +=
                        #"      <failure message="\#(VerificationReport.escape(finding.message))" type="\#(finding.severity.rawValue)">\#(body)</failure>"#
                } else {
                    xml += "      <system-out>\(body)</system-out>"
                }
                xml += "\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }
}
