/// Decodes percent-encoded path parameters. The router hands a parameter over as sent, so a
/// channel id, which is base64 (`+`, `/`, `=`), arrives with `/` as `%2F` (it must be: a bare
/// `/` would split the path) and often `+` as `%2B` and `=` as `%3D`.
enum PercentDecoding {
    /// `text` with each `%XX` (hex, any case) replaced by that byte; `+` stays `+` (a path is
    /// not a form). `nil` when a `%` is not followed by two hex digits, or the bytes are not
    /// UTF-8.
    static func decode(_ text: some StringProtocol) -> String? {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2])
            else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
