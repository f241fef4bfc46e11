/// What the payload analyzer found: lint findings, what a device would show, and the size.
public struct PayloadAnalysis: Sendable, Hashable {
    /// Findings: whole-payload findings (size, structure) first, then the payload's keys in
    /// document order, then the findings about the payload and the headers together.
    public var findings: [LintFinding]
    /// What the device would show; `nil` when the payload is not a JSON object.
    public var preview: NotificationPreview?
    /// The exact number of bytes received.
    public var byteCount: Int
    /// The size limit applied: the override, else the push type's.
    public var limit: Int
    /// `limit - byteCount`: negative when the payload is over the limit.
    public var bytesRemaining: Int
    /// `aps["input-push-channel"]` when it is a string: the channel a push-to-start subscribes
    /// the activity it starts to (the caller decides whether the push was one).
    public var inputPushChannel: String?

    public init(
        findings: [LintFinding], preview: NotificationPreview?, byteCount: Int, limit: Int,
        inputPushChannel: String? = nil
    ) {
        self.inputPushChannel = inputPushChannel
        self.findings = findings
        self.preview = preview
        self.byteCount = byteCount
        self.limit = limit
        self.bytesRemaining = limit - byteCount
    }

    /// Whether any finding is an error.
    public var hasErrors: Bool { has(severity: .error) }

    /// Whether any finding has exactly `severity`.
    public func has(severity: LintSeverity) -> Bool { findings.contains { $0.severity == severity } }

    /// The findings' codes, in order.
    public var codes: [LintCode] { findings.map(\.code) }
}
