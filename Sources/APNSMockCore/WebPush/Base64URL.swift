#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Base64url (RFC 4648 §5), the encoding of every Web Push key: a subscription's `p256dh` and
/// `auth`, VAPID's `k`, the parts of a JWT.
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
        return ProviderTokenParser.base64URLDecode(unpadded).map { [UInt8]($0) }
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
