/// Reads a fuzz input as a few fields: a leading byte of flags, lines, the rest.
///
/// Never fails: an input too short for a field gives an empty field, so every input reaches the
/// API under test.
struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next byte, or 0 at the end.
    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The bytes up to the next line feed (not included; the line feed is consumed), or the rest.
    mutating func line() -> ArraySlice<UInt8> {
        let end = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        defer { offset = min(end + 1, bytes.count) }
        return bytes[offset..<end]
    }

    /// Whether every byte was read.
    var isAtEnd: Bool { offset >= bytes.count }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// `bytes` as text, invalid UTF-8 repaired (as the transport turns header bytes into text).
    static func text(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
