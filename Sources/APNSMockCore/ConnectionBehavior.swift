/// A connection-level habit of APNs that providers have reported, which the mock reproduces
/// when switched on (`--behavior NAME`, `POST /v1/behaviors`). All are off by default: each
/// was seen at some time, none is documented by Apple.
public enum ConnectionBehavior: String, Sendable, Hashable, CaseIterable {
    /// After a rejected push, MAX_CONCURRENT_STREAMS 1 on that connection until the next
    /// accepted push restores the limit (openradar 27870881; Pushy #732).
    case streamsAfterRejection = "streams-after-rejection"
    /// After an ExpiredProviderToken the connection announces 1 stream, refuses the streams
    /// already open (RST_STREAM REFUSED_STREAM) and answers every later push 403
    /// ExpiredProviderToken, a fresh token or not; a new connection works (Pushy #476, #783).
    case expiredTokenPoison = "expired-token-poison"
    /// After a 429 TooManyProviderTokenUpdates the connection keeps answering 429 for a while
    /// (`lockout`, default 60 s).
    case tokenUpdateLockout = "token-update-lockout"
    /// A client that opens more streams than the connection allows (after acknowledging the
    /// SETTINGS that announced the limit) gets GOAWAY REFUSED_STREAM with the plain-text debug
    /// data `Maximum active streams violated for this endpoint.` and the connection closes,
    /// instead of an RST_STREAM for the one stream too many (Pushy #356).
    case streamLimitGoAway = "stream-limit-goaway"

    /// The names, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// How long `token-update-lockout` lasts unless told otherwise.
    public static let defaultLockoutMilliseconds: Int64 = 60_000

    /// The GOAWAY debug data of `stream-limit-goaway`, as providers saw it from APNs.
    public static let streamLimitDebugText = "Maximum active streams violated for this endpoint."
}

extension ConnectionBehavior {
    /// Reads `NAME` or `token-update-lockout=DURATION` (`--behavior`, `behaviors:` in the
    /// configuration file): the behavior and, for the lockout, its length in milliseconds.
    /// - Throws: `FaultRuleError` whose message follows the setting's name (`--throttle must be …`).
    public static func parse(spec: String) throws(FaultRuleError) -> (ConnectionBehavior, Int64?) {
        let parts = spec.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let behavior = ConnectionBehavior(rawValue: String(parts[0])) else {
            throw FaultRuleError("must be one of \(names); got '\(parts[0])'")
        }
        guard parts.count == 2 else { return (behavior, nil) }
        guard behavior == .tokenUpdateLockout else {
            throw FaultRuleError(
                "takes a duration only for token-update-lockout (token-update-lockout=30s); got '\(spec)'")
        }
        guard let seconds = DurationText.seconds(String(parts[1])), seconds > 0, seconds <= 86_400 else {
            throw FaultRuleError(
                "needs a duration such as 30s or 2m (up to 24h); got '\(parts[1])'")
        }
        return (behavior, Int64((seconds * 1000).rounded()))
    }
}
