/// What the report needs of a provider token: its key (`kid`), team (`iss`) and issue time
/// (`iat`), read from the header and claims a record keeps (never the signature).
public struct ProviderTokenClaims: Sendable, Hashable {
    public var keyID: String?
    public var teamID: String?
    /// `iat`: when the token was minted, UNIX seconds.
    public var issuedAt: Int64?

    public init(keyID: String?, teamID: String?, issuedAt: Int64?) {
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = issuedAt
    }

    /// The claims of an `authorization` value (`bearer <header>.<claims>[.<signature>]`);
    /// `nil` when neither part decodes to a JSON object.
    public init?(authorization: String) {
        let summary = JWTSummary(authorization: authorization)
        let header = summary.headerJSON.flatMap { JSONValue.parse(Array($0.utf8)) }
        let claims = summary.claimsJSON.flatMap { JSONValue.parse(Array($0.utf8)) }
        guard header != nil || claims != nil else { return nil }
        func text(_ value: JSONValue?) -> String? {
            if case .string(let text) = value { return text }
            return nil
        }
        keyID = text(header?["kid"])
        teamID = text(claims?["iss"])
        if case .number(let value, _) = claims?["iat"], value.isFinite, abs(value) < 1e15 {
            issuedAt = Int64(value)
        } else {
            issuedAt = nil
        }
    }
}
