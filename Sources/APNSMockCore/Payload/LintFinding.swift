/// One problem the payload analyzer found: a stable code, where, and a sentence about it.
public struct LintFinding: Sendable, Hashable {
    /// What is wrong, as a stable code.
    public var code: LintCode
    /// The code's severity (always `code.severity`).
    public var severity: LintSeverity
    /// Where: a JSON path from the payload root such as `aps.badge` or `aps.alert.loc-args[1]`,
    /// `""` for the whole payload, or `header:<name>` (`header:apns-priority`) for a header.
    public var path: String
    /// One plain sentence naming the key and the problem.
    public var message: String

    /// A finding of `code` at `path`; the severity is the code's.
    public init(code: LintCode, path: String, message: String) {
        self.code = code
        self.severity = code.severity
        self.path = path
        self.message = message
    }

    /// Writes `{"code","severity","path","message"}`.
    public func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("code")
        writer.string(code.rawValue)
        writer.key("severity")
        writer.string(severity.rawValue)
        writer.key("path")
        writer.string(path)
        writer.key("message")
        writer.string(message)
        writer.endObject()
    }
}
