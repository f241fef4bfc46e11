/// How the server chooses the environment of a connection.
public enum EnvironmentMode: String, Sendable, Hashable, CaseIterable {
    case sandbox
    case production
    /// From the TLS server name or `:authority` when it is one of Apple's hosts, else sandbox.
    case auto

    /// The environment for a request, given the TLS server name and the request's authority.
    public func resolve(serverName: String?, authority: String?) -> APNSEnvironment {
        switch self {
        case .sandbox: return .sandbox
        case .production: return .production
        case .auto:
            if let serverName, let env = APNSEnvironment.forAppleHost(serverName) { return env }
            if let authority, let env = APNSEnvironment.forAppleHost(authority) { return env }
            return .sandbox
        }
    }
}
