import Crypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies a push's VAPID credential (RFC 8292) as Apple's Web Push service does, to the
/// extent Apple's page and observed answers tell: pure, with the time passed in.
///
/// The checks, in order, each with the reason it fails with:
/// 1. the `Authorization` header is there and reads `vapid t=…, k=…` (`VAPIDAuthorization`):
///    `BadAuthorizationHeader`, or `BadJwtToken`/`BadVapidPublicKey` when `t`/`k` is missing;
/// 2. `k` is base64url of a 65-byte uncompressed P-256 point: `BadVapidPublicKey`;
/// 3. `k` is the subscription's `applicationServerKey`: `VapidPkHashMismatch`;
/// 4. the JWT has three base64url parts, its header is a JSON object with `alg` `ES256` (and a
///    `typ`, when there is one, of `JWT`), its signature is 64 bytes (JWS's R||S, RFC 7518
///    §3.4; DER is refused, mock's choice) and verifies with `k` over `header.claims`:
///    `BadJwtToken`;
/// 5. the claims are a JSON object whose `aud` is the endpoint's origin, whose `exp` is a number
///    of seconds after `now` and at most 24 hours after it (RFC 8292 §2), and whose `sub` is a
///    `mailto:` address or an `https:` URL: `BadJwtToken`. A `mailto:` must be a plain
///    `local@domain` with a dot in the domain: Apple answered `BadJwtToken` to
///    `mailto:…@localhost` (web-push-libs/web-push issue 947) and to `mailto: <address>` (Apple
///    Developer Forums thread 725473).
public enum VAPIDVerifier {
    /// How far ahead `exp` may be, in seconds (RFC 8292 §2: "MUST NOT be more than 24 hours").
    public static let maximumLifetime: Int64 = 24 * 60 * 60

    /// Verifies `authorization` (the header's value, `nil` when absent) for a push to a
    /// subscription made with `applicationServerKey` (its 65 bytes) on a push service whose
    /// origin is `audience` (`https://host[:port]`), at `now` (epoch milliseconds).
    public static func verify(
        authorization: String?, applicationServerKey: [UInt8], audience: String, now: Int64
    ) -> Result<VAPIDClaims, WebPushRejection> {
        guard let authorization else {
            // Mock's choice: Apple's table names no reason for a missing header; this one says the
            // header does not conform.
            return .failure(
                WebPushRejection(
                    .badAuthorizationHeader,
                    "no Authorization header; Apple requires VAPID (RFC 8292): 'Authorization: vapid t=<JWT>, k=<key>'"
                ))
        }
        let parameters: VAPIDAuthorization
        switch VAPIDAuthorization.parse(authorization) {
        case .success(let parsed): parameters = parsed
        case .failure(let rejection): return .failure(rejection)
        }
        guard let keyBytes = Base64URL.decode(parameters.publicKey) else {
            return .failure(
                WebPushRejection(
                    .badVapidPublicKey,
                    "the Authorization header's k is not base64url: "
                        + RejectionWords.quoted(parameters.publicKey, limit: 24)))
        }
        guard keyBytes.count == 65, keyBytes.first == 0x04,
            let signingKey = try? P256.Signing.PublicKey(x963Representation: keyBytes)
        else {
            return .failure(
                WebPushRejection(
                    .badVapidPublicKey,
                    "the Authorization header's k is \(keyBytes.count) bytes that are not an uncompressed P-256 "
                        + "public key (65 bytes starting with 0x04, on the curve)"))
        }
        guard keyBytes == applicationServerKey else {
            return .failure(
                WebPushRejection(
                    .vapidPkHashMismatch,
                    "the Authorization header's k (\(Base64URL.encode(keyBytes).prefix(12))…) is not the "
                        + "applicationServerKey the subscription was made with "
                        + "(\(Base64URL.encode(applicationServerKey).prefix(12))…)"))
        }
        return verifyToken(parameters.token, key: signingKey, keyBytes: keyBytes, audience: audience, now: now)
    }

