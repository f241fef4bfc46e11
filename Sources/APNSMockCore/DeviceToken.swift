/// Rules for the hex form of a device token in `/3/device/<token>`.
public enum DeviceToken {
    /// Shortest token APNs accepts here, in bytes.
    public static let minimumBytes = 8
    /// Longest token accepted, in bytes (classic tokens are 32, Live Activity tokens longer).
    public static let maximumBytes = 256

    /// The lower-case form of `hex` when it is even-length hex of 8–256 bytes, else `nil`.
    public static func normalized(_ hex: some StringProtocol) -> String? {
        let utf8 = hex.utf8
        let count = utf8.count
        guard count % 2 == 0, count >= minimumBytes * 2, count <= maximumBytes * 2 else { return nil }
        var lowered = false
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): continue
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lowered = true
            default: return nil
            }
        }
        return lowered ? hex.lowercased() : String(hex)
    }
}
