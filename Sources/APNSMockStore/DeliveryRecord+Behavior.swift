import APNSMockCore

extension DeliveryRecord {
    /// What the provider-behaviour report needs of this record; `nil` for a record that is no
    /// provider's request (a channel-management request, or a delivery the mock made to a
    /// subscribed device for a broadcast). Reads `analysis` for lint: pass an analysed record.
    public var behaviorDelivery: BehaviorDelivery? {
        guard kind != .channel, !viaChannel else { return nil }
        if kind == .webPush { return webPushBehaviorDelivery }
        let claims =
            authentication?.method == .certificate
            ? nil : header("authorization").flatMap(ProviderTokenClaims.init(authorization:))
        return BehaviorDelivery(
            sequence: sequence, apnsID: apnsID.text, apnsIDGenerated: apnsIDGenerated, receivedAt: receivedAt,
            respondedAt: response?.respondedAt, connectionID: connectionID,
            identity: ProviderIdentity(authentication: authentication, token: claims),
            tokenIssuedAt: claims?.issuedAt, deviceToken: token,
            payloadFingerprint: BehaviorDelivery.fingerprint(of: payload), topic: topic,
            pushTypeHeader: header("apns-push-type"), priorityHeader: header("apns-priority"),
            expirationHeader: header("apns-expiration"), collapseIDHeader: header("apns-collapse-id"),
            status: response?.status, reason: response?.reason?.rawValue, lint: analysis?.codes ?? [],
            isBroadcast: kind == .broadcast, delivery: delivery)
    }

    /// A web push as the report sees it: its provider is its VAPID key (`k` as sent), and its
    /// facts are `TTL`, why its body did not decrypt, and its VAPID token's `exp` as sent.
    private var webPushBehaviorDelivery: BehaviorDelivery {
        let facts = matchWebPush
        // The record keeps the header without the JWT's signature: `vapid t=<h>.<c>, k=<key>`.
        let authorization = header("authorization").flatMap { try? VAPIDAuthorization.parse($0).get() }
        let key = authorization?.publicKey ?? ""
        var expiresAt: Int64?
        if let token = authorization?.token,
            let claims = JWTSummary(authorization: "vapid " + token).claimsJSON.flatMap(JSONValue.parse),
            case .number(let exp, _)? = claims["exp"], exp.isFinite, abs(exp) < 1e15
        {
            expiresAt = Int64(exp)
        }
        var problem: String?
        if case .string(let code)? = facts?["decryption"]?["problem"] { problem = code }
        return BehaviorDelivery(
            sequence: sequence, apnsID: apnsID.text, apnsIDGenerated: apnsIDGenerated, receivedAt: receivedAt,
            respondedAt: response?.respondedAt, connectionID: connectionID,
            identity: key.isEmpty ? .unidentified : .vapid(publicKey: key), deviceToken: token,
            payloadFingerprint: BehaviorDelivery.fingerprint(of: payload), topic: header("topic"),
            status: response?.status, reason: response?.reason?.rawValue, lint: analysis?.codes ?? [],
            delivery: delivery,
            webPush: BehaviorDelivery.WebPush(
                ttl: header("ttl").flatMap { Int64($0) }, decryptionProblem: problem, vapidExpiresAt: expiresAt))
    }
}
