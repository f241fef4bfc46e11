import APNSMockCore

/// What the mock did with one request and why, in a few lines, from the record's JSON
/// (`GET /v1/deliveries/{apnsId}`): the request, Apple's answer, the mock's `detail` (the claim,
/// header, size or fault behind a rejection, which the wire answer never carries) and the fault
/// rule that fired. `apns-mock explain` prints it; the MCP tool `explain_delivery` begins with it.
public enum RecordExplanation {
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
