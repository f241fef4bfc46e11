#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Base64url (RFC 4648 §5): the parts of a JWT (provider tokens, VAPID's `t`) and every Web Push
/// key (a subscription's `p256dh` and `auth`, VAPID's `k`). The one reader and writer of it.
public enum Base64URL {
    /// `bytes` as base64url without padding, as browsers write `p256dh` and `auth`.
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.last == "=" { text.removeLast() }
        return text.replacing("+", with: "-").replacing("/", with: "_")
    }

    /// The bytes `text` encodes, or `nil` when it is not base64url: only the characters `A`–`Z`,
    /// `a`–`z`, `0`–`9`, `-` and `_` (so not the `+` and `/` of standard base64), optionally
    /// followed by `=` padding, and not empty.
    public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var unpadded = Substring(text)
        while unpadded.last == "=" { unpadded.removeLast() }
        let paddingCount = text.utf8.count - unpadded.utf8.count
        guard paddingCount < 3, unpadded.utf8.allSatisfy(isAlphabetByte) else { return nil }
        return decodeData(unpadded).map { [UInt8]($0) }
    }

    /// The bytes `text` encodes, read as leniently as JWT parsers read a token's parts: padding
    /// optional, and `nil` only when `text` is empty or does not decode.
    public static func decodeData(_ text: Substring) -> Data? {
        guard !text.isEmpty else { return nil }
        var base64 = String(text).replacing("-", with: "+").replacing("_", with: "/")
        let remainder = base64.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { base64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: base64)
    }

    /// Whether `byte` is one of base64url's 64 characters.
    public static func isAlphabetByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default: false
        }
    }
}
