/// The `apns-id` header: a canonical UUID, validated, echoed, or generated.
public enum APNSMessageID {
    /// Whether `value` is a canonical 8-4-4-4-12 UUID in upper, lower or mixed case.
    public static func isValid(_ value: some StringProtocol) -> Bool {
        var index = 0
        for byte in value.utf8 {
            switch index {
            case 8, 13, 18, 23:
                guard byte == UInt8(ascii: "-") else { return false }
            default:
                guard isHexDigit(byte) else { return false }
            }
            index += 1
            if index > 36 { return false }
        }
        return index == 36
    }

    /// A new upper-case version-4 UUID string made from `generator`'s random bits.
    ///
    /// Formatting by hand costs a fraction of `UUID().uuidString`.
    public static func generate(using generator: inout some RandomNumberGenerator, lowercase: Bool = false)
        -> String
    {
        let bits = generateBits(using: &generator)
        return format(high: bits.high, low: bits.low, lowercase: lowercase)
    }

    /// 128 random bits of `generator` with the version-4 and RFC 4122 variant bits set.
    public static func generateBits(using generator: inout some RandomNumberGenerator) -> (high: UInt64, low: UInt64) {
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return ((high & ~0xF000) | 0x4000, (low & ~(0xC000_0000_0000_0000)) | 0x8000_0000_0000_0000)
    }

    /// Formats 128 bits as an 8-4-4-4-12 UUID string (upper case unless `lowercase`).
    public static func format(high: UInt64, low: UInt64, lowercase: Bool = false) -> String {
        String(unsafeUninitializedCapacity: 36) { write(high: high, low: low, lowercase: lowercase, into: $0) }
    }

    /// Writes 128 bits as an 8-4-4-4-12 UUID into the first 36 bytes of `buffer`; returns 36.
    @discardableResult
    public static func write(
        high: UInt64, low: UInt64, lowercase: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let digits: StaticString = lowercase ? "0123456789abcdef" : "0123456789ABCDEF"
        digits.withUTF8Buffer { hex in
            var out = 0
            func put(_ value: UInt64, nibbles: Int) {
                var shift = (nibbles - 1) * 4
                while shift >= 0 {
                    buffer[out] = hex[Int((value >> UInt64(shift)) & 0xF)]
                    out += 1
                    shift -= 4
                }
            }
            put(high >> 32, nibbles: 8)
            buffer[out] = UInt8(ascii: "-")
            out += 1
            put((high >> 16) & 0xFFFF, nibbles: 4)
            buffer[out] = UInt8(ascii: "-")
            out += 1
            put(high & 0xFFFF, nibbles: 4)
            buffer[out] = UInt8(ascii: "-")
            out += 1
            put(low >> 48, nibbles: 4)
            buffer[out] = UInt8(ascii: "-")
            out += 1
            put(low & 0xFFFF_FFFF_FFFF, nibbles: 12)
        }
        return 36
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default: return false
        }
    }
}
