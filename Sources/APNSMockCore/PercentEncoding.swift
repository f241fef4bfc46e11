/// The project's one percent-encoder (RFC 3986): every byte of a text's UTF-8 but the unreserved
/// characters (letters `A-Z a-z`, digits, `-`, `.`, `_`, `~`) written as `%XX` with upper-case hex
/// digits.
///
/// Used for a path segment (`/v1/faults/{id}`), a query string's names and values
/// (`payload.aps.alert.title=Hi`: a matcher field's `.` stays as it is) and a URL's fragment
/// (the dashboard's `#filter=…`). As JavaScript's `encodeURIComponent`, except that `!*'()`
/// are encoded too: a `+` stays a plus sign, a `&`, `=`, `/`, `?` or `#` stays in its value.
public enum PercentEncoding {
    /// `text` percent-encoded: only the unreserved characters of RFC 3986 are left as they are.
    public static func encoded(_ text: String) -> String {
        let hex: StaticString = "0123456789ABCDEF"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                hex.withUTF8Buffer { digits in
                    bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
                }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `name=value` pairs as a query string (`a=1&b=2`), each name and value percent-encoded,
    /// in the order given; empty for no pairs (no `?`).
    public static func query(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { encoded($0.name) + "=" + encoded($0.value) }.joined(separator: "&")
    }

    /// Whether `byte` is one of RFC 3986's unreserved characters.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
