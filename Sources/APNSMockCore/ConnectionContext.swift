/// What the rules know about the connection a request arrived on, and the time.
public struct ConnectionContext: Sendable {
    /// The environment this request is judged in.
    public var environment: APNSEnvironment
    /// Token or certificate authentication.
    public var authentication: AuthenticationMode
    /// What this connection has accepted so far (token authentication).
    public var authState: ConnectionAuthState
    /// Keys, devices and known tokens.
    public var registry: RegistrySnapshot
    /// Now, epoch milliseconds (the server clock, injectable in tests).
    public var now: Int64

    public init(
        environment: APNSEnvironment = .sandbox, authentication: AuthenticationMode = .token,
        authState: ConnectionAuthState = ConnectionAuthState(), registry: RegistrySnapshot = RegistrySnapshot(),
        now: Int64 = 0
    ) {
        self.environment = environment
        self.authentication = authentication
        self.authState = authState
        self.registry = registry
        self.now = now
    }
}
