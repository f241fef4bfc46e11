import APNSMockCore
import APNSMockStore

extension DeliveryResponse {
    /// What a record says went out: the answer on the stream, or only its reason in a GOAWAY
    /// (no status); `nil` when nothing did.
    init?(_ recorded: ConnectionStateMachine.RecordedAnswer) {
        guard let answeredAt = recorded.answeredAt else { return nil }
        if recorded.outcome == .goAway {
            self.init(status: nil, reason: recorded.answer.reason, respondedAt: answeredAt, goAway: true)
        } else {
            self.init(
                status: recorded.answer.status, reason: recorded.answer.reason, timestamp: recorded.answer.timestamp,
                respondedAt: answeredAt)
        }
    }
}
