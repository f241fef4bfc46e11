/// The rules of Apple's Web Push service for a push, `POST` to a subscription's endpoint: pure,
/// synchronous, no I/O, the time passed in. Sources: Apple's "Sending web push notifications in
/// web apps and browsers" (statuses and reasons), RFC 8030 (push, `TTL`, `Urgency`, `Topic`),
/// RFC 8291 (`aes128gcm` message encryption), RFC 8292 (VAPID).
///
/// `evaluate` runs the checks of `checkOrder` one after another and answers with the first that
/// fails. Apple documents no order; the mock's is:
/// 1. `method`: `POST`, else 405 `MethodNotAllowed`;
/// 2. `path`: `<pathPrefix><id>`, one path segment (a query string is ignored), else 404
///    `BadPath`;
/// 3. `subscription`: the lookup knows the id, else 404 `BadPath` (Apple: "invalid :path");
///    not deleted, else 410 `Unregistered`; not expired, else 410 `ExpiredToken`. Apple's status
///    table has 410 ("expired") but names no reason for it: both reasons are the mock's choice,
///    borrowed from APNs's 410s;
/// 4. `authorization`: VAPID, as `VAPIDVerifier` says (403 `BadAuthorizationHeader`,
///    `BadVapidPublicKey`, `VapidPkHashMismatch` or `BadJwtToken`);
/// 5. `ttl`: `TTL` is there, once, and is delta-seconds (digits only; RFC 8030 §5.2), else 400
///    `BadTtl`. `TTL: 0` is accepted: RFC 8030 allows it and pywebpush sends it by default;
///    Apple's "positive number" wording is read loosely (mock's choice);
/// 6. `urgency`: when there, once, exactly `very-low`, `low`, `normal` or `high` (RFC 8030 §5.3),
///    else 400 `BadUrgency`;
/// 7. `topic`: when there, once, 1–32 characters of the base64url alphabet (RFC 8030 §5.4), else
///    400 `BadWebPushTopic`. A length of 4n+1 is refused too: no base64url text has it, and
///    Apple was seen refusing 5- and 13-character topics while taking a 12-character one;
/// 8. `payloadSize`: the body is at most 4096 bytes (RFC 8030 §7.2, RFC 8291 §4, Apple: "4 KB"),
///    else 413 `PayloadTooLarge`;
/// 9. `contentEncoding`: a non-empty body comes with `Content-Encoding: aes128gcm` (RFC 8291 §4;
///    the draft `aesgcm` is refused), else 400 `BadWebPushRequest`.
///
/// An accepted push with a body is then decrypted with the subscription's keys; a body that does
/// not decrypt is still 201 (Apple cannot read it either) and the verdict says why.
public struct WebPushRequestRules: Sendable {
    /// Every check, in the order they run.
    public static let checkOrder: [WebPushCheck] = [
        .method, .path, .subscription, .authorization, .ttl, .urgency, .topic, .payloadSize, .contentEncoding,
    ]
    /// The status of an accepted push (Apple: "201 Success").
    public static let successStatus = 201
    /// The largest body Apple takes, in bytes.
    public static let payloadLimit = 4096
    /// The longest `Topic` (RFC 8030 §5.4).
    public static let maximumTopicLength = 32
    /// The content coding a body must have (RFC 8291 §4).
    public static let contentEncoding = "aes128gcm"

    /// What the path starts with before the subscription id: `/`, as Apple's endpoints
    /// (`https://web.push.apple.com/<id>`), unless the listener mounts them elsewhere.
    public var pathPrefix: String

    public init(pathPrefix: String = "/") {
        self.pathPrefix = pathPrefix
    }

    /// The path of the endpoint of the subscription `id`.
    public func endpointPath(for id: String) -> String { pathPrefix + id }

    /// The subscription id `path` names (`<pathPrefix><id>`, one non-empty segment; a query
    /// string is ignored), or `nil`.
    public func subscriptionID(inPath path: String) -> Substring? {
        let withoutQuery = path.prefix(while: { $0 != "?" && $0 != "#" })
        guard withoutQuery.hasPrefix(pathPrefix) else { return nil }
        let id = withoutQuery.dropFirst(pathPrefix.count)
        guard !id.isEmpty, !id.contains("/") else { return nil }
        return id
    }

