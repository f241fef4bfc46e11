/// A record in one line of text, as the admin API serves it (a record's `summary`) and every
/// surface prints it (`apns-mock deliveries`, `wait`, the clients, MCP, the dashboard):
///
/// ```text
/// #12  200  push  740f4707…78ad  com.example.app  alert  apns-id 8E1C…  fault f1  stored until 1795…
/// ```
///
/// The sequence number; the status and reason, or the outcome of a request never answered; the
/// kind; the token (shortened), the channel, topic, push type and apns-id; the fault rule that
/// fired; and, once the delivery model judged the push, what became of it (a push with no
/// delivery history was delivered when answered: nothing is added). Parts are separated by two
/// spaces; absent parts are left out.
public struct RecordSummary: Sendable, Hashable {
    public var sequence: UInt64
    /// The answer's status, or `nil` when the request was never answered.
    public var status: Int?
    /// The answer's reason (`BadDeviceToken`).
    public var reason: String?
    /// What became of the request (`pending`, `hung`, `reset`…), shown when it has no status.
    public var outcome: DeliveryOutcome
    public var kind: RecordKind
    public var token: String?
    public var channelID: String?
    public var topic: String?
    public var pushType: String?
    public var apnsID: String?
    public var faultID: String?
    /// The push's delivery state, shown only when `judged` (the record has a delivery history).
    public var delivery: DeviceDelivery?
    /// Whether the delivery model changed the push's state after its answer.
    public var judged: Bool

    public init(
        sequence: UInt64, status: Int? = nil, reason: String? = nil, outcome: DeliveryOutcome = .answered,
        kind: RecordKind = .push, token: String? = nil, channelID: String? = nil, topic: String? = nil,
        pushType: String? = nil, apnsID: String? = nil, faultID: String? = nil, delivery: DeviceDelivery? = nil,
        judged: Bool = false
    ) {
        self.sequence = sequence
        self.status = status
        self.reason = reason
        self.outcome = outcome
        self.kind = kind
        self.token = token
        self.channelID = channelID
        self.topic = topic
        self.pushType = pushType
        self.apnsID = apnsID
        self.faultID = faultID
        self.delivery = delivery
        self.judged = judged
    }

    /// A token longer than this is shortened to its first 8 and last 4 characters.
    static let shortTokenLength = 16

    /// The line.
    public var text: String {
        var parts = ["#\(sequence)"]
        if let status {
            parts.append("\(status)" + (reason.map { " \($0)" } ?? ""))
        } else {
            parts.append(outcome.rawValue)
        }
        parts.append(kind.rawValue)
        if let token {
            parts.append(token.count > Self.shortTokenLength ? "\(token.prefix(8))…\(token.suffix(4))" : token)
        }
        if let channelID { parts.append("channel \(channelID)") }
        if let topic { parts.append(topic) }
        if let pushType { parts.append(pushType) }
        if let apnsID { parts.append("apns-id \(apnsID)") }
        if let faultID { parts.append("fault \(faultID)") }
        if judged, let delivery {
            var words = delivery.state.rawValue
            if let reason = delivery.reason { words += " \(reason.rawValue)" }
            if delivery.state == .stored, let until = delivery.until { words += " until \(until)" }
            parts.append(words)
        }
        return parts.joined(separator: "  ")
    }
}
