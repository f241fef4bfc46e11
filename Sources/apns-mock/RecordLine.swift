import APNSMockCore

/// One record of the admin API's JSON as one line of text, for `deliveries` and `wait`:
/// `#12 200 push 740f4707…78ad com.example.app alert apns-id 8E1C…` (status and reason, or the
/// outcome of a request that was never answered), then what became of the push when the
/// delivery model judged it (`stored until 1795…`, `discarded expired`, `delivered`).
enum RecordLine {
    static func text(_ record: JSONValue) -> String {
        func value(_ json: JSONValue?) -> String? {
            guard let json, json != .null else { return nil }
            return json.scalarText
        }
        var parts = ["#" + (value(record["sequence"]) ?? "?")]
        let response = record["response"]
        if let status = value(response?["status"]) {
            parts.append(status + (value(response?["reason"]).map { " \($0)" } ?? ""))
        } else {
            parts.append(value(record["outcome"]) ?? "pending")
        }
        parts.append(value(record["kind"]) ?? "push")
        if let token = value(record["token"]) {
            parts.append(token.count > 16 ? "\(token.prefix(8))…\(token.suffix(4))" : token)
        }
        if let channel = value(record["channelId"]) { parts.append("channel \(channel)") }
        if let topic = value(record["topic"]) { parts.append(topic) }
        if let pushType = value(record["pushType"]) { parts.append(pushType) }
        if let apnsID = value(record["apnsId"]) { parts.append("apns-id \(apnsID)") }
        if let fault = value(record["faultId"]) { parts.append("fault \(fault)") }
        // A push with no history was delivered when answered: nothing to add.
        if case .array(let history)? = record["deliveryHistory"], !history.isEmpty,
            let delivery = record["delivery"], let state = value(delivery["state"])
        {
            var words = state
            if let reason = value(delivery["reason"]) { words += " \(reason)" }
            if state == "stored", let until = value(delivery["until"]) { words += " until \(until)" }
            parts.append(words)
        }
        return parts.joined(separator: "  ")
    }

    /// The lines for a list of records (`{"deliveries": [...]}`).
    static func lines(_ answer: JSONValue?) -> [String] {
        guard case .array(let records)? = answer?["deliveries"] else { return [] }
        return records.map(text)
    }
}
