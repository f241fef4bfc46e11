import APNSMockCore

extension DeliveryRecord {
    /// What the provider-behaviour report needs of this record; `nil` for a record that is no
    /// provider's request (a channel-management request, or a delivery the mock made to a
    /// subscribed device for a broadcast). Reads `analysis` for lint: pass an analysed record.
    public var behaviorDelivery: BehaviorDelivery? {
        guard kind != .channel, !viaChannel else { return nil }
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
}
