import APNSMockCore

/// Everything a record's payload analysis depends on: the payload as kept, its size as sent,
/// and what chooses the analysis context (what the record is of, its push type, priority and
/// topic, the device's locale). Records with equal keys have equal analyses, so a load test
/// that sends one payload a million times has it analysed once.
struct PayloadAnalysisKey: Hashable, Sendable {
    let payload: [UInt8]
    let payloadSize: Int
    let kind: RecordKind
    let viaChannel: Bool
    let pushType: APNSPushType?
    let pushTypeHeaderPresent: Bool
    let priority: String?
    let topic: String?
    let locale: String?

    /// The key of `record` for a device of `locale`.
    init(_ record: DeliveryRecord, locale: String?) {
        payload = record.payload
        payloadSize = record.payloadSize
        kind = record.kind
        viaChannel = record.viaChannel
        pushType = record.pushType
        pushTypeHeaderPresent = record.headerBlock.firstValue(named: "apns-push-type") != nil
        priority = record.header("apns-priority")
        topic = record.topic
        self.locale = locale
    }

    /// The context the payload is analysed in (`nil` for channel management, whose body is no
    /// notification).
    func context(options: PayloadAnalysisOptions) -> PayloadContext? {
        options.context(
            kind: kind, viaChannel: viaChannel, pushType: pushType, pushTypeHeaderPresent: pushTypeHeaderPresent,
            priority: priority, topic: topic, locale: locale)
    }

    /// The payload's bytes are hashed as one block (not byte by byte).
    func hash(into hasher: inout Hasher) {
        payload.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(payloadSize)
        hasher.combine(kind)
        hasher.combine(viaChannel)
        hasher.combine(pushType)
        hasher.combine(pushTypeHeaderPresent)
        hasher.combine(priority)
        hasher.combine(topic)
        hasher.combine(locale)
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.payloadSize == rhs.payloadSize && lhs.kind == rhs.kind && lhs.viaChannel == rhs.viaChannel
            && lhs.pushType == rhs.pushType && lhs.pushTypeHeaderPresent == rhs.pushTypeHeaderPresent
            && lhs.priority == rhs.priority && lhs.topic == rhs.topic && lhs.locale == rhs.locale
            && lhs.payload.withUnsafeBufferPointer { left in
                rhs.payload.withUnsafeBufferPointer { right in ASCIIBytes.equal(left, right) }
            }
    }
}
