/// A device token as the store's token index keys it. A token of 32 bytes written in lower-case
/// hex (what nearly every push carries) is its 256 bits, hashed and compared as four words and
/// read from a stored record's packed bytes without making its text; any other token is its
/// text. Each text has exactly one key, so the index finds what a `String` key would.
enum TokenKey: Hashable, Sendable {
    /// The 64 hex digits of a 32-byte token, 16 to a word, first digits in the high bits of `0`.
    case bits(UInt64, UInt64, UInt64, UInt64)
    /// Any other token, as the record holds it.
    case text(String)

    /// The key of `token`, as a record or a query holds it.
    init(_ token: String) {
        var token = token
        let bits = token.withUTF8 { Self.bits(hexDigits: $0) }
        self = bits ?? .text(token)
    }

    /// The key of a token packed as its bytes (`RecordCodec`'s packed token: lower-case hex).
    init(packed bytes: UnsafeRawBufferPointer, text: () -> String) {
        guard bytes.count == 32 else {
            self = .text(text())
            return
        }
        func word(_ index: Int) -> UInt64 {
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self))
        }
        self = .bits(word(0), word(1), word(2), word(3))
    }

    /// `.bits` of 64 lower-case hex digits; `nil` for anything else.
    private static func bits(hexDigits digits: UnsafeBufferPointer<UInt8>) -> TokenKey? {
        guard digits.count == 64 else { return nil }
        func word(_ first: Int) -> UInt64? {
            var value: UInt64 = 0
            for byte in digits[first..<(first + 16)] {
                // The digit values the packed form is written with: 0x10 for what is not one.
                let nibble = RecordCodec.hexValues[Int(byte)]
                guard nibble < 0x10 else { return nil }
                value = value << 4 | UInt64(nibble)
            }
            return value
        }
        guard let w0 = word(0), let w1 = word(16), let w2 = word(32), let w3 = word(48) else { return nil }
        return .bits(w0, w1, w2, w3)
    }
}
