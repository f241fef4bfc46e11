#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level string checks for the answer path, where `Character`-based `String` methods cost
/// hundreds of instructions per call.
public enum ASCIIBytes {
    /// Whether `string` starts with the ASCII `prefix`.
    @inlinable
    public static func hasPrefix(_ string: some StringProtocol, _ prefix: StaticString) -> Bool {
        let fast = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            prefix.withUTF8Buffer { wanted in
                bytes.count >= wanted.count && bytes.prefix(wanted.count).elementsEqual(wanted)
            }
        }
        return fast ?? prefix.withUTF8Buffer { string.utf8.starts(with: $0) }
    }

    /// Whether `string` contains the byte `byte` (`memchr` where the bytes are contiguous).
    @inlinable
    public static func contains(_ string: some StringProtocol, _ byte: UInt8) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { firstIndex(of: byte, in: $0) != nil }
            ?? string.utf8.contains(byte)
    }

    /// Where `byte` first occurs in `bytes` (one `memchr`).
    @inlinable
    public static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// Whether two byte buffers hold the same bytes (one `memcmp`, not a loop of comparisons).
    @inlinable
    public static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return true }
        return memcmp(left, right, lhs.count) == 0
    }

    /// Whether `bytes` spell `text` exactly.
    @inlinable
    public static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { equal(bytes, $0) }
    }

    /// Whether `lhs` and `rhs` are equal ignoring ASCII letter case. Native strings compare
    /// their UTF-8 bytes in place; others go through their UTF-8 views.
    public static func equalIgnoringCase(_ lhs: some StringProtocol, _ rhs: some StringProtocol) -> Bool {
        let a = lhs.utf8
        let b = rhs.utf8
        guard a.count == b.count else { return false }
        let inPlace = a.withContiguousStorageIfAvailable { a in
            b.withContiguousStorageIfAvailable { b in zip(a, b).allSatisfy(sameIgnoringCase) }
        }
        if let inPlace, let equal = inPlace { return equal }
        return zip(a, b).allSatisfy(sameIgnoringCase)
    }

    /// `string` with its ASCII capitals made small letters and every other byte kept: the key
    /// under which `equalIgnoringCase` equals are equal (`string` itself when it has no capital).
    public static func lowercased(_ string: String) -> String {
        let hasCapital =
            string.utf8.withContiguousStorageIfAvailable { $0.contains { lowercased($0) != $0 } }
            ?? string.utf8.contains { lowercased($0) != $0 }
        guard hasCapital else { return string }
        return String(decoding: string.utf8.map(lowercased), as: UTF8.self)
    }

    /// `byte` with an ASCII capital made its small letter; any other byte as it is. The one case
    /// fold of `equalIgnoringCase`, `lowercased` and the fault rules' token fingerprints.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    private static func sameIgnoringCase(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || lowercased(x) == lowercased(y)
    }
}
