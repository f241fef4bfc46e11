/// `--throttle R/W`: more than `pushes` pushes to one device token within `window` are
/// answered 429 TooManyRequests.
public struct ThrottleLimit: Sendable, Hashable, CustomStringConvertible {
    /// Pushes allowed per token within the window.
    public var pushes: Int
    /// The sliding window, milliseconds.
    public var windowMilliseconds: Int64

    public init(pushes: Int, windowMilliseconds: Int64) {
        self.pushes = pushes
        self.windowMilliseconds = windowMilliseconds
    }

    /// Reads `3/10s`, `100/1m`, `5/30` (a bare number is seconds).
    /// - Throws: `FaultRuleError` whose message follows the setting's name (`--throttle must be …`).
    public init(parsing text: String) throws(FaultRuleError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let pushes = Int(parts[0]), pushes >= 1 else {
            throw FaultRuleError("must be PUSHES/WINDOW such as 3/10s (at least 1 push); got '\(text)'")
        }
        let window = String(parts[1])
        let seconds = DurationText.seconds(window)
        guard let seconds, seconds > 0, seconds <= 86_400 else {
            throw FaultRuleError("must have a WINDOW that is a duration such as 10s or 1m (up to 24h); got '\(window)'")
        }
        self.init(pushes: pushes, windowMilliseconds: Int64((seconds * 1000).rounded()))
    }

    /// `3/10s`.
    public var description: String {
        "\(pushes)/\(DurationText.format(seconds: Double(windowMilliseconds) / 1000))"
    }
}
