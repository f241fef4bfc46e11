/// What the rules know about the connection a request arrived on.
public struct ConnectionContext: Sendable {
    /// The environment this request is judged in.
    public var environment: APNSEnvironment
    /// Whether `apns-topic` is required (token authentication, multi-topic certificates).
    public var topicRequired: Bool

    public init(environment: APNSEnvironment = .sandbox, topicRequired: Bool = true) {
        self.environment = environment
        self.topicRequired = topicRequired
    }
}
