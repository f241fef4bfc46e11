/// The numbers behind the report's findings. `standard` is what the admin API uses and what
/// `BehaviorCode.threshold` and docs/REPORT.md say.
public struct BehaviorThresholds: Sendable, Hashable {
    /// A new provider token for a key sooner than this after the previous one is too soon
    /// (Apple: no more than once every 20 minutes).
    public var tokenRefreshMinimumSeconds: Int64 = 20 * 60
    /// A token used longer than this after its `iat` is too old (Apple: at least once an hour).
    public var tokenLifetimeMaximumSeconds: Int64 = 60 * 60
    /// A re-send sooner than this after a 429 or 503 answer has no backoff.
    public var backoffMinimumMilliseconds: Int64 = 1000
    /// Churn: this many short connections...
    public var churnConnections = 5
    /// ...opened within this span...
    public var churnWindowMilliseconds: Int64 = 60_000
    /// ...each carrying at most this many pushes.
    public var churnPushesPerConnection = 1
    /// Collapse ids are judged once the provider sent at least this many accepted pushes with
    /// one.
    public var collapseMinimumPushes = 2
    /// Example deliveries named per finding.
    public var examples = 3

    public init() {}

    /// The documented thresholds.
    public static let standard = BehaviorThresholds()
}
