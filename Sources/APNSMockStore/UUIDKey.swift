/// A UUID's 128 bits, for indexing `apns-id` values case-insensitively.
struct UUIDKey: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a canonical 8-4-4-4-12 UUID in any case; `nil` when it is not one.
    init?(_ text: String) {
        guard let key = text.utf8.withContiguousStorageIfAvailable({ UUIDKey(bytes: $0) }) else {
            guard let key = Array(text.utf8).withUnsafeBufferPointer({ UUIDKey(bytes: $0) }) else { return nil }
            self = key
            return
        }
        guard let key else { return nil }
        self = key
    }

    /// Parses the UTF-8 bytes of a canonical UUID.
    init?(bytes text: UnsafeBufferPointer<UInt8>) {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var nibbles = 0
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            case UInt8(ascii: "-"): continue
            default: return nil
            }
            if nibbles < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
            nibbles += 1
        }
        guard nibbles == 32, text.count == 36 else { return nil }
        self.high = high
        self.low = low
    }
}
