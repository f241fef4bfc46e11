import APNSMockCore

extension DeliveryRecord {
    /// The record of a request as the fault rules saw it (`facts`, with its answer as decided):
    /// the one view of a request, so that a record answers every matcher field as its live
    /// request did.
    /// - Parameters:
    ///   - response: the answer as it went out; `nil` while unanswered.
    ///   - channelID: the channel the record names, when not the one the request named.
    public init(
        _ facts: LiveRequestFacts, streamID: Int32, receivedAt: Int64, response: DeliveryResponse?,
        outcome: DeliveryOutcome, faultID: String?, detail: String?, channelID: String? = nil
    ) {
        self.init(
            request: facts.request, verdict: facts.verdict, environment: facts.environment, answer: facts.answer,
            connectionID: facts.connectionID, streamID: streamID, receivedAt: receivedAt, response: response,
            outcome: outcome, faultID: faultID, detail: detail, channelID: channelID)
    }

    /// The record of a request from the parts `LiveRequestFacts` holds, without making one (the
    /// answer path: no copy of the request or the verdict; inlined there, as the memberwise
    /// initializer is).
    @inlinable @inline(__always)
    public init(
        request: APNSRequest, verdict: APNSVerdict, environment: APNSEnvironment, answer: APNSAnswer,
        connectionID: UInt64, streamID: Int32, receivedAt: Int64, response: DeliveryResponse?,
        outcome: DeliveryOutcome, faultID: String?, detail: String?, channelID: String? = nil
    ) {
        // A web push's record keeps its body decrypted (`webPush` says how big it was on the wire).
        let plaintext = verdict.webPushPlaintext
        self.init(
            receivedAt: receivedAt, connectionID: connectionID, streamID: streamID, environment: environment,
            method: request.method, path: request.path, authority: request.authority,
            headerBlock: request.headerBlock, token: verdict.namedToken, topic: verdict.topic,
            pushType: verdict.pushType, apnsID: answer.apnsID, uniqueID: answer.uniqueID,
            payload: plaintext ?? request.payload, payloadSize: plaintext?.count ?? request.payloadSize,
            authentication: verdict.authentication, response: response, outcome: outcome, faultID: faultID,
            kind: verdict.kind, channelID: channelID ?? verdict.channelID, detail: detail ?? verdict.detail,
            webPush: verdict.webPushRecord)
    }
}
