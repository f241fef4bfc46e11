import APNSMockCore

/// Writes the blob of a `StoredDelivery`.
struct BlobWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func varint(_ value: Int) {
        var v = UInt(value)
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { self.bytes($0) }
    }

    /// UTF-8 bytes with no length (inside a tagged entry).
    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Length-prefixed bytes.
    mutating func bytes(_ value: UnsafeBufferPointer<UInt8>) {
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    /// A tagged entry whose value is `value`: tag, length (varint), bytes.
    mutating func entry(_ field: DeliveryRecord.Field, _ value: UnsafeBufferPointer<UInt8>) {
        bytes.append(field.rawValue)
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    /// A tagged entry holding `value`'s UTF-8 bytes.
    mutating func entry(_ field: DeliveryRecord.Field, text value: String) {
        var value = value
        value.withUTF8 { entry(field, $0) }
    }

    /// Starts a tagged entry whose length is known only once written: the tag and a 4-byte
    /// varint to fill in. Write the value, then call `endEntry` with what this returned.
    mutating func beginEntry(_ field: DeliveryRecord.Field) -> Int {
        bytes.append(contentsOf: [field.rawValue, 0x80, 0x80, 0x80, 0])
        return bytes.count
    }

    /// Ends the entry whose value started at `start`: fills in its length as a padded varint
    /// (continuation bits set on the first three bytes), which `BlobReader.varint` reads as usual.
    mutating func endEntry(_ start: Int) {
        let length = bytes.count - start
        precondition(length < 1 << 28, "a record entry over 256 MB")
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[start - 4] = 0x80 | UInt8(truncatingIfNeeded: length & 0x7F)
            buffer[start - 3] = 0x80 | UInt8(truncatingIfNeeded: (length >> 7) & 0x7F)
            buffer[start - 2] = 0x80 | UInt8(truncatingIfNeeded: (length >> 14) & 0x7F)
            buffer[start - 1] = UInt8(truncatingIfNeeded: length >> 21)
        }
    }
}
