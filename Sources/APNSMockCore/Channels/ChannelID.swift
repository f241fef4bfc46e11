/// Channel ids: what a well-formed `apns-channel-id` looks like, and how the mock issues one.
///
/// Apple issues base64 of random bytes and tells providers not to assume its size ("Sending
/// channel management requests to APNs"); `BadChannelId` is an id that "isn't properly encoded,
/// or it's greater than the allowed length" ("Handling error responses from APNs").
public enum ChannelID {
    /// The random bytes behind an id the mock issues.
    public static let issuedBytes = 16
    /// The longest id accepted, in decoded bytes: the mock's choice (Apple documents no length).
    public static let maximumBytes = 64

    /// Whether `id` is standard base64 (`A–Z a–z 0–9 + /`, padded with `=` to a multiple of 4
    /// characters) of 1 to `maximumBytes` bytes.
    public static func isValid(_ id: String) -> Bool {
        let utf8 = id.utf8
        let count = utf8.count
        guard count >= 4, count % 4 == 0, count / 4 * 3 <= maximumBytes + 2 else { return false }
        var padding = 0
        for byte in utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            // A data character after padding, or a character outside the alphabet.
            guard padding == 0, decode(byte) != nil else { return false }
        }
        guard padding <= 2 else { return false }
        return count / 4 * 3 - padding <= maximumBytes
    }

    /// A new id: base64 of `issuedBytes` bytes from `generator`.
    public static func generate(using generator: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(issuedBytes)
        while bytes.count < issuedBytes {
            var word = generator.next()
            for _ in 0..<8 where bytes.count < issuedBytes {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return encode(bytes)
    }

    /// Standard base64 with padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(remaining > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static func decode(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
