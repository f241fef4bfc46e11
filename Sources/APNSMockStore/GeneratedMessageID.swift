/// The bits that tie a generated `apns-id` to its record: the low 64 bits of the UUID hold the
/// RFC 4122 variant and the record's sequence number under a keyed 62-bit permutation, so the
/// id looks random (and differs between runs) while a look-up can recover the sequence number
/// without an index. The high 64 bits stay random, with the version-4 nibble.
enum GeneratedMessageID {
    private static let mask: UInt64 = (1 << 62) - 1
    private static let multiplier1: UInt64 = 0x2545_F491_4F6C_DD1D
    private static let multiplier2: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let inverse1 = inverse(multiplier1)
    private static let inverse2 = inverse(multiplier2)

    /// The low half of the id of record `sequence`.
    static func low(sequence: UInt64, secret: UInt64) -> UInt64 {
        var x = (sequence ^ secret) & mask
        x = (x &* multiplier1) & mask
        x ^= x >> 31
        x = (x &* multiplier2) & mask
        x ^= x >> 31
        return x | 0x8000_0000_0000_0000  // variant 10
    }

    /// The sequence number a generated id would carry; `nil` when `key` cannot be one.
    static func sequence(of key: UUIDKey, secret: UInt64) -> UInt64? {
        guard key.low >> 62 == 0b10, (key.high >> 12) & 0xF == 4 else { return nil }
        var x = key.low & mask
        x ^= x >> 31  // its own inverse: the shift is at least half the width
        x = (x &* inverse2) & mask
        x ^= x >> 31
        x = (x &* inverse1) & mask
        let sequence = (x ^ secret) & mask
        return sequence == 0 ? nil : sequence
    }

    /// The inverse of an odd number modulo 2^64 (Newton's iteration), hence also modulo 2^62.
    private static func inverse(_ value: UInt64) -> UInt64 {
        var result = value
        for _ in 0..<6 { result = result &* (2 &- value &* result) }
        return result
    }
}
