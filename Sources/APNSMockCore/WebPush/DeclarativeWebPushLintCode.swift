/// The code of a finding about a Declarative Web Push message (the JSON plaintext of a web push
/// that Safari 18.4 shows without a service worker: WebKit's "Meet Declarative Web Push", the
/// W3C Push API's declarative push message), with its severity and a one-sentence summary.
///
/// Kept apart from the `aps` codes of `LintCode`; whoever wires web push records into the lint
/// matcher can fold them in.
public enum DeclarativeWebPushLintCode: String, Sendable, Hashable, CaseIterable {
    /// `web_push` is there but is not the number 8030.
    case webPushNot8030 = "web-push-not-8030"
    /// `notification` is missing or not a dictionary.
    case notificationMissing = "notification-missing"
    /// `notification.title` is missing or not a string.
    case titleMissing = "notification-title-missing"
    /// `notification.navigate` is missing or not a string.
    case navigateMissing = "notification-navigate-missing"
    /// `notification.dir` is not `auto`, `ltr` or `rtl`.
    case dirInvalid = "notification-dir-invalid"
    /// A member the spec makes a boolean (`silent`, `renotify`, `requireInteraction`, `mutable`)
    /// is not one.
    case notBoolean = "declarative-not-boolean"
    /// A member the spec makes a string (`body`, `lang`, `tag`, `icon`, `image`, `badge`) is not
    /// one.
    case notString = "declarative-not-string"
    /// `app_badge` or `notification.timestamp` is not a whole number from 0 to 2^64−1.
    case notUnsignedInteger = "declarative-not-unsigned-integer"
    /// An entry of `notification.actions` lacks `action`, `title` or `navigate`.
    case actionIncomplete = "notification-action-incomplete"
    /// `require_interaction` (snake case): the member is `requireInteraction`.
    case requireInteractionSpelling = "notification-require-interaction-spelling"

    /// How serious a finding with this code is: an `error` when the message is not declarative
    /// (the browser falls back to the service worker, or shows nothing), else a `warning`.
    public var severity: LintSeverity {
        switch self {
        case .webPushNot8030, .notificationMissing, .titleMissing, .navigateMissing, .actionIncomplete: .error
        case .dirInvalid, .notBoolean, .notString, .notUnsignedInteger, .requireInteractionSpelling: .warning
        }
    }

    /// One sentence describing the code.
    public var summary: String {
        switch self {
        case .webPushNot8030:
            "web_push is not 8030, so the message is not a declarative push message."
        case .notificationMissing:
            "A declarative push message needs a notification dictionary."
        case .titleMissing:
            "A declarative push message's notification needs a title string."
        case .navigateMissing:
            "A declarative push message's notification needs navigate, the URL a tap opens."
        case .dirInvalid:
            "notification.dir is not auto, ltr or rtl."
        case .notBoolean:
            "A member that is a boolean in the spec (silent, renotify, requireInteraction, mutable) is not one."
        case .notString:
            "A member that is a string in the spec (body, lang, tag, icon, image, badge) is not one."
        case .notUnsignedInteger:
            "app_badge or notification.timestamp is not a whole number from 0 to 2^64-1."
        case .actionIncomplete:
            "An entry of notification.actions lacks action, title or navigate."
        case .requireInteractionSpelling:
            "notification.require_interaction is spelled requireInteraction."
        }
    }
}
