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
        let request = facts.request
        let verdict = facts.verdict
        self.init(
            receivedAt: receivedAt, connectionID: facts.connectionID, streamID: streamID,
            environment: facts.environment, method: request.method, path: request.path, authority: request.authority,
            headerBlock: request.headerBlock, token: verdict.namedToken, topic: verdict.topic,
            pushType: verdict.pushType, apnsID: facts.answer.apnsID, uniqueID: facts.answer.uniqueID,
            payload: request.payload, payloadSize: request.payloadSize, authentication: verdict.authentication,
            response: response, outcome: outcome, faultID: faultID, kind: verdict.kind,
            channelID: channelID ?? verdict.channelID, detail: detail ?? verdict.detail)
    }
}
