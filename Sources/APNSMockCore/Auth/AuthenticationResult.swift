/// What the authentication step learned about a push, for the record (`auth` in the admin API).
public struct AuthenticationResult: Sendable, Hashable {
    public enum Method: String, Sendable { case token, certificate }

    public var method: Method
    public var teamID: String?
    public var keyID: String?
    /// Token auth: the signature was checked against a registered key.
    public var signatureVerified: Bool
    /// Token auth: the key id is not registered (open mode accepts it unverified).
    public var keyUnknown: Bool
    public var certificateSubject: String?
    public var certificateTopics: [String]

    public init(
        method: Method, teamID: String? = nil, keyID: String? = nil, signatureVerified: Bool = false,
        keyUnknown: Bool = false, certificateSubject: String? = nil, certificateTopics: [String] = []
    ) {
        self.method = method
        self.teamID = teamID
        self.keyID = keyID
        self.signatureVerified = signatureVerified
        self.keyUnknown = keyUnknown
        self.certificateSubject = certificateSubject
        self.certificateTopics = certificateTopics
    }
}
