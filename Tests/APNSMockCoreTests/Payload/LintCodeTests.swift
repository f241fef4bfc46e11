import APNSMockCore
import Testing

/// `LintCode`: the codes are part of the admin API (filters, records), so their spelling and
/// severity are pinned here.
@Suite("LintCode")
struct LintCodeTests {
    /// Every code the analyzer emits, in `LintCode.all`'s order, with its severity.
    static let expected: [(String, LintSeverity)] = [
        ("payload-empty", .error),
        ("payload-too-large", .error),
        ("payload-near-limit", .warning),
        ("payload-truncated", .warning),
        ("payload-not-json", .error),
        ("payload-not-object", .error),
        ("aps-missing", .error),
        ("aps-not-object", .error),
        ("aps-unknown-key", .warning),
        ("aps-key-wrong-type", .error),
        ("alert-key-wrong-type", .error),
        ("alert-unknown-key", .warning),
        ("alert-unsupported-escape", .error),
        ("loc-key-not-found", .warning),
        ("loc-args-count-mismatch", .error),
        ("badge-not-integer", .error),
        ("badge-negative", .error),
        ("sound-critical-invalid", .error),
        ("sound-name-not-string", .error),
        ("sound-name-missing", .warning),
        ("sound-volume-invalid", .error),
        ("sound-unknown-key", .warning),
        ("content-available-invalid", .error),
        ("mutable-content-invalid", .error),
        ("interruption-level-invalid", .error),
        ("relevance-score-invalid", .error),
        ("event-invalid", .error),
        ("input-push-token-invalid", .error),
        ("push-type-header-missing", .warning),
        ("topic-missing-suffix", .error),
        ("topic-push-type-mismatch", .error),
        ("background-priority-not-5", .error),
        ("content-available-high-priority", .error),
        ("background-missing-content-available", .error),
        ("background-not-silent", .error),
        ("alert-nothing-to-show", .error),
        ("liveactivity-missing-key", .error),
        ("broadcast-starts-activity", .error),
        ("broadcast-priority-1", .warning),
        ("web-push-not-8030", .error),
        ("notification-missing", .error),
        ("notification-title-missing", .error),
        ("notification-navigate-missing", .error),
        ("notification-action-incomplete", .error),
        ("notification-dir-invalid", .warning),
        ("declarative-not-boolean", .warning),
        ("declarative-not-string", .warning),
        ("declarative-not-unsigned-integer", .warning),
        ("notification-require-interaction-spelling", .warning),
    ]

    @Test("Spelling, order and severity of every code")
    func pinned() {
        #expect(LintCode.all.map(\.rawValue) == Self.expected.map(\.0))
        #expect(LintCode.all.map(\.severity) == Self.expected.map(\.1))
    }

    @Test("Codes are unique kebab-case words with a one-sentence summary")
    func shape() {
        #expect(Set(LintCode.all).count == LintCode.all.count)
        for code in LintCode.all {
            #expect(code.rawValue.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
            #expect(!code.rawValue.hasPrefix("-") && !code.rawValue.hasSuffix("-") && !code.rawValue.contains("--"))
            #expect(code.summary.first?.isLetter == true)
            #expect(code.summary.hasSuffix("."))
            #expect(!code.summary.dropLast().contains(". "))
            #expect(code.description == code.rawValue)
        }
    }

    @Test("init(rawValue:) finds the emitted codes; other codes are warnings")
    func rawValues() {
        for code in LintCode.all {
            let parsed = LintCode(rawValue: code.rawValue)
            #expect(parsed == code)
            #expect(parsed.severity == code.severity)
            #expect(parsed.summary == code.summary)
        }
        let other = LintCode(rawValue: "some-future-code")
        #expect(other.rawValue == "some-future-code")
        #expect(other.severity == .warning)
        #expect(!LintCode.all.contains(other))
    }

    @Test("Severity raw values")
    func severities() {
        #expect(LintSeverity.allCases.map(\.rawValue) == ["error", "warning"])
    }
}
