/// What the TLS layer learned about a client certificate, for the rules.
public struct CertificateIdentity: Sendable, Hashable {
    /// The subject, as text, for the record.
    public var subject: String
    /// The topics the certificate may push to (the subject UID when it lists none).
    public var topics: [String]
    /// The subject UID, the default topic of a single-topic certificate.
    public var bundleID: String?
    public var environment: EnvironmentScope
    /// `nil` when the certificate chains to the client CA and is within its validity; else why not.
    public var verificationError: String?

    public init(
        subject: String, topics: [String], bundleID: String?, environment: EnvironmentScope,
        verificationError: String? = nil
    ) {
        self.subject = subject
        self.topics = topics
        self.bundleID = bundleID
        self.environment = environment
        self.verificationError = verificationError
    }

    /// More than one topic: `apns-topic` is required.
    public var isMultiTopic: Bool { topics.count > 1 }
}
