/// Rules for the hex form of a device token in `/3/device/<token>`.
public enum DeviceToken {
    /// Shortest token APNs accepts here, in bytes.
    public static let minimumBytes = 8
    /// Longest token accepted, in bytes (classic tokens are 32, Live Activity tokens longer).
    public static let maximumBytes = 256

    /// The lower-case form of `hex` when it is even-length hex of 8–256 bytes, else `nil`: `hex`
    /// itself, not a copy, when it is lower case already (a bulk body's million tokens keep the
    /// strings the JSON reader made).
    public static func normalized(_ hex: String) -> String? {
        isLowercaseHexToken(hex) ? hex : normalized(hex[...])
    }

    /// The lower-case form of `hex` when it is even-length hex of 8–256 bytes, else `nil`.
    public static func normalized(_ hex: some StringProtocol) -> String? {
        if let fast = hex.utf8.withContiguousStorageIfAvailable({ normalized(bytes: $0) }) { return fast }
        return Array(hex.utf8).withUnsafeBufferPointer { normalized(bytes: $0) }
    }

    /// Whether `text` can start a token: 1 to 512 hex digits, any case (odd counts too).
    public static func isHexPrefix(_ text: some StringProtocol) -> Bool {
        guard !text.isEmpty, text.utf8.count <= maximumBytes * 2 else { return false }
        return text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default: false
            }
        }
    }

    /// The sentence completing "`token` …" for a token `normalized` refuses: the allowed form,
    /// and what was given.
    public static func problem(_ token: some StringProtocol) -> String {
        "must be an even number of hex digits, \(minimumBytes)–\(maximumBytes) bytes; got '\(shown(token))'"
    }

    /// `text` as a message quotes it: its first 64 characters and an ellipsis when longer.
    public static func shown(_ text: some StringProtocol) -> String {
        text.count > 64 ? String(text.prefix(64)) + "…" : String(text)
    }

    /// Whether `token` is already a normalized token: lower-case hex of 8–256 bytes.
    public static func isLowercaseHexToken(_ token: String) -> Bool {
        var token = token
        return token.withUTF8 { bytes in
            let count = bytes.count
            guard count % 2 == 0, count >= minimumBytes * 2, count <= maximumBytes * 2 else { return false }
            for byte in bytes {
                let digit = byte &- UInt8(ascii: "0") < 10
                let letter = byte &- UInt8(ascii: "a") < 6
                if !(digit || letter) { return false }
            }
            return true
        }
    }

    /// The same on UTF-8 bytes: one pass, a copy only when there are upper-case digits.
    static func normalized(bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let count = bytes.count
        guard count % 2 == 0, count >= minimumBytes * 2, count <= maximumBytes * 2 else { return nil }
        var upper = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "F"): upper = true
            default: return nil
            }
        }
        // Lower case already (what clients send): one copy, no per-byte rewrite.
        guard upper else { return String(decoding: bytes, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: count) { buffer in
            for index in 0..<count {
                let byte = bytes[index]
                buffer[index] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F") ? byte | 0x20 : byte
            }
            return count
        }
    }
}
