/// How serious a provider-behaviour finding is, from least to most: `info` (worth knowing),
/// `warning` (Apple advises against it; APNs may throttle or distrust it), `error` (APNs
/// rejects it, or Apple says not to do it).
public enum BehaviorSeverity: String, Sendable, Hashable, CaseIterable, Comparable {
    case info, warning, error

    /// The rank used for ordering: `info` < `warning` < `error`.
    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: BehaviorSeverity, rhs: BehaviorSeverity) -> Bool { lhs.rank < rhs.rank }
}
