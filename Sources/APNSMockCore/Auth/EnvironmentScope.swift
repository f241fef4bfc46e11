/// Where a key or certificate may be used: one environment, or both.
public enum EnvironmentScope: String, Sendable, Hashable, CaseIterable, Codable {
    case sandbox, production, both

    /// Whether this scope covers `environment`.
    public func allows(_ environment: APNSEnvironment) -> Bool {
        switch self {
        case .both: return true
        case .sandbox: return environment == .sandbox
        case .production: return environment == .production
        }
    }

    /// The scope in words, for a rejection's detail: `sandbox`, `production`, `either environment`.
    var words: String { self == .both ? "either environment" : rawValue }
}