    /// Decides what Apple's Web Push service would answer to `request`, sent to a push service
    /// whose origin is `endpointOrigin` (`https://host[:port]`, the `aud` a VAPID JWT must
    /// name) at `now` (epoch milliseconds), with `subscription` giving the subscription of an id
    /// (`nil` for an unknown one). Changes nothing.
    ///
    /// An accepted push's body is decrypted here unless `decryptingBody` is false: the answer
    /// (201) does not depend on it, so a caller may leave it off the answer path and call
    /// `WebPushPayloadDecryption.decrypt` with `verdict.subscription`'s keys later.
    public func evaluate(
        _ request: WebPushRequest, endpointOrigin: String, now: Int64, decryptingBody: Bool = true,
        subscription: (String) -> WebPushSubscription?
    ) -> WebPushVerdict {
        var verdict = WebPushVerdict()
        verdict.contentEncoding = request.values(of: "content-encoding").last
        verdict.bodyLength = request.bodyLength
        for check in Self.checkOrder {
            guard
                let rejection = run(
                    check, request: request, endpointOrigin: endpointOrigin, now: now, lookup: subscription,
                    verdict: &verdict)
            else { continue }
            verdict.status = rejection.status
            verdict.reason = rejection.reason
            verdict.detail = rejection.detail
            verdict.failedCheck = check
            return verdict
        }
        if decryptingBody, !request.body.isEmpty, let keys = verdict.subscription?.keys {
            verdict.decryption = WebPushPayloadDecryption.decrypt(request.body, with: keys)
        }
        return verdict
    }

    private func run(
        _ check: WebPushCheck, request: WebPushRequest, endpointOrigin: String, now: Int64,
        lookup: (String) -> WebPushSubscription?, verdict: inout WebPushVerdict
    ) -> WebPushRejection? {
        switch check {
        case .method:
            guard request.method == "POST" else {
                return WebPushRejection(
                    .methodNotAllowed,
                    "the method is \(RejectionWords.quoted(request.method, limit: 20)); a web push is a POST")
            }
        case .path:
            guard let id = subscriptionID(inPath: request.path) else {
                return WebPushRejection(
                    .badPath,
                    "the path \(RejectionWords.quoted(request.path, limit: 60)) is not a subscription's endpoint "
                        + "('\(pathPrefix)<subscription id>')")
            }
            verdict.subscriptionID = String(id)
        case .subscription:
            return checkSubscription(id: verdict.subscriptionID ?? "", now: now, lookup: lookup, verdict: &verdict)
        case .authorization:
            guard let subscription = verdict.subscription else { return nil }
            let authorizations = request.values(of: "authorization")
            guard authorizations.count <= 1 else {
                return WebPushRejection(.badAuthorizationHeader, "the Authorization header is sent more than once")
            }
            switch VAPIDVerifier.verify(
                authorization: authorizations.first, applicationServerKey: subscription.applicationServerKey,
                audience: endpointOrigin, now: now)
            {
            case .success(let claims): verdict.vapid = claims
            case .failure(let rejection): return rejection
            }
        case .ttl:
            return checkTTL(request.values(of: "ttl"), verdict: &verdict)
        case .urgency:
            return checkUrgency(request.values(of: "urgency"), verdict: &verdict)
        case .topic:
            return checkTopic(request.values(of: "topic"), verdict: &verdict)
        case .payloadSize:
            guard request.bodyLength <= Self.payloadLimit else {
                return WebPushRejection(
                    .payloadTooLarge,
                    "the body is \(request.bodyLength) bytes; Apple takes at most \(Self.payloadLimit) "
                        + "(the encrypted message, header included: at most 3993 bytes of plaintext, RFC 8291 §4)")
            }
        case .contentEncoding:
            return checkContentEncoding(request.values(of: "content-encoding"), bodyLength: request.bodyLength)
        }
        return nil
    }

    private func checkSubscription(
        id: String, now: Int64, lookup: (String) -> WebPushSubscription?, verdict: inout WebPushVerdict
    ) -> WebPushRejection? {
        guard let subscription = lookup(id) else {
            return WebPushRejection(
                .badPath, "no subscription has the id \(RejectionWords.quoted(id, limit: 40)) in this endpoint's path")
        }
        verdict.subscription = subscription
        if let deletedAt = subscription.deletedAt {
            return WebPushRejection(
                .unregistered, "the subscription was deleted (unsubscribed) at \(deletedAt) ms; stop sending to it")
        }
        if subscription.isExpired(at: now), let expiresAt = subscription.expiresAt {
            return WebPushRejection(
                .expiredToken, "the subscription expired at \(expiresAt) ms (its expirationTime); stop sending to it")
        }
        return nil
    }

