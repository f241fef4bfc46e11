import APNSMockCore

/// The compact form of one record inside `DeliveryStore`: the column fields of
/// `DeliveryRecord.Field` plus one blob of tagged entries (`RecordCodec`).
///
/// Strings that repeat across records (topics, reasons) are interned and held as numbers;
/// everything else sits in `blob` and is decoded only when a reader needs the record.
struct StoredDelivery: Sendable {
    var sequence: UInt64
    var receivedAt: Int64
    var respondedAt: Int64
    /// A 410's `timestamp`, or `noTimestamp`.
    var timestamp: Int64
    var connectionID: UInt64
    var streamID: Int32
    var payloadSize: Int32
    var status: UInt16
    var environment: UInt8
    /// `APNSPushType.code`, or `noPushType`.
    var pushType: UInt8
    var flags: UInt8
    var reason: UInt32
    var topic: UInt32
    var blob: BlobRef

    static let noPushType: UInt8 = 0xFF
    static let noTimestamp = Int64.min
    static let flagGeneratedID: UInt8 = 1
    /// The token is well-formed (lower-case hex) and indexed.
    static let flagIndexedToken: UInt8 = 2
    static let flagGoAway: UInt8 = 16
    /// Not answered (yet): status, reason, times of the response are not set.
    static let flagPending: UInt8 = 32
    /// Deleted by a scoped `DELETE`: skipped by every reader, gone at eviction.
    static let flagDeleted: UInt8 = 64

    var isDeleted: Bool { flags & Self.flagDeleted != 0 }

    /// The response columns of `response` (none: pending).
    mutating func setResponse(_ response: DeliveryResponse?, reasonID: UInt32) {
        guard let response else {
            flags |= Self.flagPending
            status = 0
            reason = 0
            respondedAt = 0
            timestamp = Self.noTimestamp
            return
        }
        flags &= ~Self.flagPending
        if response.goAway { flags |= Self.flagGoAway } else { flags &= ~Self.flagGoAway }
        status = UInt16(clamping: response.status)
        reason = reasonID
        respondedAt = response.respondedAt
        timestamp = response.timestamp ?? Self.noTimestamp
    }
}

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

    mutating func raw(_ value: [UInt8]) {
        varint(value.count)
        bytes.append(contentsOf: value)
    }

    /// Starts a tagged entry: the field's tag and room for the length. Write the value, then
    /// call `endEntry` with what this returned.
    mutating func beginEntry(_ field: DeliveryRecord.Field) -> Int {
        bytes.append(field.rawValue)
        bytes.append(0)
        bytes.append(0)
        bytes.append(0)
        bytes.append(0)
        return bytes.count
    }

    /// Ends the entry whose value started at `start`: fills in its length.
    mutating func endEntry(_ start: Int) {
        let length = UInt32(bytes.count - start)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer[start - 4] = UInt8(truncatingIfNeeded: length)
            buffer[start - 3] = UInt8(truncatingIfNeeded: length >> 8)
            buffer[start - 2] = UInt8(truncatingIfNeeded: length >> 16)
            buffer[start - 1] = UInt8(truncatingIfNeeded: length >> 24)
        }
    }
}

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
        guard offset + 5 <= bytes.count else { return nil }
        let tag = bytes[offset]
        let length =
            Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]) << 16
            | Int(bytes[offset + 4]) << 24
        let start = offset + 5
        let end = min(start + length, bytes.count)
        offset = end
        return (tag, UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
    }

    mutating func raw() -> UnsafeRawBufferPointer {
        let count = varint()
        let end = min(offset + count, bytes.count)
        defer { offset = end }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<end])
    }
}
