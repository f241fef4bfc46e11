import APNSMockCore

extension DeliveryRecord {
    /// The record in one line (`RecordSummary`): the admin JSON's `summary`, computed on read.
    public var summary: RecordSummary {
        RecordSummary(
            sequence: sequence, status: response?.status, reason: response?.reason?.rawValue, outcome: outcome,
            kind: kind, token: token, channelID: channelID, topic: topic, pushType: pushType?.rawValue,
            apnsID: apnsID.text, faultID: faultID, delivery: delivery, judged: !deliveryHistory.isEmpty)
    }
}
