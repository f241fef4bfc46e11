/// Rules for the hex form of a device token in `/3/device/<token>`.
public enum DeviceToken {
    /// Shortest token APNs accepts here, in bytes.
    public static let minimumBytes = 8
    /// Longest token accepted, in bytes (classic tokens are 32, Live Activity tokens longer).
    public static let maximumBytes = 256

    /// The lower-case form of `hex` when it is even-length hex of 8–256 bytes, else `nil`.
    public static func normalized(_ hex: some StringProtocol) -> String? {
        if let fast = hex.utf8.withContiguousStorageIfAvailable({ normalized(bytes: $0) }) { return fast }
        return Array(hex.utf8).withUnsafeBufferPointer { normalized(bytes: $0) }
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