    private func checkTTL(_ values: [String], verdict: inout WebPushVerdict) -> WebPushRejection? {
        guard let raw = values.first else {
            return WebPushRejection(
                .badTtl, "the TTL header is missing; RFC 8030 §5.2 requires it (seconds to keep the push, 0 or more)")
        }
        guard values.count == 1 else { return WebPushRejection(.badTtl, "the TTL header is sent more than once") }
        let text = raw.trimmingWhitespace()
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return WebPushRejection(
                .badTtl,
                "the TTL header is \(RejectionWords.quoted(raw, limit: 20)); it must be a whole number of seconds "
                    + "(digits only, RFC 8030 §5.2)")
        }
        // Delta-seconds too large for an integer count as 2^31 (RFC 9111 §1.2.2).
        verdict.ttl = Int64(text).map { min($0, 2_147_483_648) } ?? 2_147_483_648
        return nil
    }

    private func checkUrgency(_ values: [String], verdict: inout WebPushVerdict) -> WebPushRejection? {
        guard let raw = values.first else { return nil }
        guard values.count == 1 else {
            return WebPushRejection(.badUrgency, "the Urgency header is sent more than once")
        }
        guard let urgency = WebPushUrgency(rawValue: raw.trimmingWhitespace()) else {
            return WebPushRejection(
                .badUrgency,
                "the Urgency header is \(RejectionWords.quoted(raw, limit: 20)); RFC 8030 §5.3 allows 'very-low', "
                    + "'low', 'normal' or 'high'")
        }
        verdict.urgency = urgency
        return nil
    }

    private func checkTopic(_ values: [String], verdict: inout WebPushVerdict) -> WebPushRejection? {
        guard let raw = values.first else { return nil }
        guard values.count == 1 else {
            return WebPushRejection(.badWebPushTopic, "the Topic header is sent more than once")
        }
        let topic = raw.trimmingWhitespace()
        let quoted = RejectionWords.quoted(raw, limit: 40)
        guard !topic.isEmpty, topic.utf8.allSatisfy(Base64URL.isAlphabetByte) else {
            return WebPushRejection(
                .badWebPushTopic,
                "the Topic header is \(quoted); RFC 8030 §5.4 allows only the base64url characters A–Z, a–z, 0–9, "
                    + "'-' and '_'")
        }
        guard topic.utf8.count <= Self.maximumTopicLength else {
            return WebPushRejection(
                .badWebPushTopic,
                "the Topic header is \(topic.utf8.count) characters; RFC 8030 §5.4 allows at most "
                    + "\(Self.maximumTopicLength)")
        }
        guard topic.utf8.count % 4 != 1 else {
            return WebPushRejection(
                .badWebPushTopic,
                "the Topic header is \(topic.utf8.count) characters, a length no base64url text has (4n+1); "
                    + "Apple refuses such a topic")
        }
        verdict.topic = topic
        return nil
    }

    private func checkContentEncoding(_ values: [String], bodyLength: Int) -> WebPushRejection? {
        guard bodyLength > 0 else { return nil }
        guard let raw = values.first else {
            return WebPushRejection(
                .badWebPushRequest,
                "the body has no Content-Encoding; an encrypted push message needs 'Content-Encoding: aes128gcm' "
                    + "(RFC 8291 §4)")
        }
        guard values.count == 1 else {
            return WebPushRejection(.badWebPushRequest, "the Content-Encoding header is sent more than once")
        }
        let encoding = raw.trimmingWhitespace().lowercased()
        guard encoding == Self.contentEncoding else {
            let draft =
                encoding == "aesgcm"
                ? " (aesgcm is the draft encoding with Encryption and Crypto-Key headers; RFC 8291 §4 forbids it)" : ""
            return WebPushRejection(
                .badWebPushRequest,
                "the Content-Encoding is \(RejectionWords.quoted(raw, limit: 20)); Apple takes only aes128gcm"
                    + draft)
        }
        return nil
    }
}
