/// Server-wide options that change what the rules accept.
public struct ValidationPolicy: Sendable, Hashable {
    /// Reject a payload that is not a JSON object, or whose lint has an error-level finding,
    /// with 400 `BadRequestPayload` (the mock's own choice: APNs accepts such payloads, and
    /// Apple documents no reason for them on `/3/device`).
    public var strictPayload: Bool
    /// Localizations, default locale and payload limit (`--localizations`, `--locale`,
    /// `--payload-limit`).
    public var payloadAnalysis: PayloadAnalysisOptions
    /// Unknown device tokens get BadDeviceToken and unknown key ids InvalidProviderToken.
    /// Off (the default): any well-formed token is accepted, and a provider token signed by an
    /// unknown key is accepted after its structure and claims are checked.
    public var strictRegistry: Bool
    /// The reason for a key used in the wrong environment: `BadEnvironmentKeyIdInToken`
    /// (Apple's documentation) or `BadEnvironmentKeyInToken` (also seen from APNs).
    public var environmentKeyReason: APNSReason
    /// A provider token older than this is expired (APNs: one hour).
    public var tokenLifetimeSeconds: Int64
    /// A new token on a connection sooner than this after the last one is 429 (APNs: 20 minutes).
    public var tokenRefreshIntervalSeconds: Int64
    /// How far in the future `iat` may lie before the token is invalid.
    public var tokenClockSkewSeconds: Int64
    /// Whether the TLS server asks clients for a certificate (it has a client CA). When it does
    /// not, a client's certificate never arrives, and a rejection for a missing token says so.
    public var clientCertificatesRequested = true

    public init(
        strictPayload: Bool = false, strictRegistry: Bool = false,
        environmentKeyReason: APNSReason = .badEnvironmentKeyIdInToken, tokenLifetimeSeconds: Int64 = 3600,
        tokenRefreshIntervalSeconds: Int64 = 1200, tokenClockSkewSeconds: Int64 = 60,
        payloadAnalysis: PayloadAnalysisOptions = PayloadAnalysisOptions()
    ) {
        self.payloadAnalysis = payloadAnalysis
        self.strictPayload = strictPayload
        self.strictRegistry = strictRegistry
        self.environmentKeyReason = environmentKeyReason
        self.tokenLifetimeSeconds = tokenLifetimeSeconds
        self.tokenRefreshIntervalSeconds = tokenRefreshIntervalSeconds
        self.tokenClockSkewSeconds = tokenClockSkewSeconds
    }
}
