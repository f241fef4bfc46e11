/// How serious a payload-lint finding is.
///
/// An `error` is something APNs rejects or a device mishandles (the notification is dropped,
/// throttled or shown wrongly); a `warning` is something a device ignores or that is likely a
/// mistake but does no harm by itself.
public enum LintSeverity: String, Sendable, Hashable, CaseIterable {
    case error, warning
}
