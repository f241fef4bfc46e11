extension DeliveryMatcher {
    /// The matcher as a query string of `GET /v1/deliveries` and the dashboard's filter
    /// (`token=ab12…&payload.aps.alert.title=Welcome`), each name and value percent-encoded
    /// (`DeliveryMatcher.percentEncoded(_:)`), in the conditions' order; empty for an empty
    /// matcher.
    ///
    /// A query string writes each condition as `field=text`, so a condition it cannot say is left
    /// out, and the query then matches more records, never fewer: a payload or preview subset
    /// whose value is an object, an array or `null` (compared whole, not as text), or whose path
    /// has a key that is empty or holds a `.` (read as a step of the path).
    public var queryString: String {
        var parameters: [String] = []
        for condition in conditions {
            switch condition {
            case .payload(let path, let expected), .preview(let path, let expected):
                guard expected.scalarText != nil, expected != .null,
                    path.allSatisfy({
                        guard case .key(let key) = $0 else { return false }
                        return !key.isEmpty && !key.contains(".")
                    })
                else { continue }
            default:
                break
            }
            parameters.append(
                Self.percentEncoded(condition.fieldName) + "=" + Self.percentEncoded(condition.expectedText))
        }
        return parameters.joined(separator: "&")
    }

    /// `text` with every byte but the unreserved characters of RFC 3986 (letters, digits, `-`,
    /// `.`, `_`, `~`) written as `%XX`, as JavaScript's `encodeURIComponent` writes them (which
    /// also leaves `!*'()` alone): safe in a query string's value and in a URL's fragment (a `+`
    /// stays a plus sign, a `&` or `=` stays in its value).
    public static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
