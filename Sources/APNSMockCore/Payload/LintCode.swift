/// The stable code of a payload-lint finding, such as `badge-not-integer`.
///
/// Open like `APNSReason`: any string is a code (a filter may name one this version does not
/// emit), and the static members are the codes the analyzer emits. Each of those has exactly one
/// severity and a one-sentence summary; `all` lists them in the order the analyzer reports them:
/// the whole payload, then the keys of `aps`, then the payload against the headers.
public struct LintCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    /// How serious a finding with this code is (a code the analyzer does not emit: `warning`).
    public let severity: LintSeverity
    /// One sentence describing the code, for the table of docs/LINT-CODES.md.
    public let summary: String

    /// The code `rawValue`, with its severity and summary when the analyzer emits it.
    public init(rawValue: String) {
        if let known = Self.byRawValue[rawValue] {
            self = known
        } else {
            self.init(rawValue, .warning, "A code this version of apns-mock does not emit.")
        }
    }

    /// The code `rawValue` (same as `init(rawValue:)`).
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }

    private init(_ rawValue: String, _ severity: LintSeverity, _ summary: String) {
        self.rawValue = rawValue
        self.severity = severity
        self.summary = summary
    }

    public var description: String { rawValue }

    public static func == (lhs: LintCode, rhs: LintCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    // MARK: The whole payload

    public static let payloadEmpty = LintCode(
        "payload-empty", .error, "The payload has no bytes; APNs answers 400 PayloadEmpty.")
    public static let payloadTooLarge = LintCode(
        "payload-too-large", .error,
        "The payload is larger than the push type's limit (or --payload-limit); APNs answers 413 PayloadTooLarge.")
    public static let payloadNearLimit = LintCode(
        "payload-near-limit", .warning, "The payload uses more than 95 % of its size limit.")
    public static let payloadTruncated = LintCode(
        "payload-truncated", .warning,
        "Only the first bytes of an oversized payload were kept, so the rest was not checked.")
    public static let payloadNotJSON = LintCode(
        "payload-not-json", .error, "The payload is not valid JSON (RFC 8259, UTF-8).")
    public static let payloadNotObject = LintCode(
        "payload-not-object", .error, "The payload is JSON but not a dictionary (object).")
    public static let apsMissing = LintCode(
        "aps-missing", .error,
        "The payload has no aps dictionary, which alert, background, liveactivity and widgets pushes need.")
    public static let apsNotObject = LintCode(
        "aps-not-object", .error, "The aps key is not a dictionary.")

    // MARK: The keys of aps

    public static let apsUnknownKey = LintCode(
        "aps-unknown-key", .warning, "A key inside aps that Apple does not define; devices ignore it.")
    public static let apsKeyWrongType = LintCode(
        "aps-key-wrong-type", .error,
        "A key of aps has the wrong JSON type (for example a number for category, or a string for timestamp).")
    public static let alertKeyWrongType = LintCode(
        "alert-key-wrong-type", .error,
        "A key of the alert dictionary has the wrong JSON type "
            + "(texts and loc keys are strings, loc-args arrays of strings).")
    public static let alertUnknownKey = LintCode(
        "alert-unknown-key", .warning, "A key inside the alert dictionary that Apple does not define.")
    public static let alertUnsupportedEscape = LintCode(
        "alert-unsupported-escape", .error,
        "Alert text contains a \\U escape, which devices show literally; send the UTF-8 character instead.")
    public static let locKeyNotFound = LintCode(
        "loc-key-not-found", .warning,
        "A loc key is missing from the loaded strings of the device's locale, so the device shows the key itself.")
    public static let locArgsCountMismatch = LintCode(
        "loc-args-count-mismatch", .error,
        "The number of loc-args differs from the number of placeholders in the localized format.")
    public static let badgeNotInteger = LintCode(
        "badge-not-integer", .error, "The badge is not an integer.")
    public static let badgeNegative = LintCode(
        "badge-negative", .error, "The badge is a negative integer.")
    public static let soundCriticalInvalid = LintCode(
        "sound-critical-invalid", .error, "The sound dictionary's critical is not 0 or 1.")
    public static let soundNameNotString = LintCode(
        "sound-name-not-string", .error, "The sound dictionary's name is not a string.")
    public static let soundNameMissing = LintCode(
        "sound-name-missing", .warning, "The sound dictionary has no name, so no sound file is named.")
    public static let soundVolumeInvalid = LintCode(
        "sound-volume-invalid", .error, "The sound dictionary's volume is not a number from 0 to 1.")
    public static let soundUnknownKey = LintCode(
        "sound-unknown-key", .warning, "A key inside the sound dictionary other than critical, name and volume.")
    public static let contentAvailableInvalid = LintCode(
        "content-available-invalid", .error, "content-available has a value other than 1.")
    public static let mutableContentInvalid = LintCode(
        "mutable-content-invalid", .error, "mutable-content has a value other than 1.")
    public static let interruptionLevelInvalid = LintCode(
        "interruption-level-invalid", .error,
        "interruption-level is not one of passive, active, time-sensitive and critical.")
    public static let relevanceScoreInvalid = LintCode(
        "relevance-score-invalid", .error,
        "relevance-score is not a number from 0 to 1 (any number for a Live Activity).")
    public static let eventInvalid = LintCode(
        "event-invalid", .error, "The Live Activity event is not one of start, update and end.")
    public static let inputPushTokenInvalid = LintCode(
        "input-push-token-invalid", .error, "input-push-token has a value other than 1.")

    // MARK: The payload against the headers

    public static let pushTypeHeaderMissing = LintCode(
        "push-type-header-missing", .warning,
        "The apns-push-type header is missing; watchOS requires it and Apple recommends it everywhere.")
    public static let topicMissingSuffix = LintCode(
        "topic-missing-suffix", .error,
        "The topic lacks the suffix the push type requires (such as .voip or .push-type.liveactivity).")
    public static let topicPushTypeMismatch = LintCode(
        "topic-push-type-mismatch", .error, "The topic ends with the suffix of another push type.")
    public static let backgroundPriorityNotFive = LintCode(
        "background-priority-not-5", .error, "A background push is sent without apns-priority 5.")
    public static let contentAvailableHighPriority = LintCode(
        "content-available-high-priority", .error,
        "content-available 1 with no alert, sound or badge is sent with priority 10 (explicit or by default); "
            + "background updates need priority 5.")
    public static let backgroundMissingContentAvailable = LintCode(
        "background-missing-content-available", .error, "A background push lacks content-available 1.")
    public static let backgroundNotSilent = LintCode(
        "background-not-silent", .error, "A background push carries an alert, a sound or a badge.")
    public static let alertNothingToShow = LintCode(
        "alert-nothing-to-show", .error, "An alert push has no text, no sound and no badge.")
    public static let liveActivityMissingKey = LintCode(
        "liveactivity-missing-key", .error,
        "A Live Activity push lacks a key its event needs "
            + "(event, timestamp, content-state, attributes-type, attributes, and alert to start one).")
    /// Apple ("Sending broadcast push notification requests to APNs", ActivityKit's "Starting and
    /// updating Live Activities with ActivityKit push notifications"): a broadcast updates or
    /// ends the Live Activities subscribed to a channel, and cannot start one.
    public static let broadcastStartsActivity = LintCode(
        "broadcast-starts-activity", .error,
        "A broadcast carries a start event or attributes, but a broadcast cannot start a Live Activity; "
            + "start it with a push-to-start to a device token.")
    /// ActivityKit asks for priority 5 or 10 on Live Activity updates; APNs accepts 1.
    public static let broadcastPriorityOne = LintCode(
        "broadcast-priority-1", .warning,
        "A broadcast is sent with apns-priority 1, but ActivityKit asks for 5 or 10 on Live Activity updates.")

    // MARK: A Declarative Web Push message (the plaintext of a web push: WebKit's "Meet
    // Declarative Web Push", Safari 18.4; the W3C Push API's declarative push message)

    /// `web_push` is there but is not the number 8030.
    public static let webPushNot8030 = LintCode(
        "web-push-not-8030", .error, "web_push is not 8030, so the message is not a declarative push message.")
    /// `notification` is missing or not a dictionary.
    public static let notificationMissing = LintCode(
        "notification-missing", .error, "A declarative push message needs a notification dictionary.")
    /// `notification.title` is missing or not a string.
    public static let notificationTitleMissing = LintCode(
        "notification-title-missing", .error, "A declarative push message's notification needs a title string.")
    /// `notification.navigate` is missing or not a string.
    public static let notificationNavigateMissing = LintCode(
        "notification-navigate-missing", .error,
        "A declarative push message's notification needs navigate, the URL a tap opens.")
    /// An entry of `notification.actions` lacks `action`, `title` or `navigate`.
    public static let notificationActionIncomplete = LintCode(
        "notification-action-incomplete", .error, "An entry of notification.actions lacks action, title or navigate.")
    /// `notification.dir` is not `auto`, `ltr` or `rtl`.
    public static let notificationDirInvalid = LintCode(
        "notification-dir-invalid", .warning, "notification.dir is not auto, ltr or rtl.")
    /// A member the spec makes a boolean (`silent`, `renotify`, `requireInteraction`, `mutable`)
    /// is not one.
    public static let declarativeNotBoolean = LintCode(
        "declarative-not-boolean", .warning,
        "A member that is a boolean in the spec (silent, renotify, requireInteraction, mutable) is not one.")
    /// A member the spec makes a string (`body`, `lang`, `tag`, `icon`, `image`, `badge`) is not one.
    public static let declarativeNotString = LintCode(
        "declarative-not-string", .warning,
        "A member that is a string in the spec (body, lang, tag, icon, image, badge) is not one.")
    /// `app_badge` or `notification.timestamp` is not a whole number from 0 to 2^64−1.
    public static let declarativeNotUnsignedInteger = LintCode(
        "declarative-not-unsigned-integer", .warning,
        "app_badge or notification.timestamp is not a whole number from 0 to 2^64-1.")
    /// `require_interaction` (snake case): the member is `requireInteraction`.
    public static let notificationRequireInteractionSpelling = LintCode(
        "notification-require-interaction-spelling", .warning,
        "notification.require_interaction is spelled requireInteraction.")

    /// Every code the analyzer emits, in the order it reports them.
    public static let all: [LintCode] =
        [
            .payloadEmpty, .payloadTooLarge, .payloadNearLimit, .payloadTruncated, .payloadNotJSON,
            .payloadNotObject, .apsMissing, .apsNotObject,
            .apsUnknownKey, .apsKeyWrongType, .alertKeyWrongType, .alertUnknownKey, .alertUnsupportedEscape,
            .locKeyNotFound, .locArgsCountMismatch, .badgeNotInteger, .badgeNegative, .soundCriticalInvalid,
            .soundNameNotString, .soundNameMissing, .soundVolumeInvalid, .soundUnknownKey,
            .contentAvailableInvalid, .mutableContentInvalid, .interruptionLevelInvalid, .relevanceScoreInvalid,
            .eventInvalid, .inputPushTokenInvalid,
            .pushTypeHeaderMissing, .topicMissingSuffix, .topicPushTypeMismatch, .backgroundPriorityNotFive,
            .contentAvailableHighPriority, .backgroundMissingContentAvailable, .backgroundNotSilent,
            .alertNothingToShow, .liveActivityMissingKey, .broadcastStartsActivity, .broadcastPriorityOne,
        ] + declarativeWebPush

    /// The codes of a web push's Declarative Web Push message (`DeclarativeWebPushLinter`), the
    /// last group of `all`.
    public static let declarativeWebPush: [LintCode] = [
        .webPushNot8030, .notificationMissing, .notificationTitleMissing, .notificationNavigateMissing,
        .notificationActionIncomplete, .notificationDirInvalid, .declarativeNotBoolean, .declarativeNotString,
        .declarativeNotUnsignedInteger, .notificationRequireInteractionSpelling,
    ]

    private static let byRawValue: [String: LintCode] = Dictionary(
        all.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
}
