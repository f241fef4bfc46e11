/// The two parameters of a VAPID `Authorization` header (RFC 8292 §3): the JWT `t` and the
/// application server's public key `k`, as sent (not yet decoded or verified).
///
/// What `parse` accepts: the scheme `vapid` in any letter case, then parameters separated by
/// commas (empty elements ignored), each `name=value` with optional spaces or tabs around the
/// `=` and the commas, names in any letter case, values bare or in double quotes, in any order;
/// parameters other than `t` and `k` are ignored (RFC 7235 §2.1 lets a scheme have more). A
/// parameter given twice, one without `=`, or a scheme other than `vapid` is refused.
public struct VAPIDAuthorization: Sendable, Hashable {
    /// The `t` parameter: the JWT. Empty when the header has no `t`.
    public var token: String
    /// The `k` parameter: the public key, base64url. Empty when the header has no `k`.
    public var publicKey: String

    public init(token: String, publicKey: String) {
        self.token = token
        self.publicKey = publicKey
    }

    /// The parameters of the `Authorization` value `header`, or the rejection Apple's reasons
    /// give: `BadAuthorizationHeader` for a header that is not `vapid t=…, k=…` in form,
    /// `BadJwtToken` when `t` is missing or empty, `BadVapidPublicKey` when `k` is.
    public static func parse(_ header: String) -> Result<VAPIDAuthorization, WebPushRejection> {
        let value = header.trimmingWhitespace()
        let schemeEnd = value.firstIndex(where: { $0 == " " || $0 == "\t" }) ?? value.endIndex
        let scheme = value[..<schemeEnd]
        guard scheme.lowercased() == "vapid" else {
            return .failure(WebPushRejection(.badAuthorizationHeader, schemeProblem(String(scheme))))
        }
        var token: String?
        var publicKey: String?
        for rawParameter in value[schemeEnd...].split(separator: ",", omittingEmptySubsequences: false) {
            let parameter = rawParameter.trimmingWhitespace()
            // An empty list element (a stray comma) is ignored, as RFC 9110 §5.6.1 asks of a recipient.
            if parameter.isEmpty { continue }
            guard let equals = parameter.firstIndex(of: "=") else {
                return .failure(
                    WebPushRejection(
                        .badAuthorizationHeader,
                        "the Authorization header's parameter \(RejectionWords.quoted(parameter, limit: 40)) is not "
                            + "name=value; RFC 8292 §3 expects 'vapid t=<JWT>, k=<public key>'"))
            }
            let name = parameter[..<equals].trimmingWhitespace().lowercased()
            var parameterValue = parameter[parameter.index(after: equals)...].trimmingWhitespace()
            if parameterValue.count >= 2, parameterValue.hasPrefix("\""), parameterValue.hasSuffix("\"") {
                parameterValue = String(parameterValue.dropFirst().dropLast())
            }
            switch name {
            case "t":
                guard token == nil else { return .failure(repeated("t")) }
                token = parameterValue
            case "k":
                guard publicKey == nil else { return .failure(repeated("k")) }
                publicKey = parameterValue
            default:
                continue
            }
        }
        guard let token, !token.isEmpty else {
            return .failure(
                WebPushRejection(
                    .badJwtToken, "the Authorization header has no JWT: RFC 8292 §3 puts it in the 't' parameter"))
        }
        guard let publicKey, !publicKey.isEmpty else {
            return .failure(
                WebPushRejection(
                    .badVapidPublicKey,
                    "the Authorization header has no public key: RFC 8292 §3 puts the application server's key, "
                        + "base64url, in the 'k' parameter"))
        }
        return .success(VAPIDAuthorization(token: token, publicKey: publicKey))
    }

    private static func repeated(_ name: String) -> WebPushRejection {
        WebPushRejection(.badAuthorizationHeader, "the Authorization header gives '\(name)' more than once")
    }

    private static func schemeProblem(_ scheme: String) -> String {
        switch scheme.lowercased() {
        case "":
            return "the Authorization header is empty; Apple takes RFC 8292's 'vapid t=<JWT>, k=<public key>'"
        case "webpush":
            return "the Authorization header uses the draft 'WebPush <JWT>' scheme (with Crypto-Key: p256ecdsa=…); "
                + "Apple takes RFC 8292's 'vapid t=<JWT>, k=<public key>'"
        case "bearer":
            return "the Authorization header is a bearer token, as for APNs device pushes; a web push takes "
                + "RFC 8292's 'vapid t=<JWT>, k=<public key>'"
        default:
            return "the Authorization header's scheme is \(RejectionWords.quoted(scheme, limit: 20)); Apple takes "
                + "RFC 8292's 'vapid t=<JWT>, k=<public key>'"
        }
    }
}