    private static func verifyToken(
        _ token: String, key: P256.Signing.PublicKey, keyBytes: [UInt8], audience: String, now: Int64
    ) -> Result<VAPIDClaims, WebPushRejection> {
        func fail(_ detail: String) -> Result<VAPIDClaims, WebPushRejection> {
            .failure(WebPushRejection(.badJwtToken, detail))
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return fail(
                "the VAPID JWT has \(parts.count) part\(parts.count == 1 ? "" : "s") separated by '.'; "
                    + "a JWS has three (header.claims.signature)")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), case .object(let header)? = JSONValue.parse(headerBytes)
        else { return fail("the VAPID JWT's header (its first part) is not a base64url-encoded JSON object") }
        guard case .string(let algorithm)? = ProviderTokenParser.member("alg", of: header) else {
            return fail("the VAPID JWT's header has no 'alg'; VAPID takes ES256 (RFC 8292 §2)")
        }
        guard algorithm == "ES256" else {
            return fail("the VAPID JWT's alg is \(RejectionWords.quoted(algorithm, limit: 20)); VAPID takes ES256")
        }
        if let type = ProviderTokenParser.member("typ", of: header) {
            guard case .string(let text) = type, text.uppercased() == "JWT" else {
                return fail("the VAPID JWT's typ is \(type.jsonText); when present it must be 'JWT'")
            }
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            return fail("the VAPID JWT's signature (its third part) is not base64url")
        }
        guard signature.count == 64, let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else {
            return fail(
                "the VAPID JWT's signature is \(signature.count) bytes; an ES256 JWS signature is the 64 bytes "
                    + "R||S (RFC 7518 §3.4), not DER")
        }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.isValidSignature(ecdsa, for: signingInput) else {
            return fail("the VAPID JWT's signature does not verify with the key k: it was signed by another key")
        }
        guard let claimBytes = Base64URL.decode(parts[1]), case .object(let claims)? = JSONValue.parse(claimBytes)
        else { return fail("the VAPID JWT's claims (its second part) are not a base64url-encoded JSON object") }
        guard case .string(let tokenAudience)? = ProviderTokenParser.member("aud", of: claims) else {
            return fail("the VAPID JWT has no 'aud' claim; it must be the push service's origin, '\(audience)'")
        }
        guard tokenAudience == audience else {
            let hint = tokenAudience == audience + "/" ? " (an origin has no trailing '/')" : ""
            return fail(
                "the VAPID JWT's aud is \(RejectionWords.quoted(tokenAudience, limit: 60)); it must be the push "
                    + "service's origin, '\(audience)'\(hint)")
        }
        guard case .number(let expirationValue, _)? = ProviderTokenParser.member("exp", of: claims),
            expirationValue.isFinite,
            abs(expirationValue) < 1e15
        else {
            return fail("the VAPID JWT has no 'exp' claim as a number of seconds since 1970 (RFC 7519 NumericDate)")
        }
        let expiration = Int64(expirationValue.rounded(.down))
        let nowSeconds = now / 1000
        guard expiration * 1000 > now else {
            return fail("the VAPID JWT expired at \(expiration), \(nowSeconds - expiration) s ago")
        }
        guard expiration - nowSeconds <= maximumLifetime else {
            return fail(
                "the VAPID JWT's exp is \(expiration - nowSeconds) s ahead; RFC 8292 §2 allows at most 24 hours "
                    + "(86400 s)")
        }
        guard case .string(let subject)? = ProviderTokenParser.member("sub", of: claims) else {
            return fail("the VAPID JWT has no 'sub' claim; Apple requires a mailto: or https: contact")
        }
        if let problem = subjectProblem(subject) { return fail(problem) }
        return .success(
            VAPIDClaims(
                subject: subject, audience: tokenAudience, expiration: expiration, publicKey: keyBytes, token: token))
    }

    /// What is wrong with `sub`, or `nil` when it is a contact Apple takes.
    static func subjectProblem(_ subject: String) -> String? {
        let quoted = RejectionWords.quoted(subject, limit: 60)
        let lowercased = subject.lowercased()
        if lowercased.hasPrefix("mailto:") {
            let address = subject.dropFirst("mailto:".count)
            let parts = address.split(separator: "@", omittingEmptySubsequences: false)
            let forbidden: Set<Character> = [" ", "\t", "<", ">", "\"", ","]
            guard parts.count == 2, !parts[0].isEmpty, !address.contains(where: forbidden.contains) else {
                return "the VAPID JWT's sub \(quoted) is not 'mailto:' followed by a plain address such as "
                    + "'mailto:push@example.com' (no spaces or angle brackets)"
            }
            let domain = parts[1]
            guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else {
                return "the VAPID JWT's sub \(quoted) has the mail domain '\(domain)', which is not a real "
                    + "domain; Apple answers BadJwtToken to one such as localhost (web-push-libs/web-push issue 947)"
            }
            return nil
        }
        if lowercased.hasPrefix("https://") {
            let host = subject.dropFirst("https://".count).prefix(while: { !"/?#".contains($0) })
            guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "\t" }) else {
                return "the VAPID JWT's sub \(quoted) is not an https: URL with a host"
            }
            return nil
        }
        return "the VAPID JWT's sub \(quoted) is neither a mailto: nor an https: URL (RFC 8292 §2.1)"
    }
}
