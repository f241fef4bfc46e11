/// The JSON body of an APNs error response: `{"reason":"…"}`, plus `timestamp` for 410.
public enum APNSErrorBody {
    /// The body bytes for `reason`, with `timestamp` (epoch milliseconds) when given.
    public static func encode(reason: APNSReason, timestamp: Int64? = nil) -> [UInt8] {
        var text = "{\"reason\":\""
        for scalar in reason.rawValue.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            default:
                if scalar.value < 0x20 {
                    text +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
        if let timestamp { text += ",\"timestamp\":\(timestamp)" }
        text += "}"
        return Array(text.utf8)
    }
}
