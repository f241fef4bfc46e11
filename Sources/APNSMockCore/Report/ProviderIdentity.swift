/// Who sent a push, as the provider-behaviour report groups pushes: the team and key of a
/// provider token, the subject of a client certificate, the VAPID key of a web push, or nobody
/// the mock could name (a request without credentials, or with a token that did not decode).
public enum ProviderIdentity: Sendable, Hashable, Comparable {
    case token(teamID: String, keyID: String)
    case certificate(subject: String)
    /// A web push provider: its VAPID public key (`k`, base64url).
    case vapid(publicKey: String)
    case unidentified

    /// The identity of a recorded push: from what authentication learned, else from the
    /// decoded provider token (`iss` and `kid`) of its `authorization` header.
    /// - Parameters:
    ///   - authentication: the record's `auth`, if any.
    ///   - token: the decoded header and claims of its provider token, if it had one.
    public init(authentication: AuthenticationResult?, token: ProviderTokenClaims?) {
        switch authentication?.method {
        case .certificate:
            self = .certificate(subject: authentication?.certificateSubject ?? "")
        case .token, nil:
            let team = authentication?.teamID ?? token?.teamID
            let key = authentication?.keyID ?? token?.keyID
            if let team, let key {
                self = .token(teamID: team, keyID: key)
            } else if authentication?.method == .token || team != nil || key != nil {
                self = .token(teamID: team ?? "?", keyID: key ?? "?")
            } else {
                self = .unidentified
            }
        }
    }

    /// `token`, `certificate` or `unidentified`.
    public var kind: String {
        switch self {
        case .token: "token"
        case .certificate: "certificate"
        case .vapid: "vapid"
        case .unidentified: "unidentified"
        }
    }

    /// A name for people: `team DEF123GHIJ key ABC123DEFG`, `certificate <subject>`, `unidentified`.
    public var name: String {
        switch self {
        case .token(let team, let key): "team \(team) key \(key)"
        case .certificate(let subject): "certificate \(subject)"
        case .vapid(let key): "VAPID key \(key.prefix(16))…"
        case .unidentified: "unidentified"
        }
    }

    public static func < (lhs: ProviderIdentity, rhs: ProviderIdentity) -> Bool { lhs.name < rhs.name }

    /// Writes `{"kind":…,"teamId":…,"keyId":…,"certificateSubject":…,"name":…}`.
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("kind")
        json.string(kind)
        var team: String?
        var key: String?
        var subject: String?
        var vapidKey: String?
        switch self {
        case .token(let teamID, let keyID):
            team = teamID
            key = keyID
        case .certificate(let certificateSubject):
            subject = certificateSubject
        case .vapid(let key):
            vapidKey = key
        case .unidentified:
            break
        }
        json.key("teamId")
        json.string(team)
        json.key("keyId")
        json.string(key)
        json.key("certificateSubject")
        json.string(subject)
        json.key("vapidKey")
        json.string(vapidKey)
        json.key("name")
        json.string(name)
        json.endObject()
    }
}
