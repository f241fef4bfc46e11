import APNSMockCore
import APNSMockStore

/// What the mock did with one request and why, in a few lines, from the record's JSON
/// (`GET /v1/deliveries/{apnsId}`): the request, Apple's answer, the mock's `detail` (the claim,
/// header, size or fault behind a rejection, which the wire answer never carries) and the fault
/// rule that fired. `GET /v1/deliveries/{apnsId}` serves it as the record's `explanation`
/// (`text(of:reader:)`, which adds a broadcast's reach); `apns-mock explain` prints it and the
/// MCP tool `explain_delivery` begins with it.
public enum RecordExplanation {
    /// Records a broadcast's reach reads per page.
    static let pageSize = 1000

    /// What `GET /v1/deliveries/{apnsId}` explains for `record`, the most recent with its id:
    /// the record's lines (`text(of:)`). A broadcast's deliveries to its channel's devices carry
    /// the broadcast's id too, and the most recent record with it is the last device's: for
    /// such a record, and for a broadcast, the broadcast's lines and the devices it reached
    /// (up to the next broadcast with the same id: a client may send one apns-request-id twice).
    public static func text(of record: DeliveryRecord, reader: DeliveryReader) -> String {
        func json(_ record: DeliveryRecord) -> JSONValue {
            JSONValue.parse(DeliveryRecordJSON.encode(record)) ?? .null
        }
        guard record.kind == .broadcast || record.viaChannel else { return text(of: json(record)) }
        let id = record.apnsID.text
        let broadcast: DeliveryRecord
        if record.kind == .broadcast {
            broadcast = record
        } else if let found = reader.query(
            DeliveryQuery(
                matcher: DeliveryMatcher([.apnsID(id), .kind(.broadcast)]), before: record.sequence, limit: 1,
                order: .desc)
        ).deliveries.first {
            broadcast = found
        } else {
            return text(of: json(record))
                + "\nbroadcast: no longer stored (this device got it via channel \(record.channelID ?? "?"))"
        }
        let next = reader.query(
            DeliveryQuery(
                matcher: DeliveryMatcher([.apnsID(id), .kind(.broadcast)]), since: broadcast.sequence, limit: 1)
        ).deliveries.first?.sequence
        var devices: [DeliveryRecord] = []
        var cursor = broadcast.sequence
        while true {
            let records = reader.query(
                DeliveryQuery(
                    matcher: DeliveryMatcher([.apnsID(id), .kind(.push)]), since: cursor, before: next,
                    limit: pageSize)
            ).deliveries
            devices += records.filter(\.viaChannel)
            guard records.count == pageSize, let last = records.last?.sequence else { break }
            cursor = last
        }
        return text(of: json(broadcast)) + "\n" + reach(of: broadcast, devices: devices)
    }

    /// The lines after a broadcast's explanation: the devices it reached, one line each
    /// (sequence number and token), or why it reached none.
    static func reach(of broadcast: DeliveryRecord, devices: [DeliveryRecord]) -> String {
        let channel = broadcast.channelID ?? "?"
        guard !devices.isEmpty else {
            return broadcast.status == 200
                ? "reached no device: channel \(channel) had no subscriber"
                : "reached no device: a broadcast reaches devices only when it is answered 200"
        }
        var lines = ["reached \(devices.count) device\(devices.count == 1 ? "" : "s") via channel \(channel):"]
        for device in devices { lines.append("  #\(device.sequence) \(device.token ?? "?")") }
        return lines.joined(separator: "\n")
    }

    /// The lines for `record`, joined by newlines.
    public static func text(of record: JSONValue) -> String {
        func text(_ value: JSONValue?) -> String? {
            guard let value, value != .null else { return nil }
            return value.scalarText
        }
        var lines: [String] = []
        let kind = text(record["kind"]) ?? "push"
        let received = text(record["receivedAt"]).flatMap(Int64.init).map {
            UTCTimestamp.iso8601(milliseconds: $0)
        }
        lines.append(
            "\(text(record["apnsId"]) ?? "?"): \(kind) #\(text(record["sequence"]) ?? "?")"
                + (received.map { " received \($0)" } ?? "") + " on connection \(text(record["connectionId"]) ?? "?")")
        var request = "request: \(text(record["method"]) ?? "?") \(text(record["path"]) ?? "?")"
        if let topic = text(record["topic"]) { request += ", topic \(topic)" }
        if let pushType = text(record["pushType"]) { request += ", push type \(pushType)" }
        if let channel = text(record["channelId"]) { request += ", channel \(channel)" }
        lines.append(request)
        let response = record["response"]
        let answer: String
        if let status = text(response?["status"]) {
            answer = status + (text(response?["reason"]).map { " \($0)" } ?? "")
        } else if response?["goAway"] == .bool(true) {
            answer = "no status: GOAWAY" + (text(response?["reason"]).map { " \($0)" } ?? "")
        } else {
            answer = "none (\(text(record["outcome"]) ?? "pending"))"
        }
        lines.append("answer: \(answer)")
        lines.append("why: \(text(record["detail"]) ?? "nothing to explain: the request was accepted as sent")")
        if let fault = text(record["faultId"]) { lines.append("fault rule: \(fault)") }
        return lines.joined(separator: "\n")
    }
}
