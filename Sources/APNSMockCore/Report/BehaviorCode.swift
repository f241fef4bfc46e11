/// The stable code of a provider-behaviour finding, such as `push-after-unregistered`.
///
/// Each code the report emits has one severity, a threshold written out (what counts), the
/// Apple page or header the finding rests on, and a one-sentence summary; `all` lists them in
/// the order the report gives them. docs/REPORT.md has a row for each
/// (`ReportCodeDocumentationTests` checks it).
public struct BehaviorCode: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public let severity: BehaviorSeverity
    /// What counts, in words, with the numbers of `BehaviorThresholds.standard`.
    public let threshold: String
    /// The Apple page (or header) behind the finding.
    public let source: String
    /// One sentence saying what the code means.
    public let summary: String

    private init(_ rawValue: String, _ severity: BehaviorSeverity, threshold: String, source: String, _ summary: String)
    {
        self.rawValue = rawValue
        self.severity = severity
        self.threshold = threshold
        self.source = source
        self.summary = summary
    }

    public var description: String { rawValue }

    public static func == (lhs: BehaviorCode, rhs: BehaviorCode) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    static let troubleshooting = "Troubleshooting push notifications"
    static let sending = "Sending notification requests to APNs"
    static let responses = "Handling notification responses from APNs"
    static let tokenConnection = "Establishing a token-based connection to APNs"

    // MARK: Connections

    public static let connectionChurn = BehaviorCode(
        "connection-churn", .warning,
        threshold: "5 or more closed connections that carried at most 1 push each, opened within 60 s",
        source: "\(troubleshooting); \(sending)",
        "The provider opens a connection per push (or nearly): Apple asks providers to keep connections open "
            + "and warns that repeatedly opening and closing them may be treated as a denial-of-service attack.")
    public static let streamsRefused = BehaviorCode(
        "streams-refused", .warning,
        threshold: "any RST_STREAM REFUSED_STREAM the server sent on the provider's connections",
        source: "\(sending); HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §5.1.2)",
        "The provider opened more streams than the connection's announced MAX_CONCURRENT_STREAMS "
            + "(or before the raised limit arrived), so the server refused some.")
    public static let concurrencyAtLimit = BehaviorCode(
        "concurrency-at-limit", .info,
        threshold: "streams in flight on a connection reached the largest MAX_CONCURRENT_STREAMS it announced",
        source: "\(sending); HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS (RFC 9113 §5.1.2)",
        "A connection was used up to its stream limit; more pushes waited for a free stream.")

    // MARK: Provider tokens

    public static let providerTokenRefreshedTooOften = BehaviorCode(
        "provider-token-refreshed-too-often", .warning,
        threshold: "a new provider token (a new iat) for a key less than 20 minutes after the previous one",
        source: tokenConnection,
        "The provider mints tokens more often than Apple allows (no more than once every 20 minutes).")
    public static let providerTokenTooOld = BehaviorCode(
        "provider-token-too-old", .error,
        threshold: "a push whose provider token was issued (iat) more than 60 minutes before it was sent",
        source: "\(tokenConnection); \(responses) (403 ExpiredProviderToken)",
        "The provider keeps a token longer than an hour; APNs answers 403 ExpiredProviderToken.")
    public static let tooManyProviderTokenUpdates = BehaviorCode(
        "too-many-provider-token-updates", .error,
        threshold: "any 429 TooManyProviderTokenUpdates answer",
        source: "\(responses); \(tokenConnection)",
        "APNs refused a push because the connection's provider token changed too soon.")

    // MARK: Answers the provider ignored

    public static let pushAfterUnregistered = BehaviorCode(
        "push-after-unregistered", .error,
        threshold: "any push to a device token sent after that token was answered 410 (until a push to it succeeds)",
        source: responses,
        "The provider keeps pushing to a device token that APNs said is no longer valid (410 Unregistered "
            + "or ExpiredToken): it should stop.")
    public static let nonRetryableRetried = BehaviorCode(
        "non-retryable-retried", .error,
        threshold:
            "a request re-sent unchanged (same apns-id, or same device token and payload; same topic, push type, "
            + "priority, expiration and collapse id; for a 403 the same provider token) after a 400, 403 or 413 answer",
        source: responses,
        "The provider retries a request APNs rejected for what it is; it fails the same way until it changes.")
    public static let retryWithoutBackoff = BehaviorCode(
        "retry-without-backoff", .warning,
        threshold:
            "a push to the same device token (or with the same apns-id) less than 1 s after a 429 TooManyRequests "
            + "or 503 ServiceUnavailable answer",
        source: "\(responses); \(troubleshooting)",
        "The provider does not back off after APNs said it was sending too much, or was unavailable.")

    public static let answeredPushResent = BehaviorCode(
        "answered-push-resent", .error,
        threshold: "a push answered 200 under an apns-id that an earlier push of the provider was answered 200 under",
        source: "\(sending) (apns-id); \(responses) (200: APNs accepted the notification)",
        "The provider re-sends a push it was answered for: the device receives it twice. Seen with aioapns, "
            + "which sends again when its HTTP/2 library fails on a frame that follows the answer.")

    // MARK: After the 200 (what became of accepted pushes)

    static let pushStatus = "Viewing the status of push notifications using Metrics and APNs"

    public static let expirationZeroDiscarded = BehaviorCode(
        "expiration-zero-discarded", .warning,
        threshold:
            "any push with apns-expiration 0 that APNs discarded (expired) because the device could not take it "
            + "at once (offline, saving power, over its background budget)",
        source: "\(sending) (apns-expiration); \(pushStatus)",
        "apns-expiration 0 means deliver once or never: pushes to a device that was offline were lost. An "
            + "expiration in the future lets APNs store the newest one until the device is back.")
    public static let collapseIDNeverCollapses = BehaviorCode(
        "collapse-id-never-collapses", .info,
        threshold:
            "a collapse id sent in only one accepted push to each device it went to, when the provider sent 2 or "
            + "more accepted pushes with a collapse id",
        source: "\(sending) (apns-collapse-id)",
        "Notifications with the same apns-collapse-id are shown as one; an id no later push to the device reuses "
            + "groups nothing (often a unique value per push passed as the collapse id).")
    public static let pushAfterTokenInactive = BehaviorCode(
        "push-after-token-inactive", .info,
        threshold:
            "any push to a device token after APNs accepted a push to it and discarded it because the app is not "
            + "installed (tokenInactive), until a push to it is delivered or stored",
        source: "\(pushStatus); \(responses) (410 Unregistered)",
        "The app is no longer on the device: APNs accepts its pushes and discards them until it answers 410 "
            + "Unregistered; the Push Notifications Console's delivery log shows it before the 410.")

    // MARK: Push type, priority and payload

    public static let backgroundPriority10 = BehaviorCode(
        "background-priority-10", .error,
        threshold: "a push with apns-push-type background and apns-priority 10",
        source: "\(sending) (apns-priority); \(responses) (400 BadPriority)",
        "Background pushes must use priority 5 (or 1); APNs answers 400 BadPriority.")
    public static let pushTypeMissing = BehaviorCode(
        "push-type-missing", .warning,
        threshold: "a device push without an apns-push-type header",
        source: "\(sending) (apns-push-type)",
        "Apple requires apns-push-type on watchOS and recommends it everywhere.")
    public static let payloadLintErrors = BehaviorCode(
        "payload-lint-errors", .error,
        threshold: "any payload lint finding of severity error (docs/LINT-CODES.md)",
        source: "\(sending); Generating a remote notification",
        "Payloads that APNs rejects or a device mishandles; the report counts them by lint code.")
    public static let payloadLintWarnings = BehaviorCode(
        "payload-lint-warnings", .info,
        threshold: "any payload lint finding of severity warning, except push-type-header-missing "
            + "(reported as push-type-missing)",
        source: "Generating a remote notification",
        "Payload keys a device ignores or that are likely mistakes; the report counts them by lint code.")

    /// Every code the report emits, in the order it lists findings of one severity.
    // MARK: Web Push
    static let webPush = "Sending web push notifications in web apps and browsers"

    public static let webPushUndecryptable = BehaviorCode(
        "webpush-undecryptable", .error,
        threshold: "any accepted web push whose body did not decrypt with its subscription's keys",
        source: "\(webPush); RFC 8291 (aes128gcm with the subscription's p256dh and auth)",
        "The provider encrypts for the wrong keys, or encrypts wrongly: Apple accepts the push (201) but the "
            + "browser cannot read it and shows nothing.")
    public static let webPushTTLZeroDiscarded = BehaviorCode(
        "webpush-ttl-zero-discarded", .warning,
        threshold:
            "any web push with TTL 0 that was discarded (expired) because the subscription's browser could not "
            + "take it at once (offline, saving power)",
        source: "\(webPush); RFC 8030 §5.2 (TTL)",
        "TTL 0 means deliver now or never: pushes to a browser that was offline were lost. A TTL in seconds lets "
            + "the push service keep the newest one until the browser is back.")
    public static let vapidTokenExpired = BehaviorCode(
        "vapid-token-expired", .error,
        threshold: "any web push whose VAPID JWT's exp had passed when it was sent",
        source: "\(webPush) (403 BadJwtToken); RFC 8292 §2 (exp)",
        "The provider reuses a VAPID token past its exp; Apple answers 403 BadJwtToken. Sign a new one before "
            + "the old one expires (at most 24 hours ahead).")

    public static let all: [BehaviorCode] = [
        .connectionChurn, .streamsRefused, .concurrencyAtLimit,
        .providerTokenRefreshedTooOften, .providerTokenTooOld, .tooManyProviderTokenUpdates,
        .pushAfterUnregistered, .nonRetryableRetried, .retryWithoutBackoff, .answeredPushResent,
        .expirationZeroDiscarded, .collapseIDNeverCollapses, .pushAfterTokenInactive,
        .backgroundPriority10, .pushTypeMissing, .payloadLintErrors, .payloadLintWarnings,
        .webPushUndecryptable, .webPushTTLZeroDiscarded, .vapidTokenExpired,
    ]
}
