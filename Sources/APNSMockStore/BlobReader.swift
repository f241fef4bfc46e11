import APNSMockCore

/// Reads the blob of a `StoredDelivery` in the order it was written. The bytes belong to the
/// store's arena: read them under the store's lock.
struct BlobReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func varint() -> Int {
        var result: UInt = 0
        var shift: UInt = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            result |= UInt(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int(result)
    }

    mutating func string() -> String {
        String(decoding: raw(), as: UTF8.self)
    }

    /// Everything not read yet.
    mutating func rest() -> UnsafeRawBufferPointer {
        defer { offset = bytes.count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset...])
    }

    /// The next tagged entry, `nil` at the end.
    mutating func entry() -> (tag: UInt8, bytes: UnsafeRawBufferPointer)? {
        guard offset < bytes.count else { return nil }
        let tag = bytes[offset]
        offset += 1
        return (tag, raw())
    }

    mutating func raw() -> UnsafeRawBufferPointer {
        let count = varint()
        let end = min(offset + count, bytes.count)
        defer { offset = end }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
